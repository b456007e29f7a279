"""A panel opened or grown in the play screen's actions shows what the player needs next, lying down and upright,
in English and Japanese.

Seen by real taps (landscape 1280x800): Show VP cards' OK a 12 px sliver above End turn; after Trade -> a player
only "Give" and half a row; Year of plenty's rows below the window, nothing scrolled.  Now the actions scroll the
least that shows the panel's OK, never past the panel's first row (the choice just made).  Year of plenty's OK
says its count, as the discard's does.  Real widgets under Xvfb, taps through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(240)

SIZES = {"landscape": (1280, 800), "upright": (800, 1280)}


def visible(widget, box) -> float:
    """How many px of ``widget``'s height lie inside ``box`` (a ScrollView), in window coordinates."""
    y0 = widget.to_window(widget.x, widget.y)[1]
    y1 = widget.to_window(widget.x, widget.top)[1]
    by0 = box.to_window(box.x, box.y)[1]
    by1 = box.to_window(box.x, box.top)[1]
    return max(0.0, min(y1, by1) - max(y0, by0))


def whole(widget, box) -> bool:
    return visible(widget, box) >= widget.height - 1


def panel_rows(play):
    return [w for w in play.ids.actions.children[::-1][play.panel_start:] if w.height > 0]


def start(tmp_path, size, lang):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=SIZES[size])
    if lang == "ja":
        app.lang = "ja"
        d.settle()
    return app, d.resume(app, game_id)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_trade_with_a_player_shows_the_panel_from_its_partners(tmp_path, size, lang):
    app, play = start(tmp_path, size, lang)
    try:
        scroller = play.ids.actions.parent
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        d.tap(d.find(panel_rows(play)[0], app.player_name(1)))
        d.settle()
        assert play.selection.get("partner") == 1
        rows = panel_rows(play)
        assert whole(rows[0], scroller), "the partners' row went out of sight"
        top = scroller.to_window(scroller.x, scroller.top)[1]
        gap = top - rows[0].to_window(rows[0].x, rows[0].top)[1]
        # the panel is taller than the view: it fills the view from its partners' row down (before, lying down,
        # the builds above it took 180 of the view's 316 px)
        assert whole(rows[-1], scroller) or gap <= 1, f"{gap} px above the partners' row are not the trade panel"
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_show_vp_cards_ok_in_sight(tmp_path, size, lang):
    app, play = start(tmp_path, size, lang)
    try:
        scroller = play.ids.actions.parent
        d.tap(d.find(play.ids.actions, app.tr("reveal_vp")))
        d.settle()
        ok = panel_rows(play)[-1]
        assert ok.text.startswith(app.tr("reveal_ok", n=1)[:2]), ok.text
        assert whole(ok, scroller), f"{visible(ok, scroller)} of the OK's {ok.height} px in sight"
        d.tap(ok)
        assert app.table.game.state.players[0].vp_revealed == 1
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_year_of_plenty_shows_its_rows_and_counts_on_ok(tmp_path, size, lang):
    app, play = start(tmp_path, size, lang)
    try:
        scroller = play.ids.actions.parent
        d.tap(d.find(play.ids.actions, app.tr("play_card"), startswith=True))
        d.tap(d.find(play.ids.actions, app.tr("c_year_of_plenty")))
        d.settle()
        rows = panel_rows(play)
        assert whole(rows[0], scroller), "the cards' row went out of sight"
        assert whole(rows[1], scroller) and whole(rows[2], scroller), "the first resources' rows are out of sight"
        ok = rows[-1]
        assert ok.text == f"{app.tr('ok')} (0/2)" and ok.disabled
        plus = [w for w in d.walk(rows[1]) if getattr(w, "text", None) == "+"][0]
        d.tap(plus)
        assert panel_rows(play)[-1].text == f"{app.tr('ok')} (1/2)"
        d.tap([w for w in d.walk(panel_rows(play)[1]) if getattr(w, "text", None) == "+"][0])
        assert panel_rows(play)[-1].text == f"{app.tr('ok')} (2/2)"
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_trade_with_the_bank_whole_in_sight(tmp_path, size, lang):
    """The playtest's upright bank trade: only a sliver of the give row showed after "Bank"."""
    app, play = start(tmp_path, size, lang)
    try:
        scroller = play.ids.actions.parent
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        d.tap(d.find(panel_rows(play)[0], app.tr("bank")))
        d.settle()
        assert play.selection.get("partner") == "bank"
        rows = panel_rows(play)
        assert all(whole(r, scroller) for r in rows), [visible(r, scroller) for r in rows]
    finally:
        d.stop_app(app)
