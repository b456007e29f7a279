"""Writes the scenario records in this folder (run: python tests/scenarios/_make.py).

The scenarios are data: each JSON file is a verbatim catan-record/1 plus what a person expects of
it, worked out by hand from the rules (not by running the engine).  This script only saves typing
coordinates: positions are written as corners/sides of hexes, e.g. V((-1, 0), "N") is the north
corner of hex (-1, 0).  Edit the expectations here, then regenerate.
"""

import json
from pathlib import Path

HERE = Path(__file__).parent
CORNER = {"N": ((0, -1), (1, -1)), "NE": ((1, -1), (1, 0)), "SE": ((1, 0), (0, 1)),
          "S": ((0, 1), (-1, 1)), "SW": ((-1, 1), (-1, 0)), "NW": ((-1, 0), (0, -1))}
SIDE = {"NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1)}


def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def V(h, corner):
    a, b = CORNER[corner]
    return sorted([list(h), list(add(h, a)), list(add(h, b))])


def E(v1, v2):
    common = sorted({tuple(x) for x in v1} & {tuple(x) for x in v2})
    assert len(common) == 2, (v1, v2)
    return [list(c) for c in common]


def path(*vs):
    return [E(a, b) for a, b in zip(vs, vs[1:])]


# The board: the standard 19 hexes with a fixed layout, in a sea frame.
LAND = {
    (0, -2): ("forest", 11), (1, -2): ("pasture", 12), (2, -2): ("fields", 9),
    (-1, -1): ("hills", 4), (0, -1): ("mountains", 6), (1, -1): ("forest", 5), (2, -1): ("pasture", 10),
    (-2, 0): ("fields", 3), (-1, 0): ("forest", 8), (0, 0): ("desert", None), (1, 0): ("hills", 8),
    (2, 0): ("mountains", 3),
    (-2, 1): ("pasture", 4), (-1, 1): ("fields", 10), (0, 1): ("mountains", 9), (1, 1): ("pasture", 11),
    (-2, 2): ("hills", 5), (-1, 2): ("fields", 6), (0, 2): ("forest", 2),
}


def board():
    hexes = []
    for (q, r) in sorted({(q, r) for q in range(-3, 4) for r in range(-3, 4) if max(abs(q), abs(r), abs(q + r)) <= 3}):
        if (q, r) in LAND:
            t, n = LAND[(q, r)]
            hexes.append({"at": [q, r], "terrain": t, **({"number": n} if n else {})})
        else:
            hexes.append({"at": [q, r], "terrain": "sea"})
    return {"hexes": hexes,
            "harbors": [{"edge": [[2, 0], [3, 0]], "trade": "ore"}, {"edge": [[-3, 0], [-2, 0]], "trade": "3:1"}],
            "robber": [0, 0]}


PLAYERS3 = [{"name": "Aki", "color": "red"}, {"name": "Ben", "color": "blue"}, {"name": "Chie", "color": "white"}]


def build(p, piece, at):
    return {"type": "build", "player": p, "piece": piece, "at": at}


def roll(a, b):
    return {"type": "roll", "dice": [a, b]}


END = {"type": "end_turn"}

# Common set-up (snake order 0, 1, 2, 2, 1, 0), far apart:
P0_FIRST = V((-1, 0), "N")     # forest 8, hills 4, mountains 6
P1_FIRST = V((-1, 0), "S")     # forest 8, fields 10, pasture 4
P2_FIRST = V((0, -2), "N")     # forest 11 (coast)
P2_SECOND = V((-2, 2), "S")    # hills 5 (coast)
P1_SECOND = V((2, -2), "NE")   # fields 9 (coast)
P0_SECOND = V((1, 0), "N")     # hills 8, forest 5, pasture 10
SETUP = [
    build(0, "settlement", P0_FIRST), build(0, "road", [[-1, -1], [-1, 0]]),
    build(1, "settlement", P1_FIRST), build(1, "road", [[-1, 0], [-1, 1]]),
    build(2, "settlement", P2_FIRST), build(2, "road", [[0, -3], [0, -2]]),
    build(2, "settlement", P2_SECOND), build(2, "road", [[-2, 2], [-2, 3]]),
    build(1, "settlement", P1_SECOND), build(1, "road", [[2, -2], [3, -3]]),
    build(0, "settlement", P0_SECOND), build(0, "road", [[1, -1], [1, 0]]),
]
# Starting cards (second settlements): P0 brick+lumber+wool, P1 grain, P2 brick.

# Hex (-1, -1) corners; P0's first settlement is its SE corner and the set-up road its SE side.
H = (-1, -1)
RING = [V(H, c) for c in ("SE", "S", "SW", "NW", "N", "NE")]
ROADS = {"lumber": 15, "brick": 15}


def record(events, players=PLAYERS3, options=None):
    return {"format": "catan-record/1", "game": "base", "options": options or {}, "players": players,
            "board": board(), "events": events}


def scenario(name, description, events, expect=None, outcomes=None, error=None, options=None, after=None):
    data = {"description": description, "record": record(events, options=options)}
    if after:
        data["expect_after"] = after
    if expect:
        data["expect"] = expect
    if outcomes:
        data["expect_outcomes"] = outcomes
    if error:
        data["expect_error"] = error
    (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")


def main():
    n_setup = len(SETUP)
    # --- production -------------------------------------------------------------------------
    ev = SETUP + [
        roll(5, 3),                                                        # 12: 8
        {"type": "set_hand", "player": 0, "cards": {"ore": 3, "grain": 2, "lumber": 2, "brick": 2, "wool": 1}},
        build(0, "city", P0_SECOND),                                       # 14
        END,                                                               # 15
        roll(6, 2),                                                        # 16: 8 with a city
        END,
        roll(3, 4),                                                        # 18: 7
        {"type": "discard", "player": 0, "cards": {"brick": 2, "lumber": 2}},
        {"type": "move_robber", "to": [-1, 0]},                            # 20
        {"type": "steal", "from": 1, "card": "lumber"},                    # 21
        END,
        roll(4, 4),                                                        # 23: 8, forest blocked
        {"type": "set_hand", "player": 2, "cards": {"lumber": 16, "brick": 1}},  # bank keeps 1 lumber
        {"type": "move_robber", "to": [0, 0], "forced": True},             # 25: umpire moves the robber
        END,
        roll(2, 6),                                                        # 27: 8, two owed lumber, bank 1
        END,
        roll(2, 3),                                                        # 29: 5, only P0 owed lumber
    ]
    scenario("production_robber_city_shortage",
             "Production: settlements 1, a city 2, the robber blocks its hex, and the bank-shortage rule "
             "(nobody gets lumber when two players are owed more than the bank holds; a single player owed "
             "takes what is left).", ev,
             expect={"robber": [0, 0], "turn": {"player": 2, "phase": "main"},
                     "bank": {"lumber": 0},
                     "players": [{"hand_size": 9, "visible_vp": 3}, {"hand_size": 2}, {"hand_size": 18}],
                     "last_roll": {"dice": [2, 3], "payouts": [{"lumber": 1}, {}, {"brick": 1}]}},
             outcomes={
                 str(n_setup - 2): {"payouts": {"0": {"brick": 1, "lumber": 1, "wool": 1}}, "next": "setup_road"},
                 str(n_setup - 1): {"next": "roll", "next_player": 0},
                 str(n_setup): {"dice": [5, 3], "payouts": {"0": {"brick": 1, "lumber": 1}, "1": {"lumber": 1}}},
                 "16": {"payouts": {"0": {"brick": 2, "lumber": 1}, "1": {"lumber": 1}}},
                 "18": {"discards_owed": {"0": 4}, "next": "discard", "next_player": 0},
                 "19": {"next": "move_robber"},
                 "20": {"steal_from": [0, 1], "next": "steal"},
                 "21": {"stolen": [1, "lumber"], "next": "main"},
                 "23": {"payouts": {"0": {"brick": 2}}},
                 "25": {"robber_moved": [0, 0]},
                 "27": {"payouts": {"0": {"brick": 2}}, "shortages": ["lumber"]},
                 "29": {"payouts": {"0": {"lumber": 1}, "2": {"brick": 1}}, "shortages": ["lumber"]},
             })
    # --- discards ---------------------------------------------------------------------------
    ev = SETUP + [
        {"type": "set_hand", "player": 0, "cards": {"wool": 7}},
        {"type": "set_hand", "player": 1, "cards": {"grain": 8}},
        {"type": "set_hand", "player": 2, "cards": {"ore": 5, "brick": 4}},
        roll(1, 6),                                                   # 15: 7
        {"type": "discard", "player": 1, "cards": {"grain": 4}},
        {"type": "discard", "player": 2, "cards": {"ore": 3, "brick": 1}},
        {"type": "move_robber", "to": [0, 2]},                        # nobody there: no steal
        {"type": "set_hand", "player": 1, "cards": {"grain": 11}},
        END,
        roll(5, 2),                                                   # 21: 7
    ]
    scenario("discards_7_8_9_11",
             "A 7: 7 cards keep all, 8 discard 4, 9 discard 4, 11 discard 5.", ev,
             expect={"turn": {"player": 1, "phase": "discard", "waiting_for": 1},
                     "players": [{"hand_size": 7}, {"hand_size": 11}, {"hand_size": 5}]},
             after={"15": {"turn": {"player": 0, "phase": "discard", "waiting_for": 1}},
                    "16": {"turn": {"player": 0, "phase": "discard", "waiting_for": 2}}},
             outcomes={"15": {"discards_owed": {"1": 4, "2": 4}, "next_player": 1},
                       "16": {"discards_owed": {"2": 4}, "next_player": 2},
                       "17": {"robber_hexes": [[-2, 0], [-2, 1], [-2, 2], [-1, -1], [-1, 0], [-1, 1], [-1, 2],
                                               [0, -2], [0, -1], [0, 1], [0, 2], [1, -2], [1, -1], [1, 0],
                                               [1, 1], [2, -2], [2, -1], [2, 0]], "next": "move_robber"},
                       "18": {"steal_from": [], "next": "main"},
                       "21": {"discards_owed": {"1": 5}}})
    scenario("discards_limit_option",
             "The discard limit is an option: with 9, a hand of 9 keeps all and only 10+ discard.",
             SETUP + [{"type": "set_hand", "player": 1, "cards": {"grain": 9}},
                      {"type": "set_hand", "player": 2, "cards": {"ore": 10}}, roll(3, 4)],
             options={"discard_limit": 9},
             outcomes={"14": {"discards_owed": {"2": 5}}})
    scenario("discard_wrong_count",
             "Discarding 3 of 8 cards is refused and names the event.",
             SETUP + [{"type": "set_hand", "player": 1, "cards": {"grain": 8}}, roll(3, 4),
                      {"type": "discard", "player": 1, "cards": {"grain": 3}}],
             error={"index": 14, "contains": "must discard 4 cards, not 3"})
    # --- longest road -------------------------------------------------------------------------
    simple = SETUP + [{"type": "set_hand", "player": 0, "cards": ROADS}, roll(1, 2)]
    simple += [build(0, "road", e) for e in path(*RING[1:])]  # S..NE: 4 roads after the set-up road
    scenario("longest_road_simple", "Five roads in a row win Longest Road at the fifth, not the fourth.",
             simple,
             expect={"longest_road": 0, "players": [{"longest_road": 5, "vp": 4, "visible_vp": 4}]},
             outcomes={"16": {"awards": []},
                       "17": {"awards": [{"award": "longest_road", "before": None, "after": 0, "length": 5}]}})

    p1_ring = [V((-2, 1), c) for c in ("NE", "N", "NW", "SW", "S", "SE")]
    tie = simple + [END, roll(1, 2), {"type": "set_hand", "player": 1, "cards": ROADS}]
    tie += [build(1, "road", e) for e in path(*p1_ring)]  # 5 roads: with the set-up road, 6
    scenario("longest_road_tie_kept",
             "A player who only ties the holder does not take Longest Road; one more road does.", tie,
             expect={"longest_road": 1, "players": [{"longest_road": 5}, {"longest_road": 6}]},
             outcomes={"24": {"awards": []},
                       "25": {"awards": [{"award": "longest_road", "before": 0, "after": 1, "length": 6}]}})

    hex2 = [V((0, -1), c) for c in ("SW", "S", "SE", "NE", "N", "NW")]  # SW(0,-1) is P0's settlement
    figure8 = SETUP + [{"type": "set_hand", "player": 0, "cards": ROADS}, roll(1, 2)]
    figure8 += [build(0, "road", e) for e in path(*RING[1:], RING[0])]        # rest of ring 1: 5 roads
    figure8 += [build(0, "road", e) for e in path(*hex2)]                      # ring 2 less the shared side
    scenario("longest_road_figure_eight",
             "Two rings sharing a side (11 roads, two odd vertices) count 11: every road once.", figure8,
             expect={"longest_road": 0, "players": [{"longest_road": 11}]})

    spur = [RING[2], [[-3, 0], [-2, -1], [-2, 0]]]  # from the SW corner out to the coast
    ring_spur = SETUP + [{"type": "set_hand", "player": 0, "cards": ROADS}, roll(1, 2)]
    ring_spur += [build(0, "road", e) for e in path(*RING[1:], RING[0])] + [build(0, "road", E(*spur))]
    ring_spur += [END, roll(1, 2), END, roll(1, 2),
                  {"type": "set_hand", "player": 2, "cards": {"lumber": 2, "brick": 2, "grain": 1, "wool": 1}},
                  build(2, "road", [[-1, -2], [0, -2]]), build(2, "settlement", RING[4])]
    scenario("longest_road_ring_spur_cut",
             "A ring of 6 with a spur counts 7; an opponent settlement on the ring opposite the spur "
             "cuts it to 6 (the ring opened at the settlement), and the holder keeps the card.", ring_spur,
             expect={"longest_road": 0, "players": [{"longest_road": 6}, {}, {"vp": 3}]},
             outcomes={"17": {"awards": [{"award": "longest_road", "before": None, "after": 0, "length": 5}]},
                       "19": {"awards": []},
                       "26": {"awards": []}})

    cut = simple + [END, roll(1, 2), END, roll(1, 2),
                    {"type": "set_hand", "player": 2, "cards": {"lumber": 2, "brick": 2, "grain": 1, "wool": 1}},
                    build(2, "road", [[-1, -2], [0, -2]]), build(2, "settlement", RING[4])]
    scenario("longest_road_set_aside",
             "A settlement that cuts the holder's 5 to 4 while nobody else has 5 sets the card aside.", cut,
             expect={"longest_road": None, "players": [{"longest_road": 4, "vp": 2}]},
             outcomes={"24": {"awards": [{"award": "longest_road", "before": 0, "after": None, "length": 0}]}})

    # A cut that leaves two others tied at 5: the card is set aside, nobody takes it.
    p2_north = [[[0, -2], [1, -3]], [[1, -3], [1, -2]], [[1, -2], [2, -3]]]  # on from P2's set-up road, east
    tied = simple + [END, roll(1, 2), {"type": "set_hand", "player": 1, "cards": ROADS}]
    tied += [build(1, "road", e) for e in path(*p1_ring)[:4]]               # 21-24: P1 5, ties P0
    tied += [END, roll(1, 2), {"type": "set_hand", "player": 2, "cards": {**ROADS, "grain": 1, "wool": 1}}]
    tied += [build(2, "road", e) for e in p2_north]                          # 28-30: P2 4
    tied += [build(2, "road", [[-1, -2], [0, -2]]), build(2, "settlement", RING[4])]  # 31: P2 5; 32: the cut
    scenario("longest_road_set_aside_on_a_tie",
             "The holder's 5 is cut to 4 while two others have 5 each: neither is strictly longest, so the "
             "card is set aside (ties before the cut kept it with the holder).", tied,
             expect={"longest_road": None,
                     "players": [{"longest_road": 4}, {"longest_road": 5}, {"longest_road": 5, "vp": 3}]},
             outcomes={"24": {"awards": []}, "31": {"awards": []},
                       "32": {"awards": [{"award": "longest_road", "before": 0, "after": None, "length": 0}]}})

    zig = [V((-2, 0), "NW"), V((-2, 0), "N"), V((-2, 0), "NE"), V((-1, 0), "N"), V((-1, 0), "NE"),
           V((0, 0), "N"), V((0, 0), "NE"), V((1, 0), "N"), V((1, 0), "NE"), V((2, 0), "N"), V((2, 0), "NE")]
    capped_setup = [
        build(0, "settlement", zig[3]), build(0, "road", E(zig[3], zig[4])),
        build(1, "settlement", zig[9]), build(1, "road", E(zig[9], zig[10])),
        build(2, "settlement", zig[1]), build(2, "road", E(zig[1], zig[0])),
        build(2, "settlement", P2_SECOND), build(2, "road", [[-2, 2], [-2, 3]]),
        build(1, "settlement", P1_SECOND), build(1, "road", [[2, -2], [3, -3]]),
        build(0, "settlement", zig[7]), build(0, "road", E(zig[7], zig[6])),
    ]
    capped = capped_setup + [{"type": "set_hand", "player": 0, "cards": ROADS}, roll(1, 2)]
    capped += [build(0, "road", E(zig[i], zig[i + 1])) for i in (2, 1, 4, 5, 7, 8)]
    scenario("longest_road_capped_chain",
             "A chain of 8 whose two ends are opponents' settlements still counts 8, and the opponents' "
             "roads beyond them add nothing.", capped,
             expect={"longest_road": 0, "players": [{"longest_road": 8}, {"longest_road": 1}, {"longest_road": 1}]})

    a2, a3, a4, a5 = V((-2, 0), "NE"), V((-1, 0), "N"), V((-1, 0), "NE"), V((0, 0), "N")
    a1, a0 = V((-2, 0), "N"), V((-2, 0), "NW")
    b1, b2 = V((-1, -1), "NE"), V((-1, -1), "N")
    fork = SETUP + [{"type": "set_hand", "player": 0, "cards": ROADS}, roll(1, 2)]
    fork += [build(0, "road", e) for e in (E(a2, a1), E(a1, a0), E(a3, a4), E(a4, a5), E(a3, b1), E(b1, b2))]
    scenario("longest_road_fork",
             "A fork of branches 3, 2 and 2 from one vertex counts 5 (the two longest branches).", fork,
             expect={"longest_road": 0, "players": [{"longest_road": 5}]})
    # --- largest army ---------------------------------------------------------------------------
    knight = {"type": "play_development", "card": "knight"}
    army = SETUP + [roll(1, 2), {"type": "set_hand", "player": 0, "cards": {"grain": 3, "wool": 3, "ore": 3}}]
    army += [{"type": "buy_development", "player": 0, "card": "knight"}] * 3 + [END]
    army += [roll(1, 2), {"type": "set_hand", "player": 1, "cards": {"grain": 4, "wool": 4, "ore": 4}}]
    army += [{"type": "buy_development", "player": 1, "card": "knight"}] * 4 + [END, roll(1, 2), END]
    spots = [[0, 2], [1, 1]]
    moves = 0
    for rnd in range(3):
        for p in (0, 1):
            army += [{**knight, "player": p}, {"type": "move_robber", "to": spots[moves % 2]}, roll(1, 2), END]
            moves += 1
        army += [roll(1, 2), END]
    army += [roll(1, 2), END, {**knight, "player": 1}, {"type": "move_robber", "to": [-2, 0]}]
    scenario("largest_army_transfer",
             "Largest Army goes to the first to play 3 knights, stays on a tie, and moves on 4.", army,
             expect={"largest_army": 1, "players": [{"knights": 3, "vp": 2}, {"knights": 4, "vp": 4}]})
    # --- the record verbatim: blind cards and umpire corrections -------------------------------
    blind = SETUP + [
        roll(1, 2),                                                                          # 12
        {"type": "set_hand", "player": 0, "cards": {"grain": 2, "wool": 2, "ore": 2, "brick": 1, "lumber": 1}},
        {"type": "buy_development", "player": 0, "card": None},                              # 14: unseen
        {"type": "buy_development", "player": 0, "card": "monopoly"},                        # 15
        END,
        roll(3, 4),                                                                          # 17: P1's 7
        {"type": "move_robber", "to": [-1, 0]},                                              # 18
        {"type": "steal", "from": 0, "card": None},                                          # 19: unseen
        END, roll(1, 2), END,                                                                # 20-22
        {**knight, "player": 0},                                                             # 23: the unseen card
        {"type": "move_robber", "to": [0, 2]},                                               # 24: nobody there
        roll(1, 2), END, roll(1, 2), END, roll(1, 2), END,                                   # 25-30
        roll(1, 2),                                                                          # 31
    ]
    monopoly = {"type": "play_development", "player": 0, "card": "monopoly", "resource": "lumber"}
    scenario("record_blind_steal_and_unseen_development_card",
             "The record as the issue writes it: a development card bought unseen (card null) is later played "
             "as a knight; a blind steal (card null) moves an unknown card; a monopoly names what each player "
             "handed over (taken), which keeps the hand sizes exact.",
             blind + [{**monopoly, "taken": {"1": 1, "2": 0}}],
             after={"14": {"players": [{"development_cards": 1, "hand_size": 5}]},
                    "19": {"players": [{"hand_size": 1, "hand": {}, "unknown_cards": 1},
                                       {"hand_size": 2, "hand": {"grain": 1}, "unknown_cards": 1}]},
                    "23": {"players": [{"knights": 1, "development_cards": 1}], "turn": {"phase": "move_robber"}},
                    "24": {"turn": {"player": 0, "phase": "roll"}}},
             expect={"players": [{"knights": 1, "development_cards": 0, "hand_size": 2, "hand": {"lumber": 1},
                                  "unknown_cards": 1},
                                 {"hand_size": 1, "hand": {"grain": 1}, "unknown_cards": 0},
                                 {"hand_size": 1, "hand": {"brick": 1}}]},
             outcomes={"17": {"discards_owed": {}, "next": "move_robber", "next_player": 1},
                       "18": {"steal_from": [0], "next": "steal"},
                       "19": {"player": 1, "stolen": [0, None], "next": "main"},
                       "32": {"payouts": {"0": {"lumber": 1}}}})
    scenario("record_monopoly_without_counts_when_cards_are_unseen",
             "A monopoly while another hand holds unseen cards must say how many each player handed over.",
             blind + [monopoly], error={"index": 32, "contains": "hold cards nobody has seen"})

    last_road = path(*RING[1:])[-1]
    umpire = simple + [
        {"type": "remove_piece", "at": last_road},                                           # 18
        {"type": "build", "player": 1, "piece": "road", "at": E(V((-1, 0), "S"), V((-1, 0), "SW")),
         "forced": True},                                                                    # 19
        {"type": "remove_piece", "at": P2_SECOND},                                           # 20
        {"type": "note", "text": "P2's second settlement was knocked off the table"},        # 21
        {"type": "set_hand", "player": 2, "cards": {"ore": 2}},                              # 22
    ]
    scenario("umpire_corrections",
             "An umpire's corrections: remove a road (Longest Road is recomputed and set aside), record a "
             "build that breaks two rules with \"forced\": true (kept, with the breaches as warnings), remove "
             "a settlement, note why, set a hand (the difference goes back to the bank).", umpire,
             expect={"longest_road": None, "turn": {"player": 0, "phase": "main"},
                     "players": [{"longest_road": 4, "vp": 2}, {"longest_road": 2, "hand_size": 1},
                                 {"vp": 1, "hand": {"ore": 2}, "hand_size": 2}],
                     "bank": {"brick": 19 - 2 - 14 + 4 + 1, "ore": 17}},  # starting cards, set_hand, 4 roads, P2 returns 1
             outcomes={"18": {"awards": [{"award": "longest_road", "before": 0, "after": None, "length": 0}]},
                       "19": {"player": 1, "warnings": ["player 1 acts out of turn (it is player 0's turn)",
                                                        "player 1 cannot pay 1 brick, 1 lumber for a road "
                                                        "(holds 1 grain)"]},
                       "20": {"player": 2}})
    scenario("forced_is_true_or_false", "The forced flag must be true or false.",
             simple + [{"type": "end_turn", "forced": "yes"}],
             error={"index": len(simple), "contains": "forced must be true or false"})

    # --- set-up -------------------------------------------------------------------------------
    scenario("setup_snake_order_and_starting_cards",
             "Set-up in snake order 0, 1, 2, 2, 1, 0 (settlement, then its road, no end_turn); cards only for "
             "the second settlement, one per land hex beside it; then player 0's turn begins with the roll.",
             SETUP,
             expect={"turn": {"player": 0, "phase": "roll", "number": 1},
                     "players": [{"hand": {"brick": 1, "lumber": 1, "wool": 1}, "vp": 2},
                                 {"hand": {"grain": 1}}, {"hand": {"brick": 1}}]},
             after={"4": {"turn": {"player": 2, "phase": "setup_road", "number": 0}},
                    "5": {"turn": {"player": 2, "phase": "setup_settlement"}}},
             outcomes={"0": {"payouts": {}, "next": "setup_road", "next_player": 0},
                       "1": {"next": "setup_settlement", "next_player": 1},
                       "3": {"next_player": 2}, "5": {"next_player": 2},
                       "6": {"payouts": {"2": {"brick": 1}}}, "7": {"next_player": 1},
                       "8": {"payouts": {"1": {"grain": 1}}}, "9": {"next_player": 0},
                       "10": {"payouts": {"0": {"brick": 1, "lumber": 1, "wool": 1}}},
                       "11": {"next": "roll", "next_player": 0}})
    scenario("setup_out_of_order", "Set-up goes 0, 1, 2, 2, 1, 0: player 0 cannot place third.",
             SETUP[:4] + [build(0, "settlement", P2_FIRST)],
             error={"index": 4, "contains": "it is player 2's placement, not player 0's"})
    scenario("setup_road_touches_the_new_settlement", "The set-up road must touch the settlement just placed.",
             SETUP[:2] + [build(1, "settlement", P1_FIRST), build(1, "road", [[0, 1], [0, 2]])],
             error={"index": 3, "contains": "must touch the settlement just placed"})

    # --- piece limits: 15 roads ----------------------------------------------------------------
    hex3 = [V((1, -1), c) for c in ("SW", "S", "SE", "NE", "N", "NW")]  # P0's second settlement is its SE corner
    limit = figure8 + [build(0, "road", e) for e in (E(hex3[0], hex3[1]), E(hex3[2], hex3[3]), E(hex3[3], hex3[4]))]
    scenario("piece_limit_fifteen_roads",
             "Each player has 15 roads: 2 from set-up and 13 built; the 16th is refused though paid for.",
             limit + [build(0, "road", E(hex3[4], hex3[5]))],
             error={"index": len(limit), "contains": "player 0 has no road left"})

    # --- 3:1 harbor ------------------------------------------------------------------------------
    generic = SETUP[:10] + [build(0, "settlement", V((-2, 0), "NW")), build(0, "road", [[-3, 0], [-2, 0]])]
    generic += [roll(1, 1), {"type": "set_hand", "player": 0, "cards": {"grain": 3, "wool": 3, "ore": 2}},
                {"type": "trade", "player": 0, "with": "bank", "give": {"grain": 3}, "get": {"ore": 1}},
                {"type": "trade", "player": 0, "with": "bank", "give": {"wool": 3}, "get": {"brick": 1}}]
    scenario("maritime_three_to_one_harbor",
             "A settlement on a 3:1 harbor trades any resource 3:1 (its second settlement brought 1 grain).",
             generic, expect={"players": [{"hand": {"ore": 3, "brick": 1}, "hand_size": 4}]})
    scenario("maritime_two_to_one_needs_that_harbor", "Without the ore harbor, ore goes 3:1, not 2:1.",
             generic + [{"type": "trade", "player": 0, "with": "bank", "give": {"ore": 2}, "get": {"wool": 1}}],
             error={"index": len(generic), "contains": "trades ore at 3:1"})

    # --- winning only on one's own turn ------------------------------------------------------
    late = simple + [END, roll(1, 2), {"type": "set_hand", "player": 1, "cards": {**ROADS, "ore": 3, "grain": 2}}]
    late += [build(1, "road", e) for e in path(*p1_ring)[:4]]                # 21-24: P1 5, ties P0
    late += [build(1, "city", P1_FIRST), END, roll(1, 2),                   # 25: P1 3 VP
             {"type": "set_hand", "player": 2, "cards": {"lumber": 3, "brick": 3, "grain": 1, "wool": 1}},
             build(2, "road", p2_north[0]), build(2, "road", [[-1, -2], [0, -2]]),
             build(2, "settlement", RING[4])]                                # 31: the cut hands P1 the card
    late += [END, roll(1, 2), END]                                           # 32-34: P1's turn begins
    scenario("win_only_on_own_turn",
             "P1 reaches the 5-point target on P2's turn (P2's settlement cuts P0's road and hands P1 Longest "
             "Road); P1 wins only when their own turn begins.", late, options={"vp_target": 5},
             after={"31": {"winner": None, "longest_road": 1, "players": [{"vp": 2}, {"vp": 5}]}},
             expect={"winner": 1, "turn": {"player": 1, "phase": "game_over", "waiting_for": None}},
             outcomes={"31": {"awards": [{"award": "longest_road", "before": 0, "after": 1, "length": 5}]},
                       "32": {"winner": None}, "34": {"winner": 1, "ranking": [1, 2, 0], "next": "game_over"}})
    scenario("win_on_any_turn_option",
             "With win_on_own_turn_only false, P1 wins the moment P2's settlement hands them the points.",
             late[:32], options={"vp_target": 5, "win_on_own_turn_only": False},
             expect={"winner": 1}, outcomes={"31": {"winner": 1, "next": "game_over"}})

    # --- refusals ---------------------------------------------------------------------------
    scenario("setup_distance_rule", "A second settlement next to the first is refused.",
             SETUP[:2] + [build(1, "settlement", V((-1, 0), "NW"))],
             error={"index": 2, "contains": "distance rule"})
    scenario("knight_bought_this_turn", "A knight bought this turn cannot be played this turn.",
             SETUP + [roll(1, 2), {"type": "set_hand", "player": 0, "cards": {"grain": 1, "wool": 1, "ore": 1}},
                      {"type": "buy_development", "player": 0, "card": "knight"},
                      {**knight, "player": 0}],
             error={"index": 15, "contains": "bought it this turn"})
    scenario("road_not_connected", "A road away from the player's pieces is refused.",
             SETUP + [{"type": "set_hand", "player": 0, "cards": ROADS}, roll(1, 2),
                      build(0, "road", [[0, 1], [0, 2]])],
             error={"index": 14, "contains": "not connected"})
    scenario("roll_twice", "A second roll in one turn is refused.", SETUP + [roll(1, 2), roll(2, 2)],
             error={"index": 13, "contains": "not allowed now"})
    scenario("bad_dice", "Dice faces outside 1-6 are a malformed event.", SETUP + [roll(7, 1)],
             error={"index": 12, "contains": "dice must be two faces 1-6"})
    scenario("build_out_of_turn", "Building on another player's turn is refused.",
             SETUP + [{"type": "set_hand", "player": 1, "cards": ROADS}, roll(1, 2),
                      build(1, "road", E(V((-1, 0), "S"), V((-1, 0), "SW")))],
             error={"index": 14, "contains": "out of turn"})

    # --- trades -------------------------------------------------------------------------------
    harbor_setup = SETUP[:10] + [build(0, "settlement", V((2, 0), "SE")), build(0, "road", [[2, 0], [2, 1]])]
    # P0's second settlement is on the ore harbor (2:1 ore); it brings 1 ore (mountains 3).
    trades = harbor_setup + [roll(1, 1), {"type": "set_hand", "player": 0, "cards": {"ore": 3, "wool": 4, "grain": 3}},
                             {"type": "trade", "player": 0, "with": "bank", "give": {"ore": 2}, "get": {"brick": 1}},
                             {"type": "trade", "player": 0, "with": "bank", "give": {"wool": 4}, "get": {"lumber": 1}},
                             {"type": "trade", "player": 0, "with": 2, "give": {"grain": 1}, "get": {"brick": 1}}]
    scenario("maritime_and_domestic_trades",
             "A settlement on the ore harbor trades ore 2:1; wool goes 4:1; a domestic trade with the player "
             "whose turn it is.", trades,
             expect={"players": [{"hand": {"brick": 2, "grain": 2, "lumber": 1, "ore": 1}, "hand_size": 6},
                                 {}, {"hand": {"grain": 1}, "hand_size": 1}],
                     "bank": {"ore": 18, "wool": 19}})
    scenario("maritime_three_to_one_needs_a_harbor",
             "Without a 3:1 harbor, three grain buy nothing.",
             trades[:13] + [{"type": "trade", "player": 0, "with": "bank", "give": {"grain": 3}, "get": {"ore": 1}}],
             error={"index": 13, "contains": "trades grain at 4:1"})
    scenario("trade_like_for_like",
             "Swapping wool for wool is refused.",
             trades[:13] + [{"type": "trade", "player": 0, "with": 1, "give": {"wool": 1}, "get": {"wool": 1}}],
             error={"index": 13, "contains": "like for like"})
    # --- development cards --------------------------------------------------------------------
    dev = SETUP + [roll(1, 2), {"type": "set_hand", "player": 0, "cards": {"grain": 3, "wool": 3, "ore": 3}}]
    dev += [{"type": "buy_development", "player": 0, "card": c} for c in ("road_building", "monopoly", "year_of_plenty")]
    dev += [END, roll(1, 2), {"type": "set_hand", "player": 1, "cards": {"wool": 3, "grain": 1}}, END, roll(1, 2),
            {"type": "set_hand", "player": 2, "cards": {"wool": 2, "brick": 1}}, END]
    dev += [roll(1, 2), {"type": "play_development", "player": 0, "card": "road_building"}]    # 24, 25
    dev += [build(0, "road", e) for e in path(*RING[1:4])]                                     # 26, 27: free
    dev += [END, roll(1, 2), END, roll(1, 2), END, roll(1, 2),                                 # 28..33
            {"type": "play_development", "player": 0, "card": "monopoly", "resource": "wool"},  # 34
            END, roll(1, 2), END, roll(1, 2), END, roll(1, 2),
            {"type": "play_development", "player": 0, "card": "year_of_plenty", "resources": ["ore", "ore"]}]  # 41
    scenario("development_cards",
             "Road building lays two free roads; monopoly takes every wool from the others; year of plenty "
             "takes two ore from the bank; one card per turn.", dev,
             expect={"players": [{"hand": {"wool": 5, "ore": 2}, "hand_size": 7, "longest_road": 3},
                                 {"hand": {"grain": 1}}, {"hand": {"brick": 1}}]},
             outcomes={"34": {"payouts": {"0": {"wool": 5}}}, "41": {"payouts": {"0": {"ore": 2}}}})
    scenario("two_development_cards_in_one_turn",
             "A second development card in the same turn is refused.",
             dev[:26] + [{"type": "play_development", "player": 0, "card": "monopoly", "resource": "wool"}],
             error={"index": 26, "contains": "already played a development card this turn"})
    # --- winning ------------------------------------------------------------------------------
    win = simple[:-1] + [build(0, "road", path(*RING[1:])[-1])]
    scenario("win_at_target_on_own_turn",
             "With a 4-point target, Longest Road (2) and two settlements win at once on the builder's turn; "
             "nothing is accepted after the game ends.", win + [END],
             options={"vp_target": 4},
             error={"index": 18, "contains": "the game is over"})
    scenario("winner_and_ranking",
             "The winning event names the winner and ranks the others by points, then cards.", win,
             options={"vp_target": 4},
             expect={"winner": 0, "turn": {"phase": "game_over"}},
             outcomes={"17": {"winner": 0, "ranking": [0, 1, 2], "next": "game_over"}})
    # --- victory-point cards shown (reveal_development) ---------------------------------------------
    def reveal(p, n):
        return {"type": "reveal_development", "player": p, "cards": {"victory_point": n}}

    unseen = SETUP + [roll(1, 2), {"type": "set_hand", "player": 0, "cards": {"grain": 2, "wool": 2, "ore": 2}},
                      {"type": "buy_development", "player": 0, "card": None},              # 14
                      {"type": "buy_development", "player": 0, "card": None}]              # 15
    scenario("reveal_vp_cards_wins",
             "Two cards bought unseen are shown as victory-point cards on the buyer's turn: with a 4-point target "
             "the two settlements and the two cards win at once, and the final order counts them.",
             unseen + [reveal(0, 2)], options={"vp_target": 4},
             after={"15": {"winner": None, "players": [{"vp": 2, "visible_vp": 2, "development_cards": 2}]}},
             expect={"winner": 0, "turn": {"phase": "game_over"},
                     "players": [{"vp": 4, "visible_vp": 4, "development_cards": 2}]},
             outcomes={"16": {"player": 0, "winner": 0, "next": "game_over"}})
    scenario("reveal_vp_card_short_of_the_target",
             "One of two unseen cards shown as a victory-point card counts for everybody to see; the other stays "
             "unseen, and play goes on.",
             unseen + [reveal(0, 1), END],
             after={"16": {"players": [{"vp": 3, "visible_vp": 3, "development_cards": 2}],
                           "turn": {"phase": "main"}}},
             expect={"winner": None, "turn": {"player": 1, "phase": "roll"}})
    scenario("reveal_vp_cards_more_than_held",
             "Showing three victory-point cards with two development cards in hand is refused.",
             unseen + [reveal(0, 3)], error={"index": 16, "contains": "holds only 2 development card(s)"})
    scenario("reveal_vp_card_out_of_turn",
             "Victory-point cards are shown on one's own turn.",
             unseen + [END, reveal(0, 1)], error={"index": 17, "contains": "acts out of turn"})
    seen = SETUP + [roll(1, 2), {"type": "set_hand", "player": 0, "cards": {"grain": 6, "wool": 6, "ore": 6}}]
    seen += [{"type": "buy_development", "player": 0, "card": "victory_point"} for _ in range(5)]  # 14-18
    seen += [{"type": "buy_development", "player": 0, "card": None}]                              # 19
    scenario("reveal_vp_card_bought_seen",
             "A victory-point card bought seen counts as it always did (vp, not visible_vp); shown, everybody sees it.",
             seen[:15] + [reveal(0, 1)],
             after={"14": {"players": [{"vp": 3, "visible_vp": 2, "development_cards": 1}]}},
             expect={"players": [{"vp": 3, "visible_vp": 3, "development_cards": 1}]})
    scenario("reveal_vp_cards_beyond_the_deck",
             "The deck holds five victory-point cards: with all five known, an unseen card cannot be a sixth.",
             seen + [reveal(0, 6)], error={"index": 20, "contains": "only 0 are still unaccounted for"})
    # --- unseen cards are only of kinds some card of which is outside the bank and the known hands -------------
    # Bank after the set-up: brick 17 (P0's and P2's starting bricks), lumber 18, wool 18, grain 18.  P0's hand set
    # to a brick and a lumber (its wool back: the bank holds all 19 wool), P1's to 7 grain (bank grain 12).
    unseen = SETUP + [
        roll(1, 2), {"type": "set_hand", "player": 0, "cards": {"brick": 1, "lumber": 1}},  # 12-13
        {"type": "set_hand", "player": 1, "cards": {"grain": 7}}, END,                      # 14-15
        roll(3, 4), {"type": "move_robber", "to": [-1, 0]},                                 # 16-17: P1's 7
        {"type": "steal", "from": 0, "card": None},                                         # 18: brick or lumber
        END, roll(3, 4),                                                                    # 19-20: P2's 7
    ]
    discard = {"type": "discard", "player": 1}
    scenario("unseen_card_not_of_a_kind_the_bank_holds_all_of",
             "Ben's unseen card, stolen from Aki's brick and lumber, cannot be discarded as wool: the bank holds all "
             "19 wool (session 18's random High Tide record took such a discard, and its bank came to 25 wool).",
             unseen + [{**discard, "cards": {"grain": 3, "wool": 1}}],
             after={"18": {"players": [{"hand_size": 1, "unknown_cards": 1},
                                       {"hand_size": 8, "hand": {"grain": 7}, "unknown_cards": 1}],
                           "bank": {"wool": 19, "lumber": 18, "brick": 17}}},
             error={"index": 21, "contains": "player 1 cannot pay wool: all 19 are in the bank"})
    scenario("unseen_card_of_a_kind_outside_the_bank",
             "Ben's unseen card may be Aki's lumber (one lumber is outside the bank): discarded as lumber, taken.",
             unseen + [{**discard, "cards": {"grain": 3, "lumber": 1}}],
             expect={"players": [{"hand_size": 1}, {"hand_size": 4, "hand": {"grain": 4}, "unknown_cards": 0}],
                     "bank": {"lumber": 19, "grain": 15}})
    scenario("unseen_card_of_a_kind_the_bank_holds_all_of_forced",
             "The umpire records the wool discard anyway (forced): kept with the breach as a warning, and the bank "
             "keeps its 19 wool, never 20.",
             unseen + [{**discard, "cards": {"grain": 3, "wool": 1}, "forced": True}],
             expect={"players": [{"hand_size": 1}, {"hand_size": 4, "hand": {"grain": 4}, "unknown_cards": 0}],
                     "bank": {"wool": 19, "grain": 15}},
             outcomes={"21": {"warnings": ["player 1 cannot pay wool: all 19 are in the bank"]}})
    trade = {"type": "trade", "player": 1, "with": 2, "get": {"brick": 1}}
    scenario("unseen_card_traded_only_as_a_kind_outside_the_bank",
             "In Ben's turn after the steal: his unseen card is not given in a trade as wool (all 19 in the bank) ...",
             unseen[:19] + [{**trade, "give": {"wool": 1}}],
             error={"index": 19, "contains": "player 1 cannot pay wool: all 19 are in the bank"})
    scenario("unseen_card_traded_only_as_a_kind_nobody_is_known_to_hold",
             "... nor as an 8th grain: the bank holds 12 and Ben's own 7 are known, so no unseen card is a grain.",
             unseen[:19] + [{**trade, "give": {"grain": 8}}],
             error={"index": 19, "contains": "player 1 cannot pay grain from unseen cards: the bank holds 12 of the "
                                             "19 and the table has seen the rest (7)"})
    # P2's 7: Ben discards his grain and the unseen card as lumber; the robber on Aki's hills, P2 names
    # the card taken from Aki's one unseen card (a brick or a lumber: the bank holds 17 brick, Chie 1, so a brick may be)
    robbed = unseen + [{**discard, "cards": {"grain": 3, "lumber": 1}}, {"type": "move_robber", "to": [-1, -1]}]
    scenario("unseen_card_named_by_a_steal_only_as_a_kind_outside_the_bank",
             "A steal naming the card taken from Aki's unseen card: not wool (all 19 in the bank) ...",
             robbed + [{"type": "steal", "from": 0, "card": "wool"}],
             error={"index": 23, "contains": "player 0 cannot pay wool: all 19 are in the bank"})
    scenario("unseen_card_named_by_a_steal_as_a_kind_outside_the_bank",
             "... but a brick, which it may be: taken, Chie holds 2 bricks.",
             robbed + [{"type": "steal", "from": 0, "card": "brick"}],
             expect={"players": [{"hand_size": 0, "unknown_cards": 0}, {}, {"hand": {"brick": 2}}]})
    scenario("unseen_card_handed_over_to_a_monopoly_only_as_a_kind_outside_the_bank",
             "Ben's card stolen from Aki is not handed over to Aki's monopoly on wool: the bank holds all 19 wool.",
             blind + [{**monopoly, "resource": "wool", "taken": {"1": 1, "2": 0}}],
             error={"index": 32, "contains": "player 1 cannot pay wool: all 19 are in the bank"})


if __name__ == "__main__":
    main()
