"""Writes the Seafarers, High Tide and 5-6 player scenario records (run: python tests/scenarios/_make_sea.py).

Like _make.py: each JSON file is a verbatim catan-record/1 plus the states and outcomes a person
expects, worked out by hand from the rules (seed 004 for Seafarers, 002 for High Tide).

The board is a row of six land hexes (0,0)..(5,0) in the sea, so coasts are easy to name: the
north coast runs through the corners C[0] = NW corner of (0,0), C[1] = N of (0,0), C[2] = NE of
(0,0) = NW of (1,0), C[3] = N of (1,0), ... each coast side lying between a land hex and the sea.
"""

import json

from _make import HERE, V, E

LAND = {(0, 0): ("fields", 6), (1, 0): ("forest", 5), (2, 0): ("pasture", 8), (3, 0): ("hills", 10),
        (4, 0): ("gold", 9), (5, 0): ("mountains", 3)}
ISLETS = {(0, -3): ("pasture", 11), (3, -3): ("forest", 11), (6, -3): ("fields", 12)}


def north_coast():
    out = [V((0, 0), "NW")]
    for q in range(6):
        out += [V((q, 0), "N"), V((q, 0), "NE")]
    return out


def south(q, corner):
    return V((q, 0), corner)


C = north_coast()


def side(a, b):
    return E(a, b)


def board(*, pirate=None, islets=False, land=None, robber=None, harbor=False, frame=()):
    land = dict(land or LAND)
    tiles = dict(land)
    if islets:
        tiles.update({h: (t, n, True) for h, (t, n) in ISLETS.items()})
    hexes = []
    sea = sorted({(q + dq, r + dr) for (q, r) in tiles for dq in range(-2, 3) for dr in range(-2, 3)
                  if max(abs(dq), abs(dr), abs(dq + dr)) <= 2} - set(tiles))
    for h in sorted(tiles):
        t, n, *islet = tiles[h]
        hexes.append({"at": list(h), "terrain": t, **({"number": n} if n else {}), **({"islet": True} if islet else {})})
    hexes += [{"at": list(h), "terrain": "sea", **({"frame": True} if h in frame else {})} for h in sea]
    out = {"hexes": hexes, "harbors": [{"edge": [[-1, 0], [0, 0]], "trade": "3:1"}] if harbor else []}
    if robber:
        out["robber"] = list(robber)
    if pirate:
        out["pirate"] = list(pirate)
    return out


COLORS = ["red", "blue", "white", "orange", "green", "brown"]


def players(n):
    return [{"name": name, "color": c} for name, c in zip(["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi"][:n], COLORS)]


def build(p, piece, at):
    return {"type": "build", "player": p, "piece": piece, "at": at}


def roll(a, b):
    return {"type": "roll", "dice": [a, b]}


def hand(p, **cards):
    return {"type": "set_hand", "player": p, "cards": cards}


END = {"type": "end_turn"}
ROUND_OF_TWOS = [roll(1, 1), END]  # a 2: no hex carries it, so nothing is produced and nothing floods


class Events(list):
    """A list of events that remembers the index of marked ones."""

    def __init__(self):
        super().__init__()
        self.marks = {}

    def add(self, *events, mark=None):
        self.extend(events)
        if mark:
            self.marks[mark] = len(self) - 1
        return self

    def at(self, mark):
        return str(self.marks[mark])


