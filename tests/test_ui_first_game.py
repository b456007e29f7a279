"""A whole first game, from the start screen to a win, by touches only: the acceptance test of issue 25.

Four players, a generated board, the set-up tapped on the board, then turn after turn with the dice from the
dice-box simulator over a pseudo-terminal (a tap on "Roll (box)"; once the dice tapped on the screen): 7s with
discards, robber moves and steals, knights, development cards bought unseen, trades with a player and with the
bank, cities, and a win by showing victory-point cards.  Once landscape in English, once portrait in Japanese.

Every input is a touch on a real widget (Kivy's input dispatch, under Xvfb); the test only decides *what* a
player at the table does, reading the game the way the players see it.  Along the way it asserts what a
first table trips over: no coordinate in any text, no English on a Japanese screen; it counts the taps of a
normal turn and of a 7 (docs/app.md quotes them).  The layout checks (touch targets that hold still, nothing
clipped) are the layout engineer's ``StillTargets`` and ``layout_problems`` from the driver, run at every turn.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(1800)  # a hang guard: a busy machine took 10 minutes

PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
#: The player whose plan the test follows to a win; the others roll, build a road now and then, and hoard
#: (so that 7s make them discard, and the robber has someone to rob).
HERO = 0
MAX_TURNS = 140
#: Words that may appear in Latin letters on a Japanese screen: the players' names as typed, "OK", the dice
#: source's scheme ("sim") and the box's model name as it reports it.
LATIN_ALLOWED = {"Aki", "Ben", "Chie", "Dan", "OK", "sim", "DiceBox"}


@dataclass
class Taps:
    """Every touch (each ``driver.tap_at``: a finger down and up), and the taps of the turns the docs quote."""

    total: int = 0
    turn_start: int = 0
    normal_box_turn: int | None = None     # box roll, one road, end turn
    normal_tapped_turn: int | None = None  # dice tapped, one road, end turn
    seven_turn: int | None = None          # a 7 with discards, the robber and a steal, then end turn
    seven_discards: int = 0
    problems: list[str] = field(default_factory=list)

    def __call__(self) -> None:
        self.total += 1

    @property
    def this_turn(self) -> int:
        return self.total - self.turn_start


class FirstGame:
    """One game played by touches: the screen, the taps, what has been seen so far."""

    def __init__(self, app, lang: str):
        self.app, self.lang = app, lang
        self.play = app.root.get_screen("play")
        self.taps = Taps()
        self.seen: set[str] = set()   # milestones: "seven_discard", "steal", "knight", "bank_trade", ...
        self.english: list[str] = []
        self.still = None
        self.moves: list[str] = []

    @property
    def game(self):
        return self.app.table.game

    def tr(self, key: str, **values) -> str:
        return self.app.tr(key, **values)

    def button(self, text: str, *, startswith: bool = True):
        try:
            return d.find(self.play.ids.actions, text, startswith=startswith)
        except LookupError:
            raise LookupError(f"no button {text!r} in phase {self.game.state.phase} (selection {self.play.selection}, "
                              f"message {self.play.message!r}); the panel shows "
                              f"{[w.text for w in d.walk(self.play.ids.actions) if hasattr(w, 'trigger_action')]}")

    def open_panel(self, mode: str, text: str) -> None:
        """Tap a panel's toggle (Trade, Show VP cards) and see it open.  Under a loaded machine a tap in the
        scrolling action area is now and then lost (Kivy's ScrollView hands the touch on after a delay): the
        user taps again, and so does this (counted in ``retaps``)."""
        for attempt in range(3):
            d.tap(self.button(text, startswith=False))
            if self.play.selection.get("mode") == mode:
                return
            self.retaps += 1
        b = self.button(text, startswith=False)
        from kivy.core.window import Window
        raise AssertionError(f"the {text!r} panel did not open: {self.play.selection} {self.play.message!r} "
                             f"button at {b.to_window(*b.center)} size {b.size} state {b.state} disabled {b.disabled} "
                             f"window children {Window.children} phase {self.game.state.phase}")

    retaps = 0

    # --- what the screen says ----------------------------------------------------------------------------
    def look(self, what: str) -> None:
        """Checks of the screen as it is now: no coordinates; on a Japanese screen, no English."""
        assert d.coordinate_texts() == [], what
        if self.lang == "ja":
            for text in d.screen_texts():
                plain = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", text)  # markup tags are not shown
                plain = re.sub(r"\S*/\S*", "", plain)  # a file path (the box's port) is a name, not English
                for word in re.findall(r"[A-Za-z]{2,}", plain):
                    if word not in LATIN_ALLOWED:
                        self.english.append(f"{what}: {word!r} in {text!r}")
                        if os.environ.get("FIRST_GAME_TRACE"):
                            print("ENGLISH", self.english[-1], flush=True)
        if self.still is not None:  # the action panel is filled anew at each step: its targets are new ones
            self.moves += self.still.check(what, new_panel=self.play.ids.actions)

    # --- set-up --------------------------------------------------------------------------------------------
    def spot_value(self, v, player: int) -> float:
        board = self.game.board
        value = 0.0
        for h in board.vertex_land[v]:
            tile = board.tiles[h]
            if tile.number is not None:
                # the hero wants development cards and cities; the others lumber and brick for roads
                wanted = ("ore", "grain", "wool") if player == HERO else ("lumber", "brick")
                value += PIPS[tile.number] * (1.5 if tile.resource in wanted else 1.0)
        return value

    def set_up(self) -> None:
        board = self.play.ids.board
        for _step in range(2 * self.game.n_players):
            who = self.game.waiting_for()
            assert board.pick == "vertex"
            spot = max(sorted(board.legal), key=lambda v: self.spot_value(v, who))
            d.tap_at(*board.vertex_pos(spot))
            assert self.game.state.buildings.get(spot) == (who, "settlement"), self.play.message
            edge = sorted(board.legal)[0]
            d.tap_at(*board.edge_pos(edge))
            assert edge in self.game.state.pieces, self.play.message
        assert self.game.state.phase == "roll"

    # --- a turn --------------------------------------------------------------------------------------------
    def roll(self, tapped: bool = False) -> None:
        events = len(self.app.table.record.events)
        if tapped:
            d.tap_dice(self.play, 6)
        else:
            d.tap(self.play.ids.roll_box)
        assert d.wait_until(lambda: len(self.app.table.record.events) > events, timeout=20), \
            (self.play.message, self.app.source_status)
        assert self.app.table.record.events[events]["type"] == "roll"
        self.look("after the roll")

    def discard(self, who: int, need: int) -> None:
        """The 7 helper: the known cards first, a tap on each resource's name (it takes all of it known, up to
        what is still owed), then + on the first resource for the rest (unseen cards pay it).  The same cards as
        one + per card took before session 18, in fewer taps."""
        hand = dict(self.game.state.players[who].hand.known)
        left = need
        for r in self.game.resources:
            if left and hand.get(r, 0):
                d.tap(d.counter(self.play.ids.actions, r, "cards").name)
                left -= min(hand[r], left)
        for _ in range(left):
            d.tap(d.counter(self.play.ids.actions, self.game.resources[0], "cards").plus)
        d.tap(self.button(self.tr("ok")))

    def move_robber(self) -> None:
        """Tap a hex whose buildings belong to someone who can be robbed (the hero is spared by the others)."""
        g, board = self.game, self.play.ids.board
        mover = g.state.turn_player
        def score(h):
            victims = g.steal_candidates(h, mover)
            hero_there = any(g.state.buildings.get(v, (None,))[0] == HERO for v in g.board.hex_corners[h])
            return (bool(victims), max((g.state.players[p].hand.size for p in victims), default=0),
                    not (hero_there and mover != HERO), h)
        target = max(sorted(board.legal), key=score)
        d.tap_at(*board.hex_pos(target))
        assert g.state.robber == target, self.play.message
        if g.state.phase == "steal":
            victim = max(g.state.steal_candidates, key=lambda p: g.state.players[p].hand.size)
            d.tap(self.button(self.tr("rob", name=self.app.player_name(victim))))
            self.seen.add("steal")
            self.stole_this_turn = True

    def after_seven(self) -> None:
        owed = dict(self.app.table.last_outcome.discards_owed)
        while self.game.state.phase == "discard":
            who = self.game.waiting_for()
            self.discard(who, self.game.state.discards_owed[who])
        if owed:
            self.seen.add("seven_discard")
            self.discards_this_turn = len(owed)
        if self.game.state.phase == "move_robber":
            self.move_robber()

    def build(self, piece: str, spot) -> None:
        """A tap on the spot, nothing armed first: a side builds a road, one's own settlement a city (the board
        hints where a tap builds now)."""
        board = self.play.ids.board
        assert spot in board.legal, (piece, self.play.message)
        pos = board.edge_pos(spot) if piece == "road" else board.vertex_pos(spot)
        before = (len(self.game.state.pieces), dict(self.game.state.buildings))
        d.tap_at(*pos)
        assert (len(self.game.state.pieces), dict(self.game.state.buildings)) != before, (piece, self.play.message)

    def bank_trade(self, give: str, get: str) -> None:
        ratio = self.game.harbor_ratios(self.game.state.turn_player)[give]
        assert self.play.selection.get("mode") != "trade", (self.play.selection, self.play.message)
        self.open_panel("trade", self.tr("trade"))
        d.tap(self.button(self.tr("bank"), startswith=False))
        d.tap(self.button(self.tr(give) + "\n"))
        get_row = next(r for r in self.play.ids.actions.children
                       if r.children and getattr(r.children[-1], "text", "") == self.tr("get"))
        d.tap(d.find(get_row, self.tr(get), startswith=False))
        hand = self.game.state.players[self.game.state.turn_player].hand.count(give)
        d.tap(self.button(self.tr("ok"), startswith=False))
        assert self.game.state.players[self.game.state.turn_player].hand.count(give) == hand - ratio, self.play.message
        self.seen.add("bank_trade")

    def player_trade(self, other: int, give: str, get: str) -> None:
        me = self.game.state.turn_player
        self.open_panel("trade", self.tr("trade"))
        d.tap(self.button(self.app.player_name(other), startswith=False))
        d.tap(d.counter(self.play.ids.actions, give, "give").plus)
        d.tap(d.counter(self.play.ids.actions, get, "get").plus)
        before = self.game.state.players[other].hand.count(give)
        d.tap(self.button(self.tr("ok"), startswith=False))
        assert self.game.state.players[other].hand.count(give) == before + 1, self.play.message
        assert self.game.state.players[me].hand.count(get) >= 1
        self.seen.add("player_trade")

    # --- the hero's plan: cities, development cards (knights, then VP cards shown), trades for what is missing
    def missing(self, wants: dict[str, int]) -> dict[str, int]:
        hand = self.game.state.players[HERO].hand
        return {r: n - hand.count(r) for r, n in wants.items() if hand.count(r) < n}

    def hero_main(self) -> bool:
        """The hero's main phase; True when the game is won."""
        g = self.game
        for _ in range(12):  # a few actions a turn
            if self.try_to_win():
                return True
            if g.build_problem(HERO, "city") is None and g.legal_city_spots(HERO):
                self.build("city", g.legal_city_spots(HERO)[0])
                continue
            # development cards while they may still be VP cards or knights for Largest Army, else cities
            more_cards = g.state.deck_size > 0 and (g.revealable_vp_cards(HERO) < 5 or g.state.largest_army != HERO)
            if more_cards and g.build_problem(HERO, "development") is None:
                d.tap(self.button(self.tr("dev_card")))
                self.seen.add("dev_bought")
                continue
            if more_cards and self.trade_for(g.costs["development"]):
                continue
            if g.legal_city_spots(HERO) and self.trade_for(g.costs["city"]):
                continue
            break
        return self.try_to_win()

    def trade_for(self, wants: dict[str, int]) -> bool:
        """One trade towards ``wants``: one for one with a player who holds a missing card (the cheapest), else
        with the bank at the hero's ratio (the bank first until the table has seen one)."""
        g = self.game
        missing = self.missing(wants)
        if not missing:
            return False
        hand = g.state.players[HERO].hand
        need = sorted(missing)[0]
        ratios = g.harbor_ratios(HERO)
        bank = [give for give in sorted(g.resources, key=lambda r: -hand.count(r))
                if give not in missing and hand.count(give) - wants.get(give, 0) >= ratios[give]]
        if bank and "bank_trade" not in self.seen:
            self.bank_trade(bank[0], need)
            return True
        spare = [r for r in g.resources if hand.count(r) > wants.get(r, 0)]
        if spare and self.traded_this_turn < 2:
            for other in range(g.n_players):
                if other != HERO and g.state.players[other].hand.count(need) >= 1:
                    self.player_trade(other, max(spare, key=hand.count), need)
                    self.traded_this_turn += 1
                    return True
        if bank:
            self.bank_trade(bank[0], need)
            return True
        return False

    def try_to_win(self) -> bool:
        g = self.game
        short = g.options.vp_target - g.victory_points(HERO)
        if short <= 0 or short > g.revealable_vp_cards(HERO):
            return False
        self.open_panel("reveal", self.tr("reveal_vp"))
        if short != g.revealable_vp_cards(HERO):
            d.tap(self.button(str(short), startswith=False))
        d.tap(self.button(self.tr("reveal_ok", n=short), startswith=False))
        assert g.state.phase == "game_over" and g.state.winner == HERO, self.play.message
        return True

    def hero_knight(self) -> None:
        """Before the roll: a knight from an unseen card bought in an earlier turn, until Largest Army is the hero's."""
        st = self.game.state.players[HERO]
        if self.game.state.largest_army == HERO or st.dev_unknown - st.dev_new_unknown < 1 or st.dev_unknown < 2:
            return
        d.tap(self.button(self.tr("knight"), startswith=False))
        assert self.game.state.players[HERO].knights == st.knights + 1, self.play.message
        self.seen.add("knight")
        self.move_robber()

    def others_main(self, who: int) -> None:
        """Another player: a road now and then (measured: the normal turn), else nothing (they hoard)."""
        g = self.game
        hand, road = g.state.players[who].hand, g.costs["road"]
        short = [r for r in road if hand.count(r) < road[r]]
        plenty = [r for r in g.resources if r not in road and hand.count(r) >= g.harbor_ratios(who)[r]]
        if "bank_trade" not in self.seen and len(short) == 1 and plenty and g.legal_road_spots(who):
            self.bank_trade(plenty[0], short[0])  # four of a kind for the brick (or lumber) a road lacks
        if g.build_problem(who, "road") is None and g.legal_road_spots(who) and "seven_discard" in self.seen:
            self.build("road", g.legal_road_spots(who)[0])
            self.seen.add("road")

    def turn(self, number: int) -> bool:
        """One turn by touches; True when it ended the game."""
        g = self.game
        who = g.state.turn_player
        self.taps.turn_start = self.taps.total
        self.stole_this_turn, self.discards_this_turn, self.traded_this_turn = False, 0, 0
        if who == HERO:
            self.hero_knight()
        tapped = who != HERO and self.taps.normal_tapped_turn is None and number > 8
        self.roll(tapped)
        seven = sum(g.state.last_dice) == 7
        if seven:
            self.after_seven()
        roads = len(g.state.pieces)
        if who == HERO:
            if self.hero_main():
                return True
        else:
            self.others_main(who)
        built_road = len(g.state.pieces) == roads + 1
        assert g.state.phase == "main", (g.state.phase, self.play.message)
        d.tap(self.play.ids.end_turn)
        assert g.state.turn_player == (who + 1) % g.n_players, self.play.message
        self.look(f"turn {number} ended")
        if seven and self.stole_this_turn and self.discards_this_turn and self.taps.seven_turn is None \
                and who != HERO:
            self.taps.seven_turn = self.taps.this_turn
            self.taps.seven_discards = self.discards_this_turn
        if not seven and built_road and who != HERO:
            if tapped and self.taps.normal_tapped_turn is None:
                self.taps.normal_tapped_turn = self.taps.this_turn
                self.seen.add("tapped_dice")
            elif not tapped and self.taps.normal_box_turn is None:
                self.taps.normal_box_turn = self.taps.this_turn
        return False


