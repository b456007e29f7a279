"""What the roll paid stays on screen while a trade or a card is being entered, lying down and upright, in English
and Japanese, at 4 and at 6 players.

Seen (session 10, and again by taps at 1280x800): lying down, Trade or Play card takes the payouts' place under
the roll, and the caption under the board was to say them -- but after a resumed game the caption is empty, and a
card bought or a trade made since stands there instead: nothing on screen said who got what while the table
traded.  Now, lying down, the payouts are said in the message's place while a card panel is open and nothing else
is said there.  Upright at 6 players, four receivers one a line stood in 11 px letters in the 58 dp row and ran
past it: now they run on, a line breaking only between receivers (payouts_label.py).  Real widgets under Xvfb, the
game resumed and the panels opened by taps through Kivy's input path.

Session 12: lying down the payouts in the message's place stood above "Rolled 4 (1 + 3)" and read before it, and
a refusal hid them until it cleared.  Now the roll moves up with them and comes first, and a refusal stands on
a line of its own over them."""

from __future__ import annotations

import random
import re

import pytest
from kivy.core.window import Window
from kivy.metrics import sp
from kivy.uix.label import Label

from companion.record import COLORS, Record, new_game as record_game
from companion.rules import standard_board
from companion.rules.board import EXTENSION_SPEC
from companion.rules.random_play import random_events
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(240)

SIZES = {"landscape": (1280, 800), "upright": (800, 1280)}
NAMES = ("Aki", "Ben", "Chie", "Dan", "Emi", "Fumi")


def journal_rolled_game(data_dir, players: int) -> int:
    """A base game (Base 5-6 at 6) after its set-up, Aki holding a development card bought a turn before, in
    Aki's next turn after a roll that pays as many players as any number does; Aki holds cards to trade."""
    record = Record("base" if players <= 4 else "base56", [{"name": n, "color": COLORS[i]}
                                                          for i, n in enumerate(NAMES[:players])],
                    (standard_board(2, separate_red_numbers=True) if players <= 4
                     else standard_board(3, spec=EXTENSION_SPEC)).to_json())
    game = record_game(record)
    for event in random_events(game, random.Random(5)):  # played on ``game`` as they come
        record.events.append(event)
        if game.state.phase == "roll":
            break

    def play(event: dict) -> None:
        game.push(event)
        record.events.append(event)

    play({"type": "roll", "dice": [2, 2]})
    play({"type": "set_hand", "player": 0, "cards": {"ore": 1, "grain": 1, "wool": 1}})
    play({"type": "buy_development", "player": 0, "card": None})
    play({"type": "end_turn"})
    for _other in range(players - 1):
        play({"type": "roll", "dice": [2, 2]})
        play({"type": "end_turn"})

    def paid(n: int) -> int:
        trial = game.copy()
        trial.push({"type": "roll", "dice": list(d.dice_for(n))})
        return sum(1 for cards in trial.state.last_payouts.values() if any(cards.values()))

    best = max((n for n in range(2, 13) if n != 7), key=paid)
    assert paid(best) >= 2, "a roll that pays two players or more"
    play({"type": "roll", "dice": list(d.dice_for(best))})
    play({"type": "set_hand", "player": 0, "cards": {"lumber": 2, "brick": 2, "wool": 2, "grain": 2}})
    assert game.state.phase == "main" and game.state.turn_player == 0
    return d.journal(data_dir, record)


def says_the_payouts(text: str, payouts: str, roll: str = "") -> bool:
    """Whether ``text`` is the payouts: one receiver a line, or run on (receivers apart by "; " or, in Japanese, a
    full-width space), each receiver whole on one line -- after the roll on a line of its own, where it is said
    with them (``roll``)."""
    if roll and text.startswith(roll + "\n"):
        text = text[len(roll) + 1:]
    return bool(payouts) and re.split(r"\n|; |\u3000", text) == payouts.split("\n")


def payouts_read(play) -> list[str]:
    """Where the screen shows what the roll paid, readable: the shown labels holding the payouts (as their places
    show them: one a line, or one run of text for three or more), whole inside the window, in letters of 12 sp or
    more (a FittedLabel shrinks them to fit its place)."""
    places = []
    for w in d.walk(play):
        if isinstance(w, Label) and says_the_payouts(w.text, play.payout_text, play.roll_text) and d._shown(w):
            x0, y0 = w.to_window(w.x, w.y)
            x1, y1 = w.to_window(w.right, w.top)
            inside = x0 >= -1 and y0 >= -1 and x1 <= Window.width + 1 and y1 <= Window.height + 1
            if inside and w.font_size >= sp(12) - 0.5:
                places.append(w.id if getattr(w, "id", None) else type(w).__name__)
    return places


def roll_then_payouts(play) -> bool:
    """The roll reads before what it paid: each shown place of the payouts has the roll as its first line, or a
    shown roll above it, or beside it on its left (upright, the one row)."""
    def box(w):
        (x0, y0), (x1, y1) = w.to_window(w.x, w.y), w.to_window(w.right, w.top)
        return x0, y0, x1, y1

    shown = [w for w in d.walk(play) if isinstance(w, Label) and d._shown(w) and w.text]
    rolls = [box(w) for w in shown if w.text == play.roll_text]
    paid = [w for w in shown if says_the_payouts(w.text, play.payout_text, play.roll_text)]

    def before(roll, w) -> bool:
        x0, _y0, _x1, top = box(w)
        return roll[3] > top + 0.5 or (roll[3] >= top - 0.5 and roll[2] <= x0 + 0.5)

    return bool(paid) and all(w.text.startswith(play.roll_text + "\n") or any(before(r, w) for r in rolls)
                              for w in paid)