def scenario(name, description, game, n, events, *, board_json, options=None, expect=None, after=None,
             outcomes=None, error=None):
    data = {"description": description,
            "record": {"format": "catan-record/1", "game": game, "options": options or {}, "players": players(n),
                       "board": board_json, "events": list(events)}}
    if expect:
        data["expect"] = expect
    if after:
        data["expect_after"] = after
    if outcomes:
        data["expect_outcomes"] = outcomes
    if error:
        data["expect_error"] = error
    (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")


# --- Seafarers set-up (3 players) ------------------------------------------------------------------
# P0: C[0] (road C0-C1) and C[6] = NE of (2,0) with a SHIP C5-C6 (the coast side (2,0)|(3,-1)).
# P1: S of (1,0) and S of (0,0).  P2: S of (3,0) and S of (5,0).
# Starting cards: P0 wool + brick (pasture (2,0), hills (3,0)); P1 grain; P2 ore.
def sea_setup(p2_second=None):
    p2_second = p2_second or south(5, "S")
    p2_second_link = E(p2_second, south(5, "SE")) if p2_second == south(5, "S") else E(p2_second, south(4, "SE"))
    return [
        build(0, "settlement", C[0]), build(0, "road", side(C[0], C[1])),
        build(1, "settlement", south(1, "S")), build(1, "road", E(south(1, "S"), south(1, "SE"))),
        build(2, "settlement", south(3, "S")), build(2, "road", E(south(3, "S"), south(3, "SE"))),
        build(2, "settlement", p2_second), build(2, "road", p2_second_link),
        build(1, "settlement", south(0, "S")), build(1, "road", E(south(0, "S"), south(0, "SW"))),
        build(0, "settlement", C[6]), build(0, "ship", side(C[5], C[6])),
    ]


def seafarers():
    sea = board()
    # Roads C0..C3 and ships C3..C6: 3 each, no building at C3, so the route is 3.
    ev = Events().add(*sea_setup(), roll(1, 1), hand(0, lumber=5, brick=4, wool=4, grain=1))
    ev.add(build(0, "road", side(C[1], C[2])), build(0, "road", side(C[2], C[3])),
           build(0, "ship", side(C[4], C[5])), build(0, "ship", side(C[3], C[4])), mark="roads_and_ships")
    before_settlement = list(ev)
    ev.add(build(0, "settlement", C[3]), mark="settlement")
    scenario("sea_trade_route_through_own_settlement",
             "Longest trade route: 3 roads and 3 ships meeting at an empty coastal corner count 3; building a "
             "settlement there joins them into 6 at once (recomputed when the settlement is built).",
             "seafarers", 3, ev, board_json=sea,
             after={ev.at("roads_and_ships"): {"players": [{"longest_route": 3, "longest_road": 3, "ships": 3}],
                                               "longest_road": None}},
             expect={"players": [{"longest_route": 6, "vp": 5, "visible_vp": 5, "hand": {"brick": 1, "wool": 1}}],
                     "longest_road": 0, "pirate": None},
             outcomes={ev.at("settlement"): {"awards": [{"award": "longest_road", "before": None, "after": 0,
                                                         "length": 6}]}})

    # Ship moves: around the table to P0's next turn, then move the open end C3-C4 to C6-C7.
    ev = Events().add(*before_settlement, END, *ROUND_OF_TWOS, *ROUND_OF_TWOS, roll(1, 1))
    turn3 = list(ev)
    move = {"type": "move_ship", "player": 0, "from": side(C[3], C[4]), "to": side(C[6], C[7])}
    ev.add(move, mark="move")
    scenario("sea_ship_move_open_end",
             "The end ship of an open route moves on a later turn to any legal place (here past the owner's "
             "settlement); the trade route is recomputed (roads 3, ships C4..C7 3).",
             "seafarers", 3, ev, board_json=sea,
             expect={"players": [{"longest_route": 3, "ships": 3}], "turn": {"player": 0, "phase": "main"}},
             outcomes={ev.at("move"): {"player": 0, "next": "main"}})
    bad = [
        ("sea_ship_move_built_this_turn", before_settlement,
         {"type": "move_ship", "player": 0, "from": side(C[3], C[4]), "to": side(C[6], C[7])}, "built this turn"),
        ("sea_ship_move_twice", turn3 + [move],
         {"type": "move_ship", "player": 0, "from": side(C[6], C[7]), "to": side(C[3], C[4])}, "already moved a ship"),
        ("sea_ship_move_middle", turn3,
         {"type": "move_ship", "player": 0, "from": side(C[4], C[5]), "to": side(C[6], C[7])}, "not the end of an open route"),
        ("sea_ship_move_unconnected", turn3,
         {"type": "move_ship", "player": 0, "from": side(C[3], C[4]), "to": [[3, -2], [3, -1]]}, "not connected"),
        ("sea_ship_move_closed_route", before_settlement + [build(0, "settlement", C[3]), END, *ROUND_OF_TWOS,
                                                             *ROUND_OF_TWOS, roll(1, 1)],
         {"type": "move_ship", "player": 0, "from": side(C[3], C[4]), "to": side(C[6], C[7])}, "not the end of an open route"),
    ]
    for name, prefix, event, reason in bad:
        scenario(name, f"Refused ship move: {reason}.", "seafarers", 3, prefix + [event], board_json=sea,
                 error={"index": len(prefix), "contains": reason})
    # A road may leave the settlement C6 (its own building), but not continue a ship: C4-C5 ends at C5,
    # where P0 has only the ship C5-C6.
    prefix = sea_setup() + [roll(1, 1), hand(0, lumber=2, brick=2)]
    scenario("sea_road_never_continues_a_ship", "A road cannot join a ship directly (only through the "
             "owner's settlement or city).", "seafarers", 3, prefix + [build(0, "road", side(C[4], C[5]))],
             board_json=sea, error={"index": len(prefix), "contains": "not connected"})

    # The pirate on (2,-1) blocks the coast sides C3-C4 and C4-C5 for ships.
    pirate = board(pirate=(2, -1))
    prefix = sea_setup() + [roll(1, 1), hand(0, lumber=2, wool=2)]
    scenario("sea_pirate_blocks_ships", "No ship may be placed on the six sides of the pirate's hex.",
             "seafarers", 3, prefix + [build(0, "ship", side(C[4], C[5]))], board_json=pirate,
             error={"index": len(prefix), "contains": "borders the pirate"})
    ev = Events().add(*sea_setup(), *ROUND_OF_TWOS, roll(3, 4), mark="seven")
    ev.add({"type": "move_pirate", "to": [3, -1]}, mark="pirate")
    ev.add({"type": "steal", "from": 0, "card": None}, mark="steal")
    scenario("sea_pirate_robs_a_ship_owner",
             "On a 7 the roller moves the pirate (or the robber, never to sea); the pirate's mover robs a "
             "player with a ship on a side of its new hex: P0's ship C5-C6 borders (3,-1).",
             "seafarers", 3, ev, board_json=pirate,
             expect={"pirate": [3, -1], "players": [{"hand_size": 1}, {"hand_size": 2, "unknown_cards": 1}]},
             outcomes={ev.at("seven"): {"robber_hexes": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]],
                                        "next": "move_robber", "next_player": 1},
                       ev.at("pirate"): {"pirate_moved": [3, -1], "steal_from": [0], "next": "steal"},
                       ev.at("steal"): {"stolen": [0, None], "next": "main"}})
    ev = Events().add(*sea_setup(), roll(1, 1), hand(0, grain=1, wool=1, ore=1),
                      {"type": "buy_development", "player": 0, "card": "knight"}, END, *ROUND_OF_TWOS * 2)
    ev.add({"type": "play_development", "player": 0, "card": "knight"}, mark="knight")
    ev.add({"type": "move_pirate", "to": [4, -1]}, mark="pirate")
    scenario("sea_knight_moves_the_pirate",
             "A knight, like a 7, moves the robber or the pirate (exactly one); here the pirate, before the roll, "
             "with nobody to rob but the knight's own player, so the turn goes on to the roll.", "seafarers", 3,
             ev, board_json=board(pirate=(2, -1), frame=[(3, -2)]),
             expect={"pirate": [4, -1], "robber": None, "players": [{"knights": 1}],
                     "turn": {"player": 0, "phase": "roll"}},
             outcomes={ev.at("knight"): {"next": "move_robber",
                                         "robber_hexes": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]},
                       ev.at("pirate"): {"pirate_moved": [4, -1], "steal_from": [], "next": "roll"}})
    scenario("sea_pirate_never_onto_the_frame", "The pirate moves to another sea hex, never onto the sea frame "
             "(seed 004).", "seafarers", 3,
             sea_setup() + [*ROUND_OF_TWOS, roll(3, 4), {"type": "move_pirate", "to": [3, -2]}],
             board_json=board(pirate=(2, -1), frame=[(3, -2), (2, -2)]),
             error={"index": len(sea_setup()) + 3, "contains": "never moves onto the sea frame"})
    scenario("sea_robber_never_to_sea", "The robber never goes to sea.", "seafarers", 3,
             sea_setup() + [*ROUND_OF_TWOS, roll(3, 4), {"type": "move_robber", "to": [2, -1]}], board_json=pirate,
             error={"index": len(sea_setup()) + 3, "contains": "never goes to sea"})

    # Gold: P2's second settlement S of (4,0) touches only the gold field (9): a choice in set-up, and
    # on a 9.  The umpire hands P0 all the ore first, so the bank has none to choose.
    gold_setup = sea_setup(p2_second=south(4, "S"))
    gold_setup.insert(7, {"type": "gold", "player": 2, "cards": {"ore": 1}})
    ev = Events().add(*gold_setup[:7], mark="setup_gold")
    ev.add(*gold_setup[7:], roll(1, 1), hand(0, ore=18), END, roll(4, 5), mark="nine")
    choice = list(ev)
    ev.add({"type": "gold", "player": 2, "cards": {"wool": 1}}, mark="wool")
    scenario("sea_gold_with_short_bank",
             "Gold fields: a settlement takes 1 card of its owner's choice, in set-up (second settlement) and "
             "on the number; the bank's stock limits the choice (no ore left).", "seafarers", 3, ev,
             board_json=board(),
             expect={"bank": {"ore": 0}, "players": [{}, {}, {"hand": {"ore": 1, "wool": 1}}],
                     "last_roll": {"dice": [4, 5], "payouts": [{}, {}, {"wool": 1}]},
                     "turn": {"player": 1, "phase": "main"}},
             outcomes={ev.at("setup_gold"): {"gold_owed": {"2": 1}, "next": "gold", "next_player": 2},
                       ev.at("nine"): {"gold_owed": {"2": 1}, "next": "gold", "next_player": 2},
                       ev.at("wool"): {"payouts": {"2": {"wool": 1}}, "next": "main", "next_player": 1}})
    scenario("sea_gold_choice_the_bank_lacks", "A gold choice the bank cannot pay is refused with the reason.",
             "seafarers", 3, choice + [{"type": "gold", "player": 2, "cards": {"ore": 1}}], board_json=board(),
             error={"index": len(choice), "contains": "cannot take ore"})

    # Road building: one road and one ship, free.
    ev = Events().add(*sea_setup(), roll(1, 1), hand(0, wool=1, grain=1, ore=1))
    ev.add({"type": "buy_development", "player": 0, "card": "road_building"}, END, *ROUND_OF_TWOS,
           *ROUND_OF_TWOS, roll(1, 1), {"type": "play_development", "player": 0, "card": "road_building"},
           build(0, "road", side(C[1], C[2])), build(0, "ship", side(C[4], C[5])), mark="free")
    scenario("sea_road_building_road_and_ship", "Road building gives two free pieces: here a road and a ship.",
             "seafarers", 3, ev, board_json=sea,
             expect={"players": [{"hand_size": 0, "ships": 2, "longest_route": 2}]})

    # A ship never continues a road either: P0's road C0-C1 ends at C1, where P0 has no building.
    prefix = sea_setup() + [roll(1, 1), hand(0, lumber=1, wool=1)]
    scenario("sea_ship_never_continues_a_road", "A ship cannot join a road directly (only through the owner's "
             "settlement or city).", "seafarers", 3, prefix + [build(0, "ship", side(C[1], C[2]))],
             board_json=sea, error={"index": len(prefix), "contains": "not connected"})

    # The pirate, moved by P1's 7, blocks moving a ship away from or onto the six sides of its hex.
    far = board(pirate=(0, 2))
    for name, hex_, target, reason in (
            ("sea_pirate_blocks_moving_a_ship_from_its_sides", (2, -1), side(C[6], C[7]), "borders the pirate's hex [2, -1] and cannot move"),
            ("sea_pirate_blocks_moving_a_ship_onto_its_sides", (3, -1), side(C[6], C[7]), "borders the pirate's hex [3, -1]: no ship may be placed")):
        prefix = before_settlement + [END, roll(3, 4), {"type": "move_pirate", "to": list(hex_)},
                                      {"type": "steal", "from": 0, "card": None}, END, *ROUND_OF_TWOS, roll(1, 1)]
        scenario(name, f"The pirate on {list(hex_)}: {reason}.", "seafarers", 3,
                 prefix + [{"type": "move_ship", "player": 0, "from": side(C[3], C[4]), "to": target}],
                 board_json=far, error={"index": len(prefix), "contains": reason})


