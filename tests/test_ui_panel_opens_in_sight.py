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


def tap_in_sight(widget, box) -> None:
    """A finger's tap on ``widget`` where it is drawn, without any scroll: it must be whole in the view."""
    assert whole(widget, box), f"{visible(widget, box):.0f} of {widget!r}'s {widget.height:.0f} px in sight"
    d.tap_at(*widget.to_window(*widget.center))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_a_trade_with_a_player_takes_no_drag(tmp_path, size, lang):
    """Trade -> a partner -> the counts -> OK, each tapped where it shows: the partners, every counter of both
    sides and OK in the view at once.  Before, the panel was two blocks of five rows (~780 px) in a view of
    298-316 px: Get and OK lay 454-472 px below it, a drag or two away."""
    app, play = start(tmp_path, size, lang)
    try:
        scroller = play.ids.actions.parent
        game = app.table.game
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        tap_in_sight(d.find(panel_rows(play)[0], app.player_name(1)), scroller)
        d.settle()
        assert play.selection.get("partner") == 1
        rows = panel_rows(play)
        assert all(whole(r, scroller) for r in rows), [f"{visible(r, scroller):.0f}/{r.height:.0f}" for r in rows]
        counters = [d.counter(play.ids.actions, r, side) for r in game.resources for side in ("give", "get")]
        assert all(whole(c, scroller) for c in counters), [c.resource for c in counters if not whole(c, scroller)]
        ben_lumber = game.state.players[1].hand.count("lumber")
        aki_brick = game.state.players[0].hand.count("brick")
        tap_in_sight(d.counter(play.ids.actions, "brick", "give").plus, scroller)
        tap_in_sight(d.counter(play.ids.actions, "lumber", "get").plus, scroller)
        d.settle()
        assert play.selection.get("give") == {"brick": 1} and play.selection.get("get") == {"lumber": 1}
        ben = d.counter(play.ids.actions, "lumber", "get")
        assert ben.n == 1 and ben.count.text.startswith("1[") and "/4[" in ben.count.text, "Ben's 4 lumber by the count"
        tap_in_sight(d.find(play.ids.actions, app.tr("ok")), scroller)
        assert app.table.record.events[-1] == {"type": "trade", "player": 0, "with": 1, "give": {"brick": 1},
                                               "get": {"lumber": 1}}, play.message
        assert game.state.players[1].hand.count("lumber") == ben_lumber - 1
        assert game.state.players[0].hand.count("brick") == aki_brick - 1
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
        # OK and every resource's counter in sight: the 5th row (ore) and OK were a drag away (OK 96 px below the
        # view lying down, 114 upright)
        ok = d.find_label(play.ids.actions, f"{app.tr('ok')} (")
        assert ok.text == f"{app.tr('ok')} (0/2)" and ok.disabled
        assert whole(ok, scroller), f"{visible(ok, scroller):.0f} of OK's {ok.height:.0f} px in sight"
        counters = [d.counter(play.ids.actions, r, "cards") for r in app.table.game.resources]
        assert all(whole(c, scroller) for c in counters), [c.resource for c in counters if not whole(c, scroller)]
        tap_in_sight(d.counter(play.ids.actions, "lumber", "cards").plus, scroller)
        assert d.find_label(play.ids.actions, f"{app.tr('ok')} (").text == f"{app.tr('ok')} (1/2)"
        tap_in_sight(d.counter(play.ids.actions, "ore", "cards").plus, scroller)
        ok = d.find(play.ids.actions, f"{app.tr('ok')} (2/2)")
        tap_in_sight(ok, scroller)
        assert app.table.record.events[-1]["resources"] == ["lumber", "ore"], play.message
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


@pytest.mark.parametrize("size", SIZES)
def test_starfarers_trade_with_a_player_in_sight(tmp_path, size):
    """Starfarers' screen shares the trade panel: after Trade -> Ben its OK lay 17 px (upright) / 75 px (lying
    down) below the view, nothing scrolled.  Now the panel is brought into sight from its partners to its OK."""
    from pathlib import Path

    from companion.record import Record, load_record

    example = load_record(Path(__file__).resolve().parents[1] / "companion" / "assets" / "games"
                          / "example-starfarers.json")
    app = d.start_app(tmp_path, size=SIZES[size])
    try:
        app.start_game(Record(example.game, example.players, example.board, example.options, list(example.events[:13])))
        screen = app.root.get_screen("starfarers")
        d.settle()
        scroller = screen.ids.actions.parent
        d.tap(d.find(screen.ids.actions, app.tr("trade")))
        tap_in_sight(d.find(screen.ids.actions, app.player_name(1)), scroller)
        d.settle()
        ok = d.find(screen.ids.actions, app.tr("ok"))
        partners = d.find(screen.ids.actions, app.player_name(1)).parent
        assert whole(partners, scroller), f"{visible(partners, scroller):.0f} of the partners' row in sight"
        assert whole(ok, scroller), f"{visible(ok, scroller):.0f} of OK's {ok.height:.0f} px in sight"
        tap_in_sight(d.counter(screen.ids.actions, "food", "give").plus, scroller)
        tap_in_sight(d.counter(screen.ids.actions, "ore", "get").plus, scroller)
        tap_in_sight(d.find(screen.ids.actions, app.tr("ok")), scroller)
        assert app.table.record.events[-1] == {"type": "trade", "player": 0, "with": 1, "give": {"food": 1},
                                               "get": {"ore": 1}}, screen.message
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_the_umpires_hand_correction_sets_without_a_drag(tmp_path, size, lang):
    """Umpire -> a player -> + on a count -> "Set Ben's hand (N cards)", each tapped where it shows.  Session 19's floor
    trial (800x1280, Japanese): after the player was chosen the Set button lay half under the bottom bar (the
    actions' view ends there), the players' row and the counts above it; a drag was needed to press it."""
    app, play = start(tmp_path, size, lang)
    try:
        scroller = play.ids.actions.parent
        d.tap(play.ids.umpire)
        d.settle()
        tap_in_sight(d.find(play.ids.actions, app.player_name(1)), scroller)
        d.settle()
        assert play.selection.get("u_player") == 1
        held = sum(app.table.game.state.players[1].hand.known.values())
        ok = d.find_label(play.ids.actions, app.tr("set_hand_ok", name=app.player_name(1), n=held))
        assert whole(ok, scroller), f"{visible(ok, scroller):.0f} of Set's {ok.height:.0f} px in sight"
        tap_in_sight(d.counter(play.ids.actions, "lumber", "hand").plus, scroller)
        d.settle()
        ok = d.find(play.ids.actions, app.tr("set_hand_ok", name=app.player_name(1), n=held + 1))
        tap_in_sight(ok, scroller)
        assert app.table.record.events[-1]["type"] == "set_hand", play.message
        assert sum(app.table.game.state.players[1].hand.known.values()) == held + 1
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
