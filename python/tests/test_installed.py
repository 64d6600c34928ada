"""The package as installed: typed, with its schemas, and not the source tree."""
import os
from pathlib import Path

import pytest

import structure


@pytest.mark.skipif(not os.environ.get("STRUCTURE_EXPECT_INSTALLED"),
                    reason="runs against an installed wheel (python/tests/wheel_test.sh)")
def test_the_package_is_the_installed_one():
    where = Path(structure.__file__).resolve().parent
    assert "site-packages" in where.parts, where
    assert (where / "py.typed").is_file()
    assert (where / "_structure.pyi").is_file()
    assert (where / "schemas" / "user-action-record.json").is_file()
    assert "user-action-record" in [n for n, _, _ in structure.Engine().schemas()]