# --- High Tide ---------------------------------------------------------------------------------------
# Set-up: P0 C[0] (road C0-C1) and C[6] (road C5-C6); P1 S of (1,0) (road to SE of (1,0)) and
# S of (5,0); P2 S of (4,0) and NE of (5,0); with 4 players P3 NW of (4,0) = C[8] and S of (0,0).
def tide_setup(n):
    first = [
        [build(0, "settlement", C[0]), build(0, "road", side(C[0], C[1]))],
        [build(1, "settlement", south(1, "S")), build(1, "road", E(south(1, "S"), south(1, "SE")))],
        [build(2, "settlement", south(4, "S")), build(2, "road", E(south(4, "S"), south(4, "SE")))],
        [build(3, "settlement", C[8]), build(3, "road", side(C[8], C[9]))],
    ][:n]
    second = [
        [build(0, "settlement", C[6]), build(0, "road", side(C[5], C[6]))],
        [build(1, "settlement", south(5, "S")), build(1, "road", E(south(5, "S"), south(5, "SE")))],
        [build(2, "settlement", V((5, 0), "NE")), build(2, "road", E(V((5, 0), "NE"), V((5, 0), "N")))],
        [build(3, "settlement", south(0, "S")), build(3, "road", E(south(0, "S"), south(0, "SW")))],
    ][:n]
    out = []
    for pair in first + second[::-1]:
        out += pair
    return out