def visible(widget, box) -> float:
    """How many px of ``widget``'s height lie inside ``box`` (a ScrollView), in window coordinates."""
    y0 = widget.to_window(widget.x, widget.y)[1]
    y1 = widget.to_window(widget.x, widget.top)[1]
    by0 = box.to_window(box.x, box.y)[1]
    by1 = box.to_window(box.x, box.top)[1]
    return max(0.0, min(y1, by1) - max(y0, by0))


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", SIZES)
def test_the_payouts_stay_in_sight_while_a_panel_is_open(tmp_path, size, lang, players):
    game_id = journal_rolled_game(tmp_path, players)
    app = d.start_app(tmp_path, size=SIZES[size])
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        d.settle()
        assert play.payout_text.count("\n") >= 1, play.payout_text  # two players paid, or more
        assert app.caption == "", "resumed: nothing said under the board (the case seen)"
        assert payouts_read(play), "the payouts under the roll"
        assert roll_then_payouts(play)
        box, scroller = play.ids.actions, play.ids.actions.parent

        d.tap(d.find(box, app.tr("trade")))
        d.settle()
        assert play.selection.get("mode") == "trade"
        assert payouts_read(play), f"Trade open: nothing shows {play.payout_text!r}"
        assert roll_then_payouts(play), f"Trade open: the payouts read before the roll {play.roll_text!r}"
        assert d.layout_problems(app.root) == []
        d.tap(d.find(box, app.player_name(1)))
        d.settle()
        ok = d.find(box, app.tr("ok"))
        assert visible(ok, scroller) >= ok.height - 1, "the trade's OK in sight, as before"
        assert payouts_read(play), f"a partner chosen: nothing shows {play.payout_text!r}"
        assert d.layout_problems(app.root) == []
        if size == "landscape":
            d.screenshot(tmp_path / f"trade-{size}-{lang}-{players}.png")

        d.tap(d.find(box, app.tr("play_card"), startswith=True))  # the trade panel closes, the card panel opens
        d.settle()
        assert play.selection.get("mode") == "play", play.message
        assert payouts_read(play), f"Play card open: nothing shows {play.payout_text!r}"
        assert roll_then_payouts(play), f"Play card open: the payouts read before the roll {play.roll_text!r}"
        assert d.layout_problems(app.root) == []
        d.tap(d.find(box, app.tr("c_year_of_plenty")))
        d.settle()
        ok = d.find_label(box, f"{app.tr('ok')} (")
        assert visible(ok, scroller) >= ok.height - 1, "Year of plenty's OK in sight, as before"
        assert payouts_read(play)
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_refusal_stands_over_them_and_moves_nothing(tmp_path, lang):
    """Lying down with Trade open, a trade the rules refuse is said on a line of its own over the roll and its
    payouts, which stay in sight (the refusal took their place and hid them until it cleared: playtest s11), and
    no button moves; the panel opened again (the refusal gone), the roll and the payouts are there as before."""
    game_id = journal_rolled_game(tmp_path, 4)
    app = d.start_app(tmp_path, size=SIZES["landscape"])
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        box = play.ids.actions
        game = app.table.game
        d.tap(d.find(box, app.tr("trade")))
        d.tap(d.find(box, app.tr("bank")))
        ratios = game.harbor_ratios(0)
        give = next(r for r in ("lumber", "brick", "wool", "grain") if ratios[r] > game.state.players[0].hand.count(r))
        d.tap(d.find(box, f"{app.tr(give)}\n{ratios[give]}:1"))
        d.tap(d.find(box, app.tr("ore")))
        d.settle()
        assert payouts_read(play)
        before = d.touch_targets()
        d.tap(d.find(box, app.tr("ok")))
        d.settle()
        assert play.message and play.refused, "the bank trade Aki cannot pay is refused"
        assert payouts_read(play) and roll_then_payouts(play), "the payouts stay in sight under the refusal"
        message = play.ids.message
        assert d._shown(message) and message.text == play.message and message.font_size >= sp(12) - 0.5
        assert message.to_window(message.x, message.y)[1] >= play.ids.panel_payouts.to_window(
            0, play.ids.panel_payouts.top)[1] - 0.5, "the refusal on its own line above the payouts"
        d.screenshot(tmp_path / f"refused-{lang}.png")
        moved = d.moved_targets(before, d.touch_targets(), may_move=lambda key: key[1] in ("", app.tr("force")))
        assert moved == []
        assert d.layout_problems(app.root) == []
        d.tap(d.find(box, app.tr("trade")))  # closed: the payouts under the roll
        assert payouts_read(play) and play.selection.get("mode") is None
        d.tap(d.find(box, app.tr("trade")))  # opened again: the refusal gone, the payouts in its place
        assert play.selection.get("mode") == "trade" and not play.message
        assert payouts_read(play)
    finally:
        d.stop_app(app)
