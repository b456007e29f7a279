"""A tap on a side out at sea in the base game says plainly that a road goes on land.

Seen by touch under Xvfb (last session, and again this one): in a base game -- no ships, no sea lanes -- a finger
that slipped onto the sea frame read "Not allowed: no land beside a sea lane, so no road can go there" (Japanese:
「海路は陸地に接していないので道を置けません」), words from Seafarers that a table playing the base game has
never heard.  Real widgets under Xvfb, the side tapped on the board; nothing is recorded, and no "Record anyway
(umpire)" is offered: the umpire's override is for rules, not for a place a road cannot be (the rules refuse it
forced as well, tests/test_forced_no_such_place.py)."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("lang,size,says", [
    ("en", (1280, 800), "Not allowed: a road goes on land: tap a side that touches a land hex"),
    ("ja", (800, 1280), "道は陸地に置きます"),
])
def test_a_road_tapped_out_at_sea_is_told_to_go_on_land(tmp_path, lang, size, says):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        d.settle()
        play = d.resume(app, game_id)
        game, board = app.table.game, play.ids.board
        sea = [e for e in sorted(game.board.edges) if not game.board.edge_is_land(e)]
        inside = [e for e in sea if board.collide_point(*board.parent.to_widget(*board.edge_pos(e)))]
        assert inside, "no side out at sea on the screen"
        events = len(app.table.record.events)
        d.tap_at(*board.edge_pos(inside[len(inside) // 2]))
        d.settle()
        said = play.ids.message.text
        assert says in said, said
        assert "sea lane" not in said and "海路" not in said, said
        assert len(app.table.record.events) == events
        # a road at sea is no rule an umpire may overrule: no "Record anyway (umpire)" is offered for it
        d.settle()
        with pytest.raises(LookupError):
            d.find(play.ids.message_row, app.tr("force"), timeout=0)
        assert not play.refused
    finally:
        d.stop_app(app)