def p0_takes_longest_road():
    """P0's turn 1: four roads C1..C5 make C0..C6 six long: Longest Road, 4 VP."""
    return [roll(1, 1), hand(0, lumber=4, brick=4), build(0, "road", side(C[1], C[2])),
            build(0, "road", side(C[2], C[3])), build(0, "road", side(C[3], C[4])), build(0, "road", side(C[4], C[5]))]


P1_ROADS = [E(south(1, "SE"), south(2, "S")), E(south(2, "S"), south(2, "SE")), E(south(2, "SE"), south(3, "S")),
            E(south(3, "S"), south(3, "SE"))]


def high_tide():
    tide = board()
    opts = {"leader_vp": 4}
    # 3 players; P0 becomes the leader with Longest Road (4 VP) on turn 1.
    ev = Events().add(*tide_setup(3), *p0_takes_longest_road()[:-1])
    ev.add(p0_takes_longest_road()[-1], mark="leader")
    ev.add(END, mark="dike_round")
    ev.add(roll(1, 1), hand(1, lumber=4, brick=4), *[build(1, "road", e) for e in P1_ROADS], mark="p1_five")
    ev.add(END)
    dike_round_p2 = list(ev)
    ev.add(*ROUND_OF_TWOS, roll(1, 1))
    ev.add(END, mark="high_tide")
    ev.add(roll(2, 4), mark="six")
    ev.add({"type": "flood", "at": [0, 0]}, mark="flood")
    scenario("tide_flood_sinks_settlement_and_longest_road",
             "High Tide: after production the roller floods the land hex with the number; P0's settlement on "
             "C0 and roads C0-C1, C1-C2 now touch only sea and sink; P0's road drops from 6 to 4 and P1's 5 "
             "takes Longest Road.", "high-tide", 3, ev, board_json=tide, options=opts,
             expect={"longest_road": 1, "players": [{"vp": 1, "longest_route": 4, "hand": {"grain": 1}},
                                                    {"vp": 4, "longest_route": 5}],
                     "high_tide": {"phase": "high_tide", "round": 1, "leader": 0, "leader_turns_left": 4,
                                   "flooded": [[0, 0]], "land_hexes": 5,
                                   "sunk": [{"settlements": 1, "cities": 0, "roads": 2},
                                            {"settlements": 0, "cities": 0, "roads": 0},
                                            {"settlements": 0, "cities": 0, "roads": 0}]}},
             outcomes={ev.at("leader"): {"leader": 0, "awards": [{"award": "longest_road", "before": None,
                                                                   "after": 0, "length": 6}]},
                       ev.at("dike_round"): {"phase": "dike_round", "next_player": 1},
                       ev.at("high_tide"): {"phase": "high_tide", "next_player": 1},
                       ev.at("six"): {"payouts": {"0": {"grain": 1}}, "flood_choices": [[0, 0]],
                                      "next": "flood", "next_player": 1},
                       ev.at("flood"): {"flooded": [0, 0], "awards": [{"award": "longest_road", "before": 0,
                                                                         "after": 1, "length": 5}],
                                        "next": "main"}})

    # The same, but P2 built a dike on (0,0) in the dike round: the dike is removed, nothing sinks;
    # then the game runs to its end: the leader's 4th high-tide turn with 3 players.
    ev = Events().add(*dike_round_p2, roll(1, 1), hand(2, brick=1, lumber=1))
    ev.add(build(2, "dike", [0, 0]), mark="dike")
    ev.add(END, roll(1, 1), END, roll(2, 4), {"type": "flood", "at": [0, 0]}, mark="held")
    ev.add(END, *ROUND_OF_TWOS, roll(1, 1))
    ev.add(END, mark="leader_turn_1")
    for _ in range(2):
        ev.add(*ROUND_OF_TWOS * 3)
    ev.add(*ROUND_OF_TWOS * 2, roll(1, 1), hand(2, ore=3), mark="last_leader_turn")
    ev.add(END, mark="end")
    scenario("tide_dike_holds_and_three_player_end",
             "A dike absorbs the flood (it is removed, the hex stays land, nothing sinks). With 3 players the "
             "game ends when the leader finishes their 4th high-tide turn; VP then resource cards rank "
             "(P1 and P2 tie on 2 VP, P2 holds more cards).", "high-tide", 3, ev, board_json=tide, options=opts,
             after={ev.at("last_leader_turn"): {"high_tide": {"phase": "high_tide", "round": 4,
                                                              "leader_turns_left": 1}, "winner": None}},
             expect={"winner": 0, "longest_road": 0,
                     "high_tide": {"phase": "ended", "leader_turns_left": 0, "flooded": [], "dikes": [],
                                   "dikes_left": [3, 3, 2], "ranking": [0, 2, 1]},
                     "turn": {"phase": "game_over"}},
             outcomes={ev.at("held"): {"dike_removed": [0, 0], "flooded": None, "sunk": []},
                       ev.at("leader_turn_1"): {"phase": None},
                       ev.at("end"): {"winner": 0, "ranking": [0, 2, 1], "phase": "ended", "next": "game_over"}})
    scenario("tide_no_event_after_the_end", "Nothing but corrections after the end.", "high-tide", 3,
             ev + [roll(1, 1)], board_json=tide, options=opts, error={"index": len(ev), "contains": "game is over"})

    # 4 players: the end comes after the leader's 3rd high-tide turn; P3 ties P0 on 4 VP (two cities)
    # and wins on resource cards.
    ev = Events().add(*tide_setup(4), *p0_takes_longest_road(), END)
    ev.add(*ROUND_OF_TWOS, *ROUND_OF_TWOS, roll(1, 1), hand(3, ore=6, grain=4), build(3, "city", C[8]),
           build(3, "city", south(0, "S")), END, *ROUND_OF_TWOS)  # dike round: P1, P2, P3, P0
    for _ in range(2):
        ev.add(*ROUND_OF_TWOS * 4)
    ev.add(*ROUND_OF_TWOS * 3, roll(1, 1), hand(3, wool=2), mark="last_leader_turn")
    ev.add(END, mark="end")
    scenario("tide_four_player_end_and_tie_on_cards",
             "With 4 players the game ends when the leader finishes their 3rd high-tide turn; a tie on VP "
             "goes to the player with more resource cards.", "high-tide", 4, ev, board_json=tide, options=opts,
             after={ev.at("last_leader_turn"): {"high_tide": {"round": 3, "leader_turns_left": 1}}},
             expect={"winner": 3, "players": [{"vp": 4}, {"vp": 2}, {"vp": 2}, {"vp": 4, "hand_size": 2}],
                     "high_tide": {"phase": "ended", "ranking": [3, 0, 1, 2]}},
             outcomes={ev.at("end"): {"winner": 3, "ranking": [3, 0, 1, 2]}})

    # Dikes: not before the dike round.
    prefix = tide_setup(3) + [roll(1, 1), hand(0, brick=1, lumber=1)]
    scenario("tide_no_dike_before_the_dike_round", "Dikes cannot be built before the dike-building round.",
             "high-tide", 3, prefix + [build(0, "dike", [1, 0])], board_json=tide, options=opts,
             error={"index": len(prefix), "contains": "before the dike-building round"})
    # No initial settlement on an islet.
    islet_corner = V((3, -3), "S")
    scenario("tide_no_initial_settlement_on_islet", "Initial settlements may not stand on an islet.",
             "high-tide", 3, [build(0, "settlement", islet_corner)], board_json=board(islets=True), options=opts,
             error={"index": 0, "contains": "islet"})

    # Variant 1: the special rules start at 8 VP: P0 (4 VP with Longest Road) buys victory point cards.
    ev = Events().add(*tide_setup(3), *p0_takes_longest_road(), hand(0, grain=4, wool=4, ore=4))
    for i in range(4):
        ev.add({"type": "buy_development", "player": 0, "card": "victory_point"}, mark=f"vp{i + 5}")
    scenario("tide_variant_leader_at_8", "Variant: the leader is the first to reach 8 VP.", "high-tide", 3, ev,
             board_json=tide, options={"leader_vp": 8},
             after={ev.at("vp7"): {"high_tide": {"leader": None}, "players": [{"vp": 7, "visible_vp": 4}]}},
             expect={"high_tide": {"leader": 0, "phase": "normal"}},
             outcomes={ev.at("vp8"): {"leader": 0}, ev.at("vp7"): {"leader": None}})

    # Variant 2: the robber goes to the desert when the high-tide rounds begin and stays.
    desert = dict(LAND)
    desert[(3, 0)] = ("desert", None)
    ev = Events().add(*tide_setup(3), *p0_takes_longest_road(), END, *ROUND_OF_TWOS * 2, roll(1, 1))
    ev.add(END, mark="high_tide")
    ev.add(roll(3, 4), mark="seven")
    scenario("tide_variant_robber_to_desert",
             "Variant: when the high-tide rounds begin the robber moves to the desert and stays: a 7 then "
             "moves nothing (no pirate on this board).", "high-tide", 3, ev,
             board_json=board(land=desert, robber=(1, 0)), options={"leader_vp": 4, "robber_to_desert": True},
             expect={"robber": [3, 0], "turn": {"player": 1, "phase": "main"}},
             outcomes={ev.at("seven"): {"robber_hexes": [], "discards_owed": {}, "next": "main"}})
    # ... and stays there: with a pirate on the board the 7 offers the pirate alone, and a move_robber is refused.
    seed_002 = "seed 002: 「高波ラウンドが始まったらすぐ、盗賊は砂漠に移動しそこに留まります」 (moves to the desert and stays there)"
    with_pirate = board(land=desert, robber=(1, 0), pirate=(0, -1))
    scenario("tide_variant_robber_to_desert_refuses_a_robber_move",
             "Variant robber to the desert, " + seed_002 + ": after a 7 in the high-tide rounds the robber may not "
             "leave the desert; moving it to (1,0) is refused (event " + str(len(ev)) + ").", "high-tide", 3,
             ev + [{"type": "move_robber", "to": [1, 0]}], board_json=with_pirate,
             options={"leader_vp": 4, "robber_to_desert": True},
             error={"index": len(ev), "contains": "the robber stays in the desert for the high-tide rounds"})
    moved = Events().add(*ev)
    moved.add({"type": "move_pirate", "to": [2, -1]}, mark="pirate")
    scenario("tide_variant_robber_to_desert_seven_moves_the_pirate",
             "Variant robber to the desert, " + seed_002 + ": a 7 in the high-tide rounds offers the pirate alone "
             "(no robber hexes); the pirate moves and the robber stays on the desert (3,0).", "high-tide", 3, moved,
             board_json=with_pirate, options={"leader_vp": 4, "robber_to_desert": True},
             expect={"robber": [3, 0], "pirate": [2, -1], "turn": {"player": 1, "phase": "main"}},
             outcomes={ev.at("high_tide"): {"phase": "high_tide"},
                       ev.at("seven"): {"robber_hexes": [], "next": "move_robber"},
                       moved.at("pirate"): {"pirate_moved": [2, -1], "next": "main"}})

    # Variant 3: every land hex with the number floods: (0,0) and (3,0) both carry 6 here.
    two_sixes = dict(LAND)
    two_sixes[(3, 0)] = ("hills", 6)
    ev = Events().add(*tide_setup(3), *p0_takes_longest_road(), END, *ROUND_OF_TWOS * 2, roll(1, 1), END)
    ev.add(roll(2, 4), mark="six")
    scenario("tide_variant_flood_all",
             "Variant: every land hex with the rolled number floods at once; nobody chooses.", "high-tide", 3, ev,
             board_json=board(land=two_sixes), options={"leader_vp": 4, "flood_all": True},
             expect={"high_tide": {"flooded": [[0, 0], [3, 0]], "land_hexes": 4}, "turn": {"phase": "main"}},
             outcomes={ev.at("six"): {"flooded": [0, 0], "flood_choices": []}})

    # Variant 4: spring tide after the high-tide rounds: no dikes, ends at 7 land hexes or fewer.
    ev = Events().add(*tide_setup(3), *p0_takes_longest_road(), END, *ROUND_OF_TWOS * 2, roll(1, 1), END)
    ev.add(*ROUND_OF_TWOS * 11, roll(1, 1))
    ev.add(END, mark="spring")
    no_dikes = list(ev) + [roll(1, 1), hand(1, brick=1, lumber=1)]
    ev.add(roll(5, 6), {"type": "flood", "at": [0, -3]}, mark="eight_left")
    ev.add(END, roll(6, 6), {"type": "flood", "at": [6, -3]}, mark="seven_left")
    scenario("tide_variant_spring_tide",
             "Variant: spring-tide rounds follow the high-tide rounds and end the game as soon as at most 7 "
             "land hexes remain (9 here: two floods).", "high-tide", 3, ev,
             board_json=board(islets=True), options={"leader_vp": 4, "spring_tide": True},
             after={ev.at("spring"): {"high_tide": {"phase": "spring_tide", "round": 1}},
                    ev.at("eight_left"): {"high_tide": {"land_hexes": 8}, "winner": None}},
             expect={"winner": 0, "high_tide": {"phase": "ended", "land_hexes": 7, "flooded": [[0, -3], [6, -3]]}},
             outcomes={ev.at("seven_left"): {"flooded": [6, -3], "winner": 0, "phase": "ended"}})
    scenario("tide_variant_spring_tide_no_dikes", "No dikes in the spring tide.", "high-tide", 3,
             no_dikes + [build(1, "dike", [1, 0])], board_json=board(islets=True),
             options={"leader_vp": 4, "spring_tide": True},
             error={"index": len(no_dikes), "contains": "spring tide"})

    # Dike cards and their cost are options: one card each at 2 ore.
    ev = Events().add(*tide_setup(3), *p0_takes_longest_road(), END, roll(1, 1), hand(1, ore=3))
    ev.add(build(1, "dike", [1, 0]), mark="dike")
    dike_opts = {"leader_vp": 4, "dikes_per_player": 1, "dike_cost": {"ore": 2}}
    scenario("tide_dike_options", "Options: 1 dike card per player at 2 ore (defaults 3 at brick + lumber).",
             "high-tide", 3, ev, board_json=tide, options=dike_opts,
             expect={"high_tide": {"phase": "dike_round", "dikes": [[1, 0]], "dikes_left": [1, 0, 1]},
                     "players": [{}, {"hand": {"ore": 1}, "hand_size": 1}], "bank": {"ore": 19 - 2 - 2 + 2}})
    scenario("tide_dike_cards_run_out", "A player with no dike card left cannot build another dike.",
             "high-tide", 3, list(ev) + [hand(1, ore=2), build(1, "dike", [2, 0])], board_json=tide,
             options=dike_opts, error={"index": len(ev) + 1, "contains": "no dike card left"})