def play_first_game(tmp_path, size, lang: str) -> FirstGame:
    app = d.start_app(tmp_path, size=size, source_url="sim://?seed=11&every=0&profile=fast")
    first = None
    try:
        if lang == "ja":  # as a user switches: Settings → 日本語 → Save
            d.tap(app.root.get_screen("start").ids.settings)
            d.tap(app.root.get_screen("settings").ids.lang_ja)
            d.tap(app.root.get_screen("settings").ids.save)
            assert app.lang == "ja"
        start = app.root.get_screen("start")
        d.tap(start.ids.new_game)
        new_game = app.root.get_screen("new_game")
        d.tap(new_game.ids.g_base)
        d.tap(new_game.ids.n4)
        d.tap(d.find(new_game, app.tr("generate")))
        d.tap(new_game.ids.start)
        assert app.root.current == "play", new_game.message
        first = FirstGame(app, lang)
        tap_at = d.tap_at

        def counted(x, y):  # every finger on the glass, wherever the driver sends it from
            first.taps()
            return tap_at(x, y)

        d.tap_at = counted
        assert d.wait_until(lambda: app.source_state == "connected"), app.source_status
        first.look("the game begins")
        first.set_up()
        first.look("set-up done")
        if hasattr(d, "StillTargets"):  # the layout engineer's watch on the touch targets, from here on
            first.still = d.StillTargets()
        turns = 0
        began = time.monotonic()
        while turns < MAX_TURNS:
            turns += 1
            if os.environ.get("FIRST_GAME_TRACE"):  # a line per turn, to follow a slow or stuck game
                g = first.game
                print(f"turn {turns} t={time.monotonic() - began:.1f}s taps={first.taps.total} seen={sorted(first.seen)} "
                      f"hero vp={g.victory_points(HERO)} dev={g.state.players[HERO].dev_count} "
                      f"hand={g.state.players[HERO].hand.size} reveal={g.revealable_vp_cards(HERO)}", flush=True)
            if first.turn(turns):
                break
        first.turns = turns
        first.seconds = time.monotonic() - began
        first.look("the game is won")
        ranking = d.find_label(first.play.ids.actions, app.tr("ranking"))
        assert f"1. {app.player_name(HERO)} — 10 {app.tr('vp')}" in ranking.text
        first.layout = d.layout_problems(app.root) if hasattr(d, "layout_problems") else []
    finally:
        if first is not None:
            d.tap_at = tap_at
        d.stop_app(app)
    assert app.source is None  # the simulator's thread and pty are closed
    return first


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_a_first_game_by_touch_from_the_start_screen_to_a_win(tmp_path, size, lang):
    first = play_first_game(tmp_path, size, lang)
    taps = first.taps
    print(f"\n{lang} {size}: {first.turns} turns, {taps.total} taps, {first.seconds:.0f} s; normal turn (box roll, "
          f"one road, end turn): {taps.normal_box_turn} taps; with tapped dice: {taps.normal_tapped_turn}; a 7 with "
          f"discards and a steal: {taps.seven_turn} ({taps.seven_discards} discarding); panels tapped again: "
          f"{first.retaps}; moved targets: {len(first.moves)}; layout problems: {len(first.layout)}")
    print("\n".join(["moves (first 8):", *first.moves[:8], "layout:", *first.layout[:8]]))
    assert first.english == [], first.english[:10]
    assert first.moves == [], first.moves[:10]  # no touch target moved unasked (driver.StillTargets)
    assert first.layout == [], first.layout[:10]  # nothing clipped, overlapping or too small at the end
    assert first.turns >= 30, first.turns
    assert {"seven_discard", "steal", "knight", "dev_bought", "bank_trade", "player_trade", "road",
            "tapped_dice"} <= first.seen, first.seen
    assert taps.normal_box_turn == 3 and taps.normal_tapped_turn == 4
