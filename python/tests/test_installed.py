"""The package as installed: typed, with its schemas, and not the source tree."""
import os
from pathlib import Path

import structure


def test_the_package_is_the_installed_one():
    where = Path(structure.__file__).resolve().parent
    if os.environ.get("STRUCTURE_EXPECT_INSTALLED"):
        assert "site-packages" in where.parts, where
    assert (where / "py.typed").is_file()
    assert (where / "_structure.pyi").is_file()
    assert (where / "schemas" / "user-action-record.json").is_file() or any(
        (where / "schemas").iterdir())