# --- High Tide with 5 and 6 players ----------------------------------------------------------------
# On the row of six hexes: first settlements on the north coast C0, C2, ..., second ones on the south
# corners S of (0,0)..(5,0) (no two adjacent).  P0 turns a settlement into a city on turn 1: 3 VP, the
# leader with leader_vp 3.  Every other turn rolls a 2, which no hex carries.
def big_tide_setup(n):
    north = [(C[2 * i], side(C[2 * i], C[2 * i + 1]) if i < 6 else side(C[11], C[12])) for i in range(7)]
    southern = [(south(q, "S"), E(south(q, "S"), south(q, "SE"))) for q in range(6)]
    out = []
    for step, p in enumerate(list(range(n)) + list(range(n))[::-1]):
        v, link = (north[p] if step < n else southern[p])
        out += [build(p, "settlement", v), build(p, "road", link)]
    return out


BIG_LAND = {**LAND, (4, 0): ("forest", 9)}  # no gold: no set-up choices to record


def big_tide():
    for n, turns in ((5, 4), (6, 3)):
        ev = Events().add(*big_tide_setup(n), roll(1, 1), hand(0, ore=3, grain=2), build(0, "city", C[0]),
                          mark="leader")
        ev.add(END, *ROUND_OF_TWOS * n, mark="dike_round_over")  # P1..P(n-1), then the leader
        ev.add(*ROUND_OF_TWOS * (n * turns - 1), roll(1, 1), mark="last_leader_turn")
        ev.add(END, mark="end")
        scenario(f"tide_{'five' if n == 5 else 'six'}_player_end",
                 f"With {n} players the game ends when the leader finishes their {turns}th high-tide turn "
                 f"(the special building phase runs after every turn).", "high-tide", n, ev,
                 board_json=board(land=BIG_LAND), options={"leader_vp": 3},
                 after={ev.at("dike_round_over"): {"high_tide": {"phase": "high_tide", "round": 1,
                                                                 "leader_turns_left": turns},
                                                   "turn": {"player": 1, "phase": "special_build"}},
                        ev.at("last_leader_turn"): {"high_tide": {"phase": "high_tide", "round": turns,
                                                                  "leader_turns_left": 1}, "winner": None}},
                 expect={"winner": 0, "players": [{"vp": 3}] + [{"vp": 2}] * (n - 1),
                         "high_tide": {"phase": "ended", "leader": 0, "leader_turns_left": 0},
                         "turn": {"phase": "game_over"}},
                 outcomes={ev.at("leader"): {"leader": 0},
                           ev.at("end"): {"winner": 0, "phase": "ended", "next": "game_over"}})

    # 5-6: no dike in the special building phase (the seed's one rule of its own for 5-6 players).
    prefix = big_tide_setup(5) + [roll(1, 1), hand(0, ore=3, grain=2), build(0, "city", C[0]), END,
                                  roll(1, 1), END, hand(3, brick=1, lumber=1)]
    scenario("tide_five_no_dike_in_special_building",
             "With 5-6 players, dikes cannot be built in the special building phase (here P3 after P1's "
             "dike-round turn).", "high-tide", 5, prefix + [build(3, "dike", [2, 0])],
             board_json=board(land=BIG_LAND), options={"leader_vp": 3},
             error={"index": len(prefix), "contains": "special building phase"})

    # Spring tide with 5 players ends at 11 land hexes: twelve here, so one flood ends it.
    land = dict(BIG_LAND)
    land.update({(0, 3): ("fields", 4), (3, 3): ("pasture", 4), (6, 3): ("forest", 4)})
    land.update(ISLETS)
    ev = Events().add(*big_tide_setup(5), roll(1, 1), hand(0, ore=3, grain=2), build(0, "city", C[0]), END,
                      *ROUND_OF_TWOS * 5, *ROUND_OF_TWOS * 19, roll(1, 1))
    ev.add(END, mark="spring")
    ev.add(roll(1, 3), mark="four")
    ev.add({"type": "flood", "at": [3, 3]}, mark="eleven_left")
    scenario("tide_variant_spring_tide_five_players",
             "Spring tide with 5 players: the game ends as soon as at most 11 land hexes remain.", "high-tide", 5,
             ev, board_json=board(land=land), options={"leader_vp": 3, "spring_tide": True},
             after={ev.at("spring"): {"high_tide": {"phase": "spring_tide", "round": 1, "land_hexes": 12}},
                    ev.at("four"): {"high_tide": {"flood_choices": [[0, 3], [3, 3], [6, 3]]}}},
             expect={"winner": 0, "high_tide": {"phase": "ended", "land_hexes": 11, "flooded": [[3, 3]]}},
             outcomes={ev.at("eleven_left"): {"flooded": [3, 3], "winner": 0, "phase": "ended"}})
    # ... and with 6 players on the nine-hex board the spring tide's end is reached before it starts.
    ev = Events().add(*big_tide_setup(6), roll(1, 1), hand(0, ore=3, grain=2), build(0, "city", C[0]), END,
                      *ROUND_OF_TWOS * 6, *ROUND_OF_TWOS * 17, roll(1, 1))
    ev.add(END, mark="end")
    scenario("tide_variant_spring_tide_already_small",
             "Spring tide with 6 players on 9 land hexes (at most 11 already): the game ends with the "
             "high-tide rounds.", "high-tide", 6, ev, board_json=board(land=BIG_LAND, islets=True),
             options={"leader_vp": 3, "spring_tide": True},
             expect={"winner": 0, "high_tide": {"phase": "ended", "land_hexes": 9}},
             outcomes={ev.at("end"): {"winner": 0, "phase": "ended"}})


