"""The Starfarers screen driven by simulated touches under Xvfb: chosen in the new-game screen, set up by
tapping the offered colony sites, a 7 with its returns, steal and supply draws, a production roll, a
build, the mothership's balls entered, a trade station docked with the friendship marker's VP, undo, and
the screen in English and Japanese written to docs/screens/.

Every expectation is what the screen shows next to what the rules core says.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screens"


def shot(name: str) -> None:
    d.screenshot(SHOTS / f"{name}.png")


def language(app, lang: str) -> None:
    """Switch the language as the settings screen saves it (the announcer follows too)."""
    app.apply_settings(replace(app.settings, lang=lang))
    d.settle()


def press(widget) -> None:
    """A finger on ``widget``, scrolled into view first as a user would (the action panel scrolls)."""
    d.tap(widget)


def button(box, text: str):
    d.settle()  # a rebuilt panel settles its layout first
    return d.find(box, text, startswith=True)


def start_starfarers(app):
    start = app.root.get_screen("start")
    d.tap(start.ids.new_game)
    ng = app.root.get_screen("new_game")
    d.tap(ng.ids.g_starfarers)
    d.tap(ng.ids.n3)
    assert ng.ids.edit.disabled, "there is no hex board to enter for Starfarers"
    d.tap(ng.ids.start)
    assert app.root.current == "starfarers", ng.message
    return app.root.get_screen("starfarers")


def set_up(app, screen) -> None:
    """Tap the offered set-up colonies, then each player's spaceport with a trade ship and a freight ring."""
    game = app.table.game
    m = screen.ids.map
    # a site that is not offered (outside the Catan colony systems) is refused with the rules' reason
    outer = next(e for e, system in sorted(game.board.sites.items()) if system not in game.board.catan)
    assert outer not in m.legal
    d.tap_at(*m.site_pos(outer))
    assert app.table.record.events == [] and "Catan colony systems" in screen.message
    while game.state.phase == "setup_colony":
        offered = sorted(m.legal)
        assert offered and all(game.colony_site_problem(game.waiting_for(), e, setup=True) is None for e in offered)
        before = len(app.table.record.events)
        d.tap_at(*m.site_pos(offered[len(offered) // 2]))
        assert len(app.table.record.events) == before + 1, screen.message
    while game.state.phase == "setup_spaceport":
        who = game.waiting_for()
        assert screen.prompt.startswith(app.player_name(who))
        colony = sorted(m.legal)[0]
        d.tap_at(*m.site_pos(colony))
        press(button(screen.ids.actions, "Trade ship"))
        press(button(screen.ids.actions, "Freight ring"))
        press(button(screen.ids.actions, "OK"))
        assert game.state.buildings[colony] == (who, "spaceport"), screen.message
    assert game.state.phase == "roll"


def test_starfarers_from_new_game_to_friendship_and_undo(tmp_path):
    app = d.start_app(tmp_path)
    try:
        screen = start_starfarers(app)
        game = app.table.game
        set_up(app, screen)
        vp = screen.ids.vpboard.children[::-1]
        assert all("4 VP" in tag.text.replace("\u00a0", " ") for tag in vp), "3 colonies, one a spaceport: 4 VP each"

        # A 7 with 15 cards each: everybody returns 7, the roller takes a card, the supply draws follow.
        d.tap_dice(screen, 7)
        assert game.state.phase == "discard" and "7" in screen.roll_text
        for _ in range(game.n_players):
            who = game.waiting_for()
            need = game.state.discards_owed[who]
            assert screen.prompt == f"{app.player_name(who)} returns {need} cards"
            for k in range(need):  # two of each resource (3 of each in hand): + on the row, found anew each time
                rows = [c for c in screen.ids.actions.children[::-1] if len(c.children) == 3]
                press(rows[k // 2].children[0])
            assert button(screen.ids.actions, "OK").text == f"OK ({need}/{need})"
            press(button(screen.ids.actions, "OK"))
        assert game.state.phase == "steal"
        press(button(screen.ids.actions, f"Rob {app.player_name(1)}"))
        last = app.table.last_outcome
        assert last.supply_draws == {1: 1, 2: 1, 0: 2}
        for p, n in last.supply_draws.items():
            assert f"{app.player_name(p)} draws {n} from the supply" in screen.roll_text
        assert screen.roll_text.startswith("Rolled 7 — 7: no planet produces")
        assert game.state.phase == "main"
        # The set-up's trade ship is in space, so the flight is owed: the screen offers no "End turn" (the
        # rules would refuse it, flight_owed) -- only the shake leads on.
        assert game.fleet.ships[0]["trade_ship"] == 1 and game.flight_owed()
        d.settle()
        with pytest.raises(LookupError):
            d.find(screen.ids.actions, "End turn", timeout=0)
        # The table's own mothership first: its two balls are tapped; the app's shake, for a table without one, is
        # below them and says so (a table with the toy read "Shake mothership" as "we shake now", session 14).
        shake = button(screen.ids.actions, "Shake in the app")
        balls = d.find_label(screen.ids.actions, "The two balls your mothership shook")
        yellow = d.find(screen.ids.actions, "yellow")
        tops = [w.to_window(w.x, w.y)[1] for w in (balls, yellow, shake)]
        assert tops == sorted(tops, reverse=True) and len(set(tops)) == 3, tops

        # Build a booster (2 fuel) with a tap: the VP board shows it on the mothership.
        fuel = game.state.players[0].hand.count("fuel")
        if fuel >= 2:
            press(button(screen.ids.actions, "Booster"))
            assert game.fleet.upgrades[0]["booster"] == 1, screen.message
            assert "1 booster" in screen.ids.vpboard.children[-1].text.replace("\u00a0", " ")

        # The table shook the real mothership: yellow + red, speed 5.
        press(button(screen.ids.actions, "yellow"))
        press(button(screen.ids.actions, "red"))
        assert game.state.phase == "flight", (screen.message, screen.selection)
        assert "speed 5" in screen.roll_text
        # Dock a trade station: the offered stations are those the freight rings allow.
        press(button(screen.ids.actions, "Trade station"))
        m = screen.ids.map
        assert m.pick == "station" and m.legal == set(game.board.stations)
        station = sorted(m.legal)[0]
        d.tap_at(*m.hex_pos(station))
        assert game.fleet.docks[station] == [0], screen.message
        assert game.fleet.friendship[station] == 0
        assert game.victory_points(0) == 6  # 4 + the friendship marker's 2
        assert "6 VP" in screen.ids.vpboard.children[-1].text.replace("\u00a0", " ")
        assert d.layout_problems(app.root) == [], "the flight panel fits the landscape screen"
        shot("starfarers-flight-en")
        language(app, "ja")
        assert "飛行" in screen.prompt
        assert d.layout_problems(app.root) == []
        shot("starfarers-flight-ja")
        language(app, "en")

        # Undo takes the station back: the marker and its VP go with it.
        d.tap(screen.ids.undo)
        assert game.fleet.docks[station] == [] and game.victory_points(0) == 4
        assert "4 VP" in screen.ids.vpboard.children[-1].text.replace("\u00a0", " ")
        d.tap(screen.ids.redo)
        assert game.fleet.docks[station] == [0]
        press(button(screen.ids.actions, "End turn"))
        assert game.state.phase == "roll" and screen.prompt.startswith(app.player_name(1))

        # A production roll: the payouts and the roller's supply draw are shown, producing planets lit.
        number = next(pl.number for site, (p, _) in sorted(game.state.buildings.items())
                      for h in site for pl in [game.board.planets[h]] if pl.number and pl.number != 7)
        d.tap_dice(screen, number)
        outcome = app.table.last_outcome
        assert screen.roll_text.startswith(f"Rolled {number}")
        assert set(m.highlight) == set(game.board.hexes_by_number[number])
        for p, cards in outcome.payouts.items():
            assert f"{app.player_name(p)}: " in screen.roll_text
        assert outcome.supply_draws.get(1) == 2
        assert d.layout_problems(app.root) == [], "the dice and the payouts fit the landscape screen"
        shot("starfarers-roll-en")
        language(app, "ja")
        assert "出目" in screen.roll_text
        assert d.layout_problems(app.root) == []
        shot("starfarers-roll-ja")
        language(app, "en")
    finally:
        d.stop_app(app)


# --- the flight's results entered by touch reproduce a recorded game ----------------------------------------

EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-starfarers.json"
# (events before, events then entered by touch) of the example as regenerated in af60c4e: an encounter and a
# founding; a terraformed ice planet and a trade station; a defeated pirate base; an encounter that costs a
# half-medal and a trade station
SEGMENTS = [(35, 37), (125, 127), (78, 79), (233, 235)]


def stepper(screen, label: str):
    """The + and − buttons of the stepper row (an encounter's, in its grid, or a 7's return) whose label starts
    with ``label``."""
    d.settle()
    row = next(r for r in d.walk(screen.ids.actions) if len(r.children) == 3
               and getattr(r.children[2], "text", "").startswith(label))
    return row.children[0], row.children[1]


def enter(app, screen, event: dict) -> None:
    """Enter one recorded flight event the way a player does: buttons, steppers, taps on the map."""
    m = screen.ids.map
    kind = event["type"]
    if kind == "encounter":
        for key, label in (("half_medals", "Half-medals"),):
            n = event.get(key, 0)
            plus, minus = stepper(screen, label)
            for _ in range(abs(n)):
                press(plus if n > 0 else minus)
                plus, minus = stepper(screen, label)
        for sign, key in ((1, "gain"), (-1, "lose")):
            for r, n in event.get(key, {}).items():
                for _ in range(n):
                    plus, minus = stepper(screen, app.tr(r) + ":")
                    press(plus if sign > 0 else minus)
        press(button(screen.ids.actions, "Record"))
        return
    label = {"found_colony": "Found colony", "trade_station": "Trade station", "terraform": "Terraform",
             "defeat_pirate": "Defeat pirate"}[kind]
    press(button(screen.ids.actions, label))
    at = event["at"]
    if kind == "found_colony":
        site = tuple(tuple(h) for h in at)
        assert site in m.legal
        d.tap_at(*m.site_pos(site))
    else:
        hex_ = tuple(at)
        assert hex_ in m.legal
        d.tap_at(*m.hex_pos(hex_))
    if "number" in event:
        press(d.find(screen.ids.actions, str(event["number"])))


def normal(event: dict) -> dict:
    """An event without its empty or zero fields (the screen leaves them out)."""
    return {k: v for k, v in event.items() if v not in (0, {}, None)}


def test_flight_results_by_touch_match_the_recorded_game(tmp_path):
    from companion.record import Record, load_record, replay

    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path)
    try:
        for before, upto in SEGMENTS:
            record = Record(example.game, example.players, example.board, example.options,
                            list(example.events[:before]))
            app.start_game(record)
            assert app.root.current == "starfarers"
            screen = app.root.get_screen("starfarers")
            game = app.table.game
            vp_before = [game.victory_points(p) for p in range(game.n_players)]
            for event in example.events[before:upto]:
                enter(app, screen, event)
                assert normal(app.table.record.events[-1]) == normal(event), screen.message
            expected = Record(example.game, example.players, example.board, example.options,
                              list(example.events[:upto]))
            want = replay(expected)
            assert game.summary()["players"] == want.summary()["players"]
            for p in range(game.n_players):
                vp = want.victory_points(p)
                assert f"{vp} VP" in screen.ids.vpboard.children[::-1][p].text.replace("\u00a0", " ")
            if before == 125:  # the terraformed ice planet: 1 VP, and the planet now shows its number
                assert game.victory_points(0) > vp_before[0]
                assert game.board.planets[(4, 1)].number == 8
            app.close_table()
    finally:
        d.stop_app(app)


# --- a trade between two players, and the screen held upright -----------------------------------------------

def phase_at(example, phase: str, after: int = 0) -> int:
    """How many of the example's events lead to the first ``phase`` after event ``after``."""
    from companion.record import Record, replay

    game = replay(Record(example.game, example.players, example.board, example.options, list(example.events[:after])))
    for n, event in enumerate(example.events[after:], start=after + 1):
        game.push(event)
        if game.state.phase == phase:
            return n
    raise LookupError(phase)


def test_a_trade_between_two_players_by_touch_in_portrait(tmp_path):
    from companion.record import Record, load_record

    example = load_record(EXAMPLE)

    def resume(n: int):
        app.start_game(Record(example.game, example.players, example.board, example.options, list(example.events[:n])))
        return app.root.get_screen("starfarers"), app.table.game

    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        # 13 events in: Aki's turn after a production roll, every hand seen.
        screen, game = resume(13)
        assert game.state.phase == "main" and game.waiting_for() == 0
        assert d.layout_problems(app.root) == [], "the main panel fits the upright screen"
        aki, ben = (dict(game.state.players[p].hand.known) for p in (0, 1))
        cards = game.state.players[0].hand.size

        # One trade panel, the base game's: the partner first (the stock or a player), then what goes each way.
        press(button(screen.ids.actions, "Trade"))
        press(d.find(screen.ids.actions, "Ben"))
        for _ in range(2):
            press(d.counter(screen.ids.actions, "food", "give").plus)  # Aki gives 2 food
        press(d.counter(screen.ids.actions, "ore", "get").plus)        # and gets 1 ore from Ben
        assert d.layout_problems(app.root) == [], "the trade panel fits the upright screen"
        screen.ids.actions.parent.scroll_y = 1  # the picture shows the panel from its top: partner, then give
        shot("starfarers-portrait-en")
        language(app, "ja")
        assert d.find(screen.ids.actions, "在庫") and d.layout_problems(app.root) == []
        assert d.find_label(screen.ids.actions, "鉱石"), "the seed's 鉱石 for Starfarers' ore (the base game's 鉄)"
        shot("starfarers-portrait-ja")
        language(app, "en")
        press(button(screen.ids.actions, "OK"))
        assert app.table.record.events[-1] == {"type": "trade", "player": 0, "with": 1,
                                               "give": {"food": 2}, "get": {"ore": 1}}, screen.message
        assert game.state.players[0].hand.known == {**aki, "food": aki["food"] - 2, "ore": aki["ore"] + 1}
        assert game.state.players[1].hand.known == {**ben, "food": ben["food"] + 2, "ore": ben["ore"] - 1}
        assert f"{cards - 1} cards" in screen.ids.vpboard.children[-1].text.replace("\u00a0", " ")
        assert screen.selection == {}, "the panel closes once the trade is recorded"

        # The same panel with the stock, at the rules' ratio: 2 trade goods for 1 carbon.
        press(button(screen.ids.actions, "Trade"))
        press(d.find(screen.ids.actions, "Stock"))
        assert d.find(screen.ids.actions, "ore\n3:1")
        press(d.find(screen.ids.actions, "trade goods\n2:1"))
        press(d.find(screen.ids.actions, "carbon"))
        press(button(screen.ids.actions, "OK"))
        assert app.table.record.events[-1] == {"type": "trade", "player": 0, "with": "bank",
                                               "give": {"trade_goods": 2}, "get": {"carbon": 1}}, screen.message
        assert game.state.players[0].hand.count("carbon") == aki["carbon"] + 1

        # The other panels upright: the dice, the 7's returns, the flight with the new number chips.
        for phase in ("roll", "discard", "flight"):
            screen, game = resume(phase_at(example, phase, after=13))
            if phase == "flight":
                screen.action = "defeat_pirate"
                screen.selection = {"planet": [0, 0]}
                screen.refresh()
                assert d.find(screen.ids.actions, "12")
            assert d.layout_problems(app.root) == [], f"the {phase} panel fits the upright screen"
    finally:
        d.stop_app(app)


def test_the_colony_picked_for_a_spaceport_is_marked_until_ok(tmp_path):
    """Set-up's spaceport takes three choices (the colony, a ship, an upgrade) before OK: the colony tapped is
    drawn ringed in yellow apart from the other offered (green) colonies, so a player sees which one OK builds on."""
    import math

    from kivy.core.image import Image as CoreImage

    def ring_pixel(image, m, site, away):
        """The colour on the ring's edge around ``site``, on the side away from the site ``away`` (the two
        colonies are close: their rings would overlap between them)."""
        (x, y), (ax, ay) = m.to_window(*m.site_pos(site)), m.to_window(*m.site_pos(away))
        reach = m._transform()[0] * 0.2 * 2.1 / math.hypot(x - ax, y - ay)
        x, y = x + (x - ax) * reach, y + (y - ay) * reach
        return tuple(round(c * 255) for c in d.pixel_at(image, x, y))

    app = d.start_app(tmp_path)
    try:
        screen = start_starfarers(app)
        game, m = app.table.game, screen.ids.map
        while game.state.phase == "setup_colony":
            d.tap_at(*m.site_pos(sorted(m.legal)[len(m.legal) // 2]))
        picked, other = sorted(m.legal)[:2]
        d.tap_at(*m.site_pos(picked))
        assert screen.selection.get("site") is not None and app.table.record.events[-1]["type"] == "build"
        image = CoreImage(str(d.screenshot(tmp_path / "spaceport-pick.png")), keep_data=True)
        red, green, blue = ring_pixel(image, m, picked, other)
        assert red < 80 and green > 200 and blue > 220, f"the picked colony's ring: {(red, green, blue)}, not cyan"
        red, green, blue = ring_pixel(image, m, other, picked)
        assert not (red < 80 and green > 200 and blue > 220), "a colony not picked is ringed as picked"
        press(button(screen.ids.actions, "Trade ship"))
        press(button(screen.ids.actions, "Freight ring"))
        press(button(screen.ids.actions, "OK"))
        assert game.state.buildings[picked][1] == "spaceport" and m.chosen is None
    finally:
        d.stop_app(app)


def test_a_sevens_returns_stop_at_the_cards_held_and_the_cards_owed(tmp_path):
    """The 7's + per resource went on past the cards held ('ore (3): 7') and past the total owed ('OK (20/7)'),
    and OK stayed grey with no word why: + now stops at the cards of that kind held (known, or unknown and not
    counted for another kind) and at the rest owed."""
    from companion.record import Record, load_record

    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path)
    try:
        app.start_game(Record(example.game, example.players, example.board, example.options,
                              list(example.events[:phase_at(example, "discard")])))
        screen, game = app.root.get_screen("starfarers"), app.table.game
        who = game.waiting_for()
        need, hand = game.state.discards_owed[who], game.state.players[who].hand
        kinds = sorted((r for r in ("ore", "fuel", "carbon", "food", "trade_goods") if hand.count(r)),
                       key=hand.count)
        first = kinds[0]
        held = hand.count(first) + hand.unknown  # the unknown cards (a steal's) may be of any kind
        assert held < need
        for _ in range(held + 2):
            press(stepper(screen, screen.resource_text(first))[0])
        assert screen.selection.get(f"d_{first}") == held, "+ went past the cards held"
        assert stepper(screen, screen.resource_text(first))[0].disabled
        for r in kinds[1:]:
            for _ in range(hand.count(r)):
                press(stepper(screen, screen.resource_text(r))[0])
        picked = sum(screen.selection.get(f"d_{r}", 0) for r in kinds)
        assert picked == need, f"+ went past the {need} cards owed: {picked}"
        assert button(screen.ids.actions, "OK").text == f"OK ({need}/{need})"
        press(button(screen.ids.actions, "OK"))
        assert app.table.record.events[-1]["type"] == "discard" and game.state.discards_owed.get(who, 0) == 0
    finally:
        d.stop_app(app)


def test_two_friendships_are_listed_in_the_players_language(tmp_path):
    """Lists read in the screen's language. A player friend of two alien peoples: '緑の民、商人の友好' on a Japanese screen (it read '緑の民, 商人の友好',
    an English comma), 'friend of Green Folk, Merchants' in English."""
    from companion.record import Record, load_record

    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path)
    try:
        app.start_game(Record(example.game, example.players, example.board, example.options, list(example.events[:78])))
        screen = app.root.get_screen("starfarers")
        d.settle()
        chie = screen.ids.vpboard.children[::-1][2]
        assert "friend of Green Folk, Merchants" in chie.text
        language(app, "ja")
        chie = screen.ids.vpboard.children[::-1][2]
        assert "緑の民、商人の友好" in chie.text, chie.text
        # the 7's returns and supply draws on one line each, listed with 、 (they were joined by ' · ')
        assert "Akiは4枚返す、Benは4枚返す" in screen.roll_text and " · " not in screen.roll_text, screen.roll_text
    finally:
        d.stop_app(app)
