"""The app's UI package reads top-down: one module per screen, what they share in ``widgets`` (which imports no
screen), and no two modules of the package importing each other, directly or round a longer circle (the old
``screens`` -> ``starfarers_screen`` -> ``game_screen`` -> ``umpire_notes`` -> ``screens`` was one)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "companion" / "ui"
SCREENS = ("start_screen", "new_game_screen", "board_editor_screen", "play_screen", "statistics_screen",
           "settings_screen")


def imports_within_package(path: Path, package: str = "companion.ui") -> set[str]:
    """The modules of ``package`` that ``path`` (a module of it) imports anywhere (top level or inside a
    function), relatively (``from .x import``, ``from . import x``) or by full name (``companion.ui.x``)."""
    depth = package.count(".") + 1  # where a module's own name stands in a full name
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(package):
            rest = node.module.split(".")[depth:]
            found.update(rest[:1] or [alias.name for alias in node.names])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[depth] for a in node.names if a.name.startswith(package + "."))
    return found - {"__init__"}


def modules() -> dict[str, set[str]]:
    return {p.stem: imports_within_package(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}


def circle_from(graph: dict[str, set[str]], start: str, at: str, path: list[str]) -> list[str] | None:
    for nxt in sorted(graph.get(at, ())):
        if nxt == start:
            return path + [nxt]
        if nxt not in path:
            found = circle_from(graph, start, nxt, path + [nxt])
            if found:
                return found
    return None


def test_no_module_of_the_ui_imports_another_round_a_circle():
    graph = modules()
    for module in sorted(graph):
        circle = circle_from(graph, module, module, [module])
        assert circle is None, "import circle: " + " -> ".join(circle)


def test_the_check_finds_the_old_circle():
    """Not vacuous: the four modules as they imported each other before the split are caught."""
    old = {"screens": {"starfarers_screen"}, "starfarers_screen": {"game_screen"},
           "game_screen": {"umpire_notes"}, "umpire_notes": {"screens"}}
    assert circle_from(old, "screens", "screens", ["screens"]) == \
        ["screens", "starfarers_screen", "game_screen", "umpire_notes", "screens"]


def test_shared_widgets_import_no_screen_and_each_screen_has_its_own_layout():
    graph = modules()
    screens = {m for m in graph if m.endswith("_screen") or m == "screens"}
    shared = ("widgets", "choices", "board_view", "camera_picture", "fitted_label", "wrapping", "steady_scroll",
              "i18n", "refusals_text", "places", "tide_text", "play_panels", "umpire_notes")
    for module in shared:  # what the screens stand on imports none of them (nor the app)
        assert graph[module] & (screens | {"app"}) == set(), (module, graph[module])
    for screen in SCREENS:
        assert screen in graph, screen
        kv = PACKAGE / (screen.removesuffix("_screen") + ".kv")
        assert kv.exists(), kv
        assert f"<{''.join(w.title() for w in screen.split('_')[:-1])}Screen>:" in kv.read_text(encoding="utf-8")


def into_sight_routines(package: Path = PACKAGE) -> dict[str, list[str]]:
    """Every function of the package that brings something of a screen into sight (its name ends in
    ``into_sight``), by module."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.endswith("into_sight"):
                found.setdefault(path.stem, []).append(node.name)
    return found


def test_one_routine_brings_a_panel_into_sight():
    """The play screen and Starfarers scroll an opened panel into sight by one routine, ChoicePanels' (each had its
    own: PlayScreen.bring_panel_into_sight for every panel, ChoicePanels.bring_trade_into_sight for Starfarers'
    trade), and both screens call it."""
    assert into_sight_routines() == {"choices": ["bring_panel_into_sight"]}
    for screen in ("play_screen", "starfarers_screen"):
        assert "self.bring_panel_into_sight()" in (PACKAGE / f"{screen}.py").read_text(encoding="utf-8"), screen
