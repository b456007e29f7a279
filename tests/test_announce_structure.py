"""The announce package reads top-down: the phrase core knows no language, languages register with it, and no
two modules of the package import each other (directly or round a longer circle)."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.announce  # noqa: F401  (registers the languages)
from companion.announce import phrases
from companion.rules.outcome import Outcome

PACKAGE = Path(phrases.__file__).resolve().parent


def imports_within_package(path: Path) -> set[str]:
    """The announce package's modules that ``path`` imports anywhere (top level or inside a function)."""
    from test_ui_structure import imports_within_package as within

    return within(path, "companion.announce")


def test_the_phrase_core_imports_no_language_module():
    assert imports_within_package(PACKAGE / "phrases.py") & {"english", "japanese"} == set()


def test_no_module_of_the_package_imports_another_round_a_circle():
    modules = {p.stem: imports_within_package(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}

    def circle_from(start: str, at: str, path: list[str]) -> list[str] | None:
        for nxt in sorted(modules.get(at, ())):
            if nxt == start:
                return path + [nxt]
            if nxt not in path:
                found = circle_from(start, nxt, path + [nxt])
                if found:
                    return found
        return None

    for module in sorted(modules):
        circle = circle_from(module, module, [module])
        assert circle is None, "import circle: " + " -> ".join(circle)


def test_each_language_is_registered_with_the_core_and_an_unknown_one_is_named():
    assert {phrases.language(code).code for code in ("en", "ja")} == {"en", "ja"}
    with pytest.raises(ValueError, match="language must be one of en, ja, got 'fr'"):
        phrases.phrase_for_outcome(Outcome(index=0, kind="roll", player=0, dice=(3, 5)), ["red"], "fr")
