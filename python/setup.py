"""Builds structure._structure with CMake (python/CMakeLists.txt), on Debian's setuptools.

Environment:
  STRUCTURE_PREFIX      an installed engine (`cmake --install BUILD --prefix P`): link it instead
                        of building the engine from the repository around this folder
  STRUCTURE_CMAKE_ARGS  more arguments for CMake, e.g. "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  STRUCTURE_JOBS        parallel compile jobs (default: the number of CPUs)
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build_dir = Path(self.build_temp).resolve() / "cmake"
        args = ["-S", str(HERE), "-B", str(build_dir),
                f"-DPython3_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=Release"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        prefix = os.environ.get("STRUCTURE_PREFIX")
        if prefix:
            args.append(f"-DCMAKE_PREFIX_PATH={Path(prefix).resolve()}")
        else:
            args.append("-DSTRUCTURE_FROM_SOURCE=ON")
        args += shlex.split(os.environ.get("STRUCTURE_CMAKE_ARGS", ""))
        jobs = os.environ.get("STRUCTURE_JOBS", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", *args])
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "_structure",
                               "-j", jobs])
        built = sorted(build_dir.glob("_structure*.so"))
        if not built:
            raise RuntimeError(f"the build made no _structure module in {build_dir}")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


class BuildPy(build_py):
    """Adds the bundled schemas (registry/schemas) to the package."""

    def run(self):
        super().run()
        prefix = os.environ.get("STRUCTURE_PREFIX")
        sources = [REPO / "registry" / "schemas"]
        if prefix:
            sources.insert(0, Path(prefix) / "share" / "structure" / "schemas")
        for source in sources:
            if source.is_dir():
                dest = Path(self.build_lib) / "structure" / "schemas"
                shutil.rmtree(dest, ignore_errors=True)
                shutil.copytree(source, dest)
                break


setup(ext_modules=[CMakeExtension("structure._structure")],
      cmdclass={"build_ext": CMakeBuild, "build_py": BuildPy})
