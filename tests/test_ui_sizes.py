"""Every screen works on the tablets a table brings: 1280x800 and 800x1280 at 1 px per dp, 2048x1536 at 2 (an
iPad-class screen: 1024x768 dp), 1920x1200 at 1.5 (a 10" Android tablet: 1280x800 dp); English and Japanese.

The layout check (``driver.layout_problems``: touch targets of a finger's size, nothing off the window, nothing
overlapping, no text running past its box, no letters under 9 sp, no word broken inside) runs on each screen state
the UI tests reach: start, new game (base and High Tide), the board editor (hexes and harbors), Scan the board (a
hex and a harbour being corrected), the play screen through set-up, a roll, the trade, development-card and umpire
panels, statistics and settings.  ``LAYOUT_SHOTS=DIR`` also writes a screenshot of each state, to look at.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from companion.ui import driver as d
from tests.test_ui_board_scan import DATA, read
from tests.test_ui_board_scan_harbours import tap_harbour

pytestmark = pytest.mark.timeout(600)

SIZES = {"landscape": ((1280, 800), 1.0), "portrait": ((800, 1280), 1.0), "ipad": ((2048, 1536), 2.0),
         "android10": ((1920, 1200), 1.5)}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_screen_state_fits_in_both_languages(tmp_path, size):
    from kivy.metrics import Metrics

    window, density = SIZES[size]
    game_id = d.journal_main_phase_game(tmp_path)
    shots = Path(os.environ["LAYOUT_SHOTS"]) if os.environ.get("LAYOUT_SHOTS") else None
    old_density = Metrics.density
    Metrics.density = density
    app = d.start_app(tmp_path, size=window)
    found: dict[str, list[str]] = {}
    try:
        def check(state: str) -> None:
            for lang in ("en", "ja"):
                if app.lang != lang:
                    app.apply_settings(dataclasses.replace(app.settings, lang=lang))
                problems = d.layout_problems(app.root)
                if problems:
                    found[f"{state}/{lang}"] = problems
                if shots is not None:  # the widgets rendered off screen (the window's pixels suffer on a busy Xvfb)
                    shots.mkdir(parents=True, exist_ok=True)
                    app.root.export_to_png(str(shots / f"{size}-{state}-{lang}.png"))
            app.apply_settings(dataclasses.replace(app.settings, lang="en"))

        check("start")
        ng = d.open_new_game(app)
        check("new-game")
        d.tap(ng.ids.g_high_tide)
        check("new-game-high-tide")
        d.tap(ng.ids.g_base)
        d.tap(ng.ids.edit)
        editor = app.root.get_screen("board_editor")
        check("board-editor")
        d.tap(editor.ids.mode_harbor)
        check("board-editor-harbors")
        # Scan the board with a photo read (testimg2: its message runs to four sentences), the first unsure hex
        # selected (the terrain and number rows shown), then a harbour (the trade rows)
        d.tap(editor.ids.scan)
        scan = app.root.get_screen("board_scan")
        read(app, scan, DATA / "photos" / "testimg2.jpg")
        check("board-scan-hex")
        tap_harbour(scan, sorted(scan.scan.unsure_harbours)[0])
        check("board-scan-harbour")
        d.tap(scan.ids.back)
        d.tap(d.find(editor, "Back"))
        d.tap(d.find(ng, "Back"))

        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        check("play-main")
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        check("play-trade")
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        d.tap(d.find(play.ids.actions, app.tr("play_card")))
        check("play-card")
        d.tap(d.find(play.ids.actions, app.tr("play_card")))
        d.tap(play.ids.umpire)
        check("play-umpire")
        d.tap(play.ids.umpire)
        d.tap(play.ids.end_turn)
        check("play-roll")
        d.tap(play.ids.stats)
        check("statistics")
        d.tap(d.find(app.root.get_screen("statistics"), "Back"))
        d.tap(play.ids.menu)
        d.tap(app.root.get_screen("start").ids.settings)
        check("settings")
    finally:
        d.stop_app(app)
        Metrics.density = old_density
    assert not found, "\n".join(f"{state}: {p}" for state, problems in found.items() for p in problems)
