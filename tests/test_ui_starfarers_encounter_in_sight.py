"""Starfarers' encounter panel whole in sight: what the card gave or took is entered and Record tapped without a
drag, upright (800x1280) and lying down (1280x800), in English and Japanese.  Its nine steppers stood one a row
and Record under them, 520 dp down the list: upright under the fold, and the drag that found it glided back and
lost the next tap (session 18's trial).  Now the steppers stand three a row upright, two lying down ("ore: +1",
under one line saying what + and − mean), Record in the last cell.  The example game's first encounter (event
35: a half-medal and a trade good) entered by taps and recorded as the example has it; real widgets under Xvfb."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-starfarers.json"


def in_sight(widget, view) -> bool:
    x0, y0, x1, y1 = d._window_box(widget)
    vx0, vy0, vx1, vy1 = d._window_box(view)
    return vx0 - 1 <= x0 and x1 <= vx1 + 1 and vy0 - 1 <= y0 and y1 <= vy1 + 1


def step_buttons(screen, label: str):
    """The + of the encounter's stepper whose words start with ``label``."""
    d.settle()
    row = next(r for r in d.walk(screen.ids.actions) if len(r.children) == 3
               and getattr(r.children[2], "text", "").startswith(label))
    return row.children[0]


@pytest.mark.parametrize("size,lang", [((800, 1280), "en"), ((800, 1280), "ja"), ((1280, 800), "en"),
                                       ((1280, 800), "ja")],
                         ids=["portrait-en", "portrait-ja", "landscape-en", "landscape-ja"])
def test_the_encounter_is_entered_and_recorded_without_a_drag(tmp_path, size, lang):
    from companion.record import Record, load_record

    example = load_record(EXAMPLE)
    event = example.events[35]
    assert event["type"] == "encounter"
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        d.settle()
        app.start_game(Record(example.game, example.players, example.board, example.options, list(example.events[:35])))
        screen = app.root.get_screen("starfarers")
        assert app.table.game.state.phase == "encounter"
        d.settle()
        view = screen.ids.actions.parent
        record = d.find(screen.ids.actions, app.tr("sf_record"))
        shown = [w for w in d.walk(screen.ids.actions) if hasattr(w, "trigger_action")]
        assert len(shown) == 19  # nine steppers' − and +, and Record
        hidden = [getattr(w, "text", "") for w in shown if not in_sight(w, view)]
        assert hidden == [], f"out of sight without a drag: {hidden}"
        assert d.layout_problems(app.root) == []

        # each + found again before its tap (a tap rebuilds the panel), in sight: d.tap scrolls nothing then
        for label in [app.tr("sf_half_medals")] + [screen.resource_text(r) + ":" for r in event["gain"]]:
            plus = step_buttons(screen, label)
            assert in_sight(plus, view)
            d.tap(plus)
        record = d.find(screen.ids.actions, app.tr("sf_record"))
        assert in_sight(record, view)
        d.tap(record)
        d.settle()
        recorded = app.table.record.events[-1]
        assert recorded == event, (recorded, screen.message)
    finally:
        d.stop_app(app)
