"""What ships: no module reaches outside its package for a file, and the package data list covers the tree.

An installed wheel, a pipx environment or an APK has no checkout around the packages, so a module that finds a
file through ``Path(__file__).parents[N]`` above its top-level package, or names a checkout folder such as
``assets/``, works in a checkout and fails for every user (issue 28).  Files are found through
importlib.resources (``companion.assets.path``, ``vision.reader.DEFAULT_MODEL_DIR``).
"""

from __future__ import annotations

import ast
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "firmware_bridge", "vision")
SHIPPED = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")
                 if "training" not in p.relative_to(ROOT).parts)


def _file_anchored(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(node))


def checkout_reaches(path: Path, source: str | None = None) -> list[str]:
    """Places in ``path`` (or in ``source`` as if it were at ``path``) that leave its top-level package
    through ``__file__`` or name ``assets/``."""
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"), str(path))
    top = ROOT / path.relative_to(ROOT).parts[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "parents" and _file_anchored(node.value) \
                and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
            if not path.parents[node.slice.value].is_relative_to(top):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: Path(__file__).parents[{node.slice.value}]")
        if isinstance(node, ast.Attribute) and node.attr == "parent" and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "parent" and _file_anchored(node):
            levels, inner = 0, node
            while isinstance(inner, ast.Attribute) and inner.attr == "parent":
                levels, inner = levels + 1, inner.value
            if not path.parents[levels - 1].is_relative_to(top):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: __file__ and {levels} x .parent")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"(\.\./)*assets(/.*)?", node.value):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: names the folder {node.value!r}")
    return found


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_no_shipped_module_finds_a_file_in_the_checkout(path):
    assert checkout_reaches(path) == []


def test_the_check_catches_the_old_way():
    """The lines the app had before issue 28 are caught (the check is not vacuous)."""
    old = {"companion/announce/clips.py": 'VOICE_DIR = Path(__file__).resolve().parents[2] / "assets" / "voice"',
           "vision/reader.py": 'DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[1] / "assets" / "vision"',
           "companion/ui/app.py": 'HERE = Path(__file__).resolve().parent\nASSETS = HERE.parents[1] / "assets"'}
    for path, source in old.items():
        assert checkout_reaches(ROOT / path, source), path
    assert checkout_reaches(ROOT / "companion/ui/app.py", "KV = Path(__file__).resolve().parent / 'x.kv'") == []


def test_package_data_patterns_cover_every_bundled_file():
    """Each file in companion/assets and vision/models matches a pyproject package-data pattern (a file
    added beside them without one would be missing from the wheel, found only by the slow wheel test)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package, folder in (("companion.assets", ROOT / "companion" / "assets"), ("vision", ROOT / "vision")):
        patterns = data[package] + data["*"]
        files = [p for p in (folder.rglob("*") if package != "vision" else (folder / "models").rglob("*"))
                 if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
        assert files
        for file in files:
            rel = file.relative_to(folder).as_posix()
            assert any(fnmatch(rel, pattern) and rel.count("/") == pattern.count("/") for pattern in patterns), rel