# --- 5-6 players: the special building phase ---------------------------------------------------------------
def five_six():
    """Five players on a row of eight hexes; P0-P3 start on the north coast, P4 on the south."""
    names = [("fields", 6), ("forest", 5), ("pasture", 8), ("hills", 10), ("mountains", 9), ("forest", 3),
             ("pasture", 4), ("hills", 11)]
    land = {(q, 0): tn for q, tn in enumerate(names)}

    def north(q):
        return V((q, 0), "N"), E(V((q, 0), "N"), V((q, 0), "NE"))

    def southern(q):
        return V((q, 0), "S"), E(V((q, 0), "S"), V((q, 0), "SW"))

    firsts = [north(0), north(2), north(4), north(6), southern(0)]
    seconds = [southern(2), southern(4), southern(6), (V((7, 0), "NE"), E(V((7, 0), "NE"), V((7, 0), "N"))),
               southern(7)]
    events = []
    for step, p in enumerate([0, 1, 2, 3, 4, 4, 3, 2, 1, 0]):
        v, road = (firsts if step < 5 else seconds)[p]
        events += [build(p, "settlement", v), build(p, "road", road)]
    ev = Events().add(*events, roll(1, 1))
    ev.add(END, mark="end_turn")
    ev.add(hand(3, lumber=1, brick=1))
    ev.add(build(3, "road", E(V((6, 0), "N"), V((6, 0), "NW"))), mark="special")
    late = list(ev)
    ev.add(roll(1, 1), mark="roll")
    five = board(land=land)
    scenario("five_special_building_phase",
             "5-6 players: after a turn the others may build in seat order before the next roll (here P3); "
             "the next player's roll ends the phase. The bank holds 24 of each resource.", "base56", 5, ev,
             board_json=five,
             expect={"turn": {"player": 1, "phase": "main"}, "players": [{}, {}, {}, {"hand_size": 0}]},
             after={ev.at("end_turn"): {"turn": {"player": 1, "phase": "special_build"}}},
             outcomes={ev.at("end_turn"): {"next": "special_build", "next_player": 1},
                       ev.at("special"): {"player": 3, "next": "special_build", "next_player": 3},
                       ev.at("roll"): {"player": 1, "next": "main"}})
    scenario("five_special_building_buys_a_development_card",
             "In the special building phase a later player may also buy a development card (here P4, after P3 "
             "built); then the next player rolls.", "base56", 5,
             late + [hand(4, grain=1, wool=1, ore=1), {"type": "buy_development", "player": 4, "card": None},
                     roll(1, 1)],
             board_json=five,
             expect={"turn": {"player": 1, "phase": "main"},
                     "players": [{}, {}, {}, {}, {"development_cards": 1, "hand_size": 0}]})
    scenario("five_special_building_in_seat_order", "A player whose slot has passed cannot build any more.",
             "base56", 5, late + [hand(2, lumber=1, brick=1), build(2, "road", E(V((4, 0), "N"), V((4, 0), "NW")))],
             board_json=five, error={"index": len(late) + 1, "contains": "cannot build now"})
    scenario("five_no_trade_in_special_building", "No trading in the special building phase.",
             "base56", 5, late + [hand(3, wool=4),
                                  {"type": "trade", "player": 3, "with": "bank", "give": {"wool": 4}, "get": {"ore": 1}}],
             board_json=five, error={"index": len(late) + 1, "contains": "special build"})

    # Seafarers with 5: a ship built in the special building phase is built outside its owner's turn
    # (seed 002: 「手番外建設」), so it may move in their next turn; seed 004 bars only 「今回の自分のターンに
    # 建造したばかりの船」 (a ship built in your own turn).  P1 (settlement N of (2,0)) builds a ship on the
    # side (2,-1)|(2,0) after P0's turn, rolls, and moves it to (2,-1)|(3,-1), still beside the settlement.
    ship_from, ship_to = [[2, -1], [2, 0]], [[2, -1], [3, -1]]
    move = {"type": "move_ship", "player": 1, "from": ship_from, "to": ship_to}
    sea = Events().add(*events, roll(1, 1), END, hand(1, lumber=1, wool=1))
    sea.add(build(1, "ship", ship_from), mark="special")
    sea.add(roll(1, 1), move, mark="moved")
    scenario("sea_five_ship_built_in_special_building_moves_next_turn",
             "Seafarers, 5 players. Seed 004: 「ただし、今回の自分のターンに建造したばかりの船は移動することはできない」 (only a "
             "ship built in your own turn cannot move); seed 002 calls the 5-6 phase 「手番外建設」 (building outside "
             "one's turn). P1's ship built in the special building phase moves in P1's turn.", "seafarers", 5, sea,
             board_json=five,
             expect={"turn": {"player": 1, "phase": "main"}, "players": [{}, {"ships": 1}]},
             outcomes={sea.at("special"): {"player": 1, "next": "special_build"},
                       sea.at("moved"): {"player": 1, "next": "main"}})
    own = events + [roll(1, 1), END, roll(1, 1), hand(1, lumber=1, wool=1), build(1, "ship", ship_from)]
    scenario("sea_five_ship_built_in_own_turn_cannot_move",
             "Seafarers, 5 players. Seed 004: 「ただし、今回の自分のターンに建造したばかりの船は移動することはできない」: "
             "the same ship built by P1 in P1's own turn (after the roll) cannot move in that turn.", "seafarers", 5,
             own + [move], board_json=five, error={"index": len(own), "contains": "built this turn"})


if __name__ == "__main__":
    seafarers()
    high_tide()
    big_tide()
    five_six()
