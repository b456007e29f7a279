"""Writes the star_ scenario records: the events, and the expectations worked out by hand (the descriptions say how).

Run from anywhere: python tests/scenarios/_make_star.py
"""
import json, pathlib
OUT = pathlib.Path(__file__).parent
P = lambda resource, **chip: {"resource": resource, **chip}
def system(corner, kinds):
    q, r = corner
    hexes = [(q, r), (q + 1, r), (q + 1, r - 1)]
    return {"planets": [{"at": list(h), **k} for h, k in zip(hexes, kinds)]}
BOARD = {"systems": [
    system((0, 0), [P("ore", number=5), P("food", number=8), P("carbon", number=6)]),      # A
    system((3, 0), [P("fuel", number=5), P("trade_goods", number=9), P("food", number=10)]),  # B
    system((0, 3), [P("carbon", number=4), P("fuel", number=8), P("ore", number=11)]),    # C
    system((3, 3), [P("trade_goods", number=3), P("ore", number=9), P("food", number=4)]),  # D
    system((6, 0), [P("ore", ice=2), P("carbon", pirate=3), P("fuel", number=6)]),        # E
    system((-3, 0), [P("food", number=2), P("carbon", number=9), P("trade_goods", number=10)]),  # F
], "stations": [{"at": [0, -3], "alien": "merchants"}, {"at": [6, 3], "alien": "scientists"}]}
S = {  # colony sites
 "A01": [[0, 0], [1, 0]], "A02": [[0, 0], [1, -1]], "A12": [[1, -1], [1, 0]],
 "B01": [[3, 0], [4, 0]], "B12": [[4, -1], [4, 0]],
 "C01": [[0, 3], [1, 3]], "C02": [[0, 3], [1, 2]],
 "D01": [[3, 3], [4, 3]], "D12": [[4, 2], [4, 3]],
 "E01": [[6, 0], [7, 0]], "E02": [[6, 0], [7, -1]],
 "F01": [[-3, 0], [-2, 0]],
}
PLAYERS = [{"name": "Aki", "color": "red"}, {"name": "Ben", "color": "blue"}, {"name": "Chie", "color": "white"}]
def colonies():
    order = [(0, "A01"), (1, "B01"), (2, "C01"), (2, "D01"), (1, "F01"), (0, "A12"), (0, "C02"), (1, "B12"), (2, "D12")]
    return [{"type": "build", "player": p, "piece": "colony", "at": S[s]} for p, s in order]
def ports(p0, p1, p2):
    # spaceports clockwise from the last colony placer (player 2): 2, 0, 1
    return [{"type": "setup_spaceport", "player": 2, "at": S["D01"], "ship": p2[0], "upgrade": p2[1]},
            {"type": "setup_spaceport", "player": 0, "at": S["A01"], "ship": p0[0], "upgrade": p0[1]},
            {"type": "setup_spaceport", "player": 1, "at": S["B01"], "ship": p1[0], "upgrade": p1[1]}]
def rec(options, events):
    return {"format": "catan-record/1", "game": "starfarers", "options": options, "players": PLAYERS,
            "board": BOARD, "events": events}
R = lambda *d: {"type": "roll", "dice": list(d)}
END = {"type": "end_turn"}
# Seed 003: 「宇宙船が1つもない場合、このフェイズをスキップします」 -- a player with a ship in space flies before the
# turn ends; FLY(p) is the shake of a flight that achieves nothing (two yellows: speed 4, no encounter).
FLY = lambda p: {"type": "shake", "player": p, "balls": ["yellow", "yellow"]}
def write(name, data):
    (OUT / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")

SETUP_DESC = ("Board A-F (three planets each, E with an ice planet (6,0) strength 2 and a pirate base (7,0) strength 3), "
              "3 players. Colonies: P0 A01 A12 C02, P1 B01 F01 B12, P2 C01 D01 D12; spaceports P2 D01, P0 A01, P1 B01 "
              "(clockwise from the last placer). Events 0-11 are the set-up.")

# 1. production, supply draws, the 7 and a refill -------------------------------------------------
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
ev += [R(3, 5), FLY(0), END, R(3, 4),
       {"type": "discard", "player": 0, "cards": {"food": 5, "ore": 3, "trade_goods": 1}},
       {"type": "discard", "player": 1, "cards": {"ore": 3, "fuel": 3, "carbon": 1}},
       {"type": "discard", "player": 2, "cards": {"fuel": 4, "carbon": 3, "food": 1}},
       {"type": "steal", "from": 2, "card": None}, FLY(1), END,
       R(2, 2), FLY(2), END, R(1, 1), FLY(0), END, R(6, 6)]
write("star_production_supply_and_seven", {
 "description": SETUP_DESC + " Option supply_refill 2: pile of 2 per resource (10), stock 20-2-9 = 9 each, hands 3 each. "
  "Everybody has a ship in space, so each turn flies (a shake) before it ends. "
  "12: P0 rolls 8: food planet (1,0) pays P0's spaceport A01 and colony A12 one food each; fuel planet (1,3) pays P2's C01 one fuel; "
  "P0 at 4 VP draws 2 face down from the pile. 15: P1 rolls 7: P0 holds 19, P1 15, P2 16 -> return 9, 7, 8 "
  "(turn.player stays P1, the roller, while turn.waiting_for names who returns). "
  "19: P1 steals unseen from P2; then P2, P0 (clockwise from P1's left) draw 1 each, P1 draws 2. "
  "22: P2 rolls 4: carbon (0,3) pays C01 (P2) and C02 (P0), food (4,2) pays D12 (P2). 25: P0 rolls 2: food (-3,0) pays F01 (P1); "
  "P0's draw of 2 empties the pile, which seed 003 refills at once (「補充用の山札がなくなったら、即座に各資源の山から8枚ずつ引き」): "
  "2 of each from the stock, so the stock holds 2 fewer of each from event 25 on. 28: P1 rolls 12 (no planet) and draws 2 "
  "from the full pile (no refill).",
 "record": rec({"supply_refill": 2}, ev),
 "expect_outcomes": {
  "12": {"payouts": {"0": {"food": 2}, "2": {"fuel": 1}}, "supply_draws": {"0": 2}},
  "15": {"discards_owed": {"0": 9, "1": 7, "2": 8}, "next": "discard"},
  "18": {"steal_from": [0, 2], "next": "steal", "next_player": 1},
  "19": {"stolen": [2, None], "supply_draws": {"2": 1, "0": 1, "1": 2}, "next": "main"},
  "22": {"payouts": {"0": {"carbon": 1}, "2": {"carbon": 1, "food": 1}}, "supply_draws": {"2": 2}},
  "25": {"payouts": {"1": {"food": 1}}, "supply_draws": {"0": 2}, "refills": 1},
  "28": {"payouts": {}, "supply_draws": {"1": 2}, "refills": None},
 },
 "expect_after": {
  "12": {"bank": {"ore": 9, "fuel": 8, "carbon": 9, "food": 7, "trade_goods": 9}, "supply": {"size": 8},
         "players": [{"hand_size": 19, "unknown_cards": 2}, {"hand_size": 15}, {"hand_size": 16}]},
  "16": {"turn": {"player": 1, "phase": "discard", "waiting_for": 1}},
  "17": {"turn": {"player": 1, "phase": "discard", "waiting_for": 2}},
  "25": {"bank": {"ore": 13, "fuel": 13, "carbon": 9, "food": 9, "trade_goods": 8}, "supply": {"size": 10}},
  "19": {"bank": {"ore": 15, "fuel": 15, "carbon": 13, "food": 13, "trade_goods": 10}, "supply": {"size": 4},
         "players": [{"hand_size": 11, "unknown_cards": 3, "hand": {"fuel": 3, "carbon": 3, "trade_goods": 2}},
                     {"hand_size": 11, "unknown_cards": 3, "hand": {"carbon": 2, "food": 3, "trade_goods": 3}},
                     {"hand_size": 8, "unknown_cards": 3, "hand": {"ore": 2, "food": 1, "trade_goods": 2}}]},
 },
 "expect": {
  "bank": {"ore": 13, "fuel": 13, "carbon": 9, "food": 9, "trade_goods": 8},
  "supply": {"size": 8},
  "players": [{"vp": 4, "hand_size": 14}, {"vp": 4, "hand_size": 14}, {"vp": 4, "hand_size": 12, "unknown_cards": 5}],
  "turn": {"player": 1, "phase": "main", "number": 5, "waiting_for": 1},
  "last_roll": {"dice": [6, 6], "payouts": [{}, {}, {}]},
 }})

# 2. friendship marker: 1:0, 1:1, 1:2, 2:2, 3:2 ---------------------------------------------------
M = [0, -3]
TS = lambda p: {"type": "trade_station", "player": p, "at": M}
SH = lambda p, a, b: {"type": "shake", "player": p, "balls": [a, b]}
B = lambda p, piece: {"type": "build", "player": p, "piece": piece}
ev = colonies() + ports(("trade_ship", "freight_ring"), ("trade_ship", "freight_ring"), ("colony_ship", "freight_ring"))
ev += [{"type": "set_hand", "player": 0, "cards": {"ore": 10, "fuel": 2, "trade_goods": 4}},
       {"type": "set_hand", "player": 1, "cards": {"ore": 5, "fuel": 1, "trade_goods": 2}},
       R(6, 6), SH(0, "yellow", "red"), TS(0), END,                               # 14-17  1:0
       R(6, 6), B(1, "freight_ring"), SH(1, "blue", "yellow"), TS(1), END,        # 18-22  1:1
       R(6, 6), FLY(2), END,                                                     # 23-25
       R(6, 6), B(0, "trade_ship"), B(0, "freight_ring"), B(0, "freight_ring"), B(0, "freight_ring"), FLY(0), END,  # 26-32
       R(6, 6), B(1, "trade_ship"), B(1, "freight_ring"), SH(1, "yellow", "yellow"), TS(1), END,  # 33-38  1:2
       R(6, 6), FLY(2), END,                                                     # 39-41
       R(6, 6), SH(0, "red", "blue"), TS(0), END,                                 # 42-45  2:2
       R(6, 6), END, R(6, 6), FLY(2), END,                                       # 46-50 (P1 has no ship left)
       R(6, 6), B(0, "trade_ship"), B(0, "freight_ring"), SH(0, "yellow", "blue"), TS(0), END]  # 51-56  3:2
write("star_friendship_majority_changes", {
 "description": SETUP_DESC + " Options: no starting cards, pile of 2 per resource; the umpire sets P0's and P1's hands "
  "(events 12-13) to what their ships and freight rings cost. Rolls are 12 (no planet). Everybody starts with 1 freight "
  "ring. At the merchants' station (0,-3): P0 docks (1:0, P0 takes the marker), P1 docks with 2 rings > 1 (1:1, P0 "
  "keeps it: first to arrive), P1 docks with 3 rings > 2 (1:2, P1 takes it), P0 docks with 4 rings > 3 (2:2, P1 keeps "
  "it), P0 docks with 5 rings > 4 (3:2, P0 takes it back). The marker is worth 2 VP.",
 "record": rec({"supply_refill": 2, "starting_cards": 0}, ev),
 "expect_outcomes": {
  "15": {"balls": ["yellow", "red"], "speed": 5, "movement": 5, "next": "flight"},
  "16": {"station": [0, -3], "awards": [{"award": "friendship_merchants", "before": None, "after": 0, "length": 1}],
         "vp": {"0": 6}},
  "21": {"station": [0, -3], "awards": [], "vp": {}},
  "37": {"awards": [{"award": "friendship_merchants", "before": 0, "after": 1, "length": 2}], "vp": {"0": 4, "1": 6}},
  "44": {"awards": [], "vp": {}},
  "55": {"awards": [{"award": "friendship_merchants", "before": 1, "after": 0, "length": 3}], "vp": {"0": 6, "1": 4}},
 },
 "expect_after": {
  "21": {"stations": [{"at": [0, -3], "alien": "merchants", "docks": [0, 1], "holder": 0},
                      {"at": [6, 3], "alien": "scientists", "docks": [], "holder": None}]},
  "44": {"stations": [{"at": [0, -3], "alien": "merchants", "docks": [0, 1, 1, 0], "holder": 1},
                      {"at": [6, 3], "alien": "scientists", "docks": [], "holder": None}]},
 },
 "expect": {
  "stations": [{"at": [0, -3], "alien": "merchants", "docks": [0, 1, 1, 0, 0], "holder": 0},
               {"at": [6, 3], "alien": "scientists", "docks": [], "holder": None}],
  "players": [{"vp": 6, "trade_stations": 3, "friendship_markers": ["merchants"], "upgrades": {"freight_ring": 5},
               "ships": {"trade_ship": 0, "colony_ship": 0}},
              {"vp": 4, "trade_stations": 2, "friendship_markers": [], "upgrades": {"freight_ring": 3}}],
 }})

# 3. terraform, half-medal pair, colony beside the terraformed planet ---------------------------------
ev = colonies() + ports(("trade_ship", "freight_ring"), ("colony_ship", "boosters"), ("colony_ship", "cannon"))
ev += [R(6, 6), B(0, "freight_ring"), SH(0, "black", "yellow"),
       {"type": "encounter", "player": 0, "half_medals": 1},
       {"type": "terraform", "player": 0, "at": [6, 0], "number": 8}, END,            # 12-17
       R(6, 6), SH(1, "red", "yellow"), {"type": "found_colony", "player": 1, "at": S["E02"]}, END,  # 18-21
       R(6, 6), SH(2, "black", "red"), {"type": "encounter", "player": 2, "half_medals": -1, "gain": {"carbon": 1}}, END,  # 22-25
       R(4, 4)]                                                                    # 26
write("star_terraform_and_half_medals", {
 "description": SETUP_DESC + " Option supply_refill 2 (stock 9 each). P0 starts with 1 freight ring and builds a 2nd "
  "(2 ore); shakes black + yellow: speed 3 and an encounter, which wins a half-medal (now 2 = 1 VP); the ship reaches "
  "the ice planet (6,0) of strength 2 with 2 freight rings: terraformed, marker kept (1 VP), replacement chip 8. "
  "P1's colony ship founds a colony on E02 between the terraformed (6,0) and the fuel planet (7,-1) (E01 stays blocked "
  "by the pirate base). P2's encounter loses its half-medal (1 half-medal was 0 VP, so no VP change) and gives 1 carbon. "
  "26: P0 rolls 8: food (1,0) pays P0 two, fuel (1,3) pays P2 one, the terraformed (6,0) now pays P1's new colony one ore.",
 "record": rec({"supply_refill": 2}, ev),
 "expect_outcomes": {
  "14": {"balls": ["black", "yellow"], "speed": 3, "movement": 3, "encounter": True, "next": "encounter"},
  "15": {"half_medals": {"0": 1}, "vp": {"0": 5}, "next": "flight"},
  "16": {"conquered": ["ice", [6, 0]], "vp": {"0": 6}},
  "20": {"founded": [[6, 0], [7, -1]], "vp": {"1": 5}},
  "24": {"half_medals": {"2": -1}, "vp": {}, "payouts": {"2": {"carbon": 1}}},
  "26": {"payouts": {"0": {"food": 2}, "1": {"ore": 1}, "2": {"fuel": 1}}, "supply_draws": {"0": 2}},
 },
 "expect": {
  "players": [{"vp": 6, "half_medals": 2, "trophies": {"pirate": 0, "ice": 1}, "upgrades": {"freight_ring": 2}},
              {"vp": 5, "half_medals": 1, "ships": {"colony_ship": 0, "trade_ship": 0},
               "colonies": [[[-3, 0], [-2, 0]], [[4, -1], [4, 0]], [[6, 0], [7, -1]]]},
              {"vp": 4, "half_medals": 0}],
  "markers": [{"at": [7, 0], "kind": "pirate", "strength": 3}],
  "last_roll": {"dice": [4, 4], "payouts": [{"food": 2}, {"ore": 1}, {"fuel": 1}]},
 }})

# 4. bad events: index and reason ------------------------------------------------------------------
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
ev += [R(6, 6), SH(0, "yellow", "yellow"), {"type": "defeat_pirate", "player": 0, "at": [7, 0], "number": 5}]
write("star_pirate_needs_cannons", {
 "description": SETUP_DESC + " P0 has 1 cannon; the pirate base (7,0) has strength 3: the defeat is refused at event 14.",
 "record": rec({}, ev),
 "expect_error": {"index": 14, "contains": "strength 3; player 0 has 1 cannon(s)"}})
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
ev += [R(6, 6), FLY(0), END, R(6, 6), SH(1, "red", "blue"), {"type": "found_colony", "player": 1, "at": S["A02"]}]
write("star_three_players_two_sites_per_system", {
 "description": SETUP_DESC + " With 3 players a system keeps one of its 3 colony sites free: P1's colony ship cannot "
  "found a colony on A02, system A already having P0's A01 and A12 (event 17).",
 "record": rec({}, ev),
 "expect_error": {"index": 17, "contains": "at most 2 of a system's 3 colony sites"}})
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
ev += [R(6, 6), SH(0, "red", "red")]
write("star_shake_two_red_balls", {
 "description": "The mothership holds one red ball: a shake of two reds is refused at event 13.",
 "record": rec({}, ev),
 "expect_error": {"index": 13, "contains": "only 1 red ball"}})
ev = colonies() + ports(("trade_ship", "freight_ring"), ("colony_ship", "boosters"), ("trade_ship", "freight_ring"))
ev += [R(6, 6), SH(0, "blue", "red"), TS(0), END, R(6, 6), SH(1, "blue", "red"), END,
       R(6, 6), SH(2, "red", "yellow")]
write("star_trade_station_needs_more_freight_rings", {
 "description": "P0 (1 freight ring) docks at the merchants' station. P1 has a colony ship, P2 a trade ship and 1 freight ring. "
  "Then P2 (1 freight ring) shakes and tries to dock (event 21); the station needs more freight rings than the 1 already docked.",
 "record": rec({}, ev + [{"type": "trade_station", "player": 2, "at": M}]),
 "expect_error": {"index": 21, "contains": "needs more freight rings than the 1 station(s) already docked"}})
print("ok")
ev = colonies() + ports(("trade_ship", "freight_ring"), ("trade_ship", "freight_ring"), ("colony_ship", "freight_ring"))
ev += [R(6, 6), SH(0, "yellow", "red"), TS(0), END, R(6, 6)]
write("star_win_at_the_end_of_the_turn", {
 "description": SETUP_DESC + " Option vp_target 6 (for a short record). P0 docks at the merchants' station and takes "
  "the friendship marker: 6 VP during the flight (event 14), but the game ends only when P0 ends the turn (event 15); "
  "P1's roll after that is refused.",
 "record": rec({"vp_target": 6}, ev[:-1]),
 "expect_after": {"14": {"winner": None, "turn": {"phase": "flight", "player": 0}, "players": [{"vp": 6}]}},
 "expect_outcomes": {"15": {"winner": 0, "ranking": [0, 1, 2], "next": "game_over"}},
 "expect": {"winner": 0, "turn": {"phase": "game_over", "player": 0}}})
write("star_no_roll_after_the_end", {
 "description": "The game of star_win_at_the_end_of_the_turn: a roll after P0 won is refused (event 16).",
 "record": rec({"vp_target": 6}, ev),
 "expect_error": {"index": 16, "contains": "the game is over"}})

# 5. issue 27: the supply refilled the moment it runs out; no colony in a face-down system; no end before the flight
SEED_REFILL = "「補充用の山札がなくなったら、即座に各資源の山から8枚ずつ引き」"
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
for p in (0, 1, 2, 0):
    ev += [R(6, 6), FLY(p), END]                                                  # 12-23: each draws 2 at 4 VP
ev += [R(6, 6)]                                                                   # 24: P1's draw empties the pile
refill_desc = (SETUP_DESC + " Options starting_cards 5, supply_refill 2: the pile holds 10, the stock 20-2-15 = 3 of "
  "each. Rolls are 12 (no planet); every roller at 4 VP draws 2: 8, 6, 4, 2 left, and P1's draw at event 24 empties "
  "the pile. Seed 003: " + SEED_REFILL + " (when the pile runs out, at once take 8 -- here 2 -- of each resource from "
  "the stock): the stock is down to 1 of each right after event 24.")
write("star_supply_refilled_the_moment_it_runs_out", {
 "description": refill_desc,
 "record": rec({"starting_cards": 5, "supply_refill": 2}, ev),
 "expect_after": {"21": {"supply": {"size": 2}, "bank": {"ore": 3, "fuel": 3, "carbon": 3, "food": 3, "trade_goods": 3}}},
 "expect_outcomes": {"21": {"supply_draws": {"0": 2}, "refills": None},
                     "24": {"supply_draws": {"1": 2}, "refills": 1}},
 "expect": {"supply": {"size": 10}, "bank": {"ore": 1, "fuel": 1, "carbon": 1, "food": 1, "trade_goods": 1}}})
write("star_stock_trade_after_the_refill", {
 "description": refill_desc + " So P1's trade of 3 fuel + 3 carbon for 2 ore (event 25) finds 1 ore in the stock and "
  "is refused.",
 "record": rec({"starting_cards": 5, "supply_refill": 2},
               ev + [{"type": "trade", "player": 1, "with": "bank", "give": {"fuel": 3, "carbon": 3}, "get": {"ore": 2}}]),
 "expect_error": {"index": 25, "contains": "the bank has only 1 ore, cannot give 2"}})

# A seventh system G, face down but for one chip (the strategic variant's unexplored sector).
SEED_EXPLORE = "「数字チップが裏向きになっている星系に隣接するポイントにたどり着いた場合、《星系の探査》を行います」"
HIDDEN_BOARD = {**BOARD, "systems": BOARD["systems"] + [
    system((-3, 3), [P("food", number=3), P("ore", hidden=True), P("fuel", hidden=True)])]}
G01 = [[-3, 3], [-2, 3]]
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
ev += [R(6, 6), FLY(0), END, R(6, 6), SH(1, "red", "yellow")]                     # 12-16
unexplored = ev + [{"type": "found_colony", "player": 1, "at": G01}]
write("star_no_colony_in_a_face_down_system", {
 "description": SETUP_DESC + " Board A-F plus system G: food (-3,3) 3, ore (-2,3) and fuel (-2,2) face down. Seed 003: "
  + SEED_EXPLORE + " (a ship reaching a point beside a face-down system explores it: 《星系の探査》 turns all its chips "
  "up), and no colony beside a pirate base or ice planet, which a hidden chip may be. P1's colony ship cannot found a "
  "colony on G01 before the chips are revealed (event 17).",
 "record": {**rec({}, unexplored), "board": HIDDEN_BOARD},
 "expect_error": {"index": 17, "contains": "still face down at [[-2, 2], [-2, 3]]"}})
explored = ev + [{"type": "reveal", "player": 1, "at": [-2, 3], "number": 11},
                 {"type": "reveal", "player": 1, "at": [-2, 2], "pirate": 2},
                 {"type": "found_colony", "player": 1, "at": G01}, END]
write("star_colony_after_the_system_is_revealed", {
 "description": SETUP_DESC + " The board of star_no_colony_in_a_face_down_system: P1's ship explores system G (seed 003: "
  + SEED_EXPLORE + "), the chips show ore 11 and a pirate base of strength 2 on (-2,2); G01 lies between (-3,3) and "
  "(-2,3), not beside the pirate base, so the colony is founded (event 19).",
 "record": {**rec({}, explored), "board": HIDDEN_BOARD},
 "expect_outcomes": {"17": {"revealed": [-2, 3]}, "18": {"revealed": [-2, 2]},
                     "19": {"founded": [[-3, 3], [-2, 3]], "vp": {"1": 5}}},
 "expect": {"hidden_planets": [], "markers": [{"at": [-2, 2], "kind": "pirate", "strength": 2},
                                             {"at": [6, 0], "kind": "ice", "strength": 2},
                                             {"at": [7, 0], "kind": "pirate", "strength": 3}],
            "players": [{}, {"vp": 5, "ships": {"colony_ship": 0, "trade_ship": 0}}]}})

SEED_FLIGHT = "「宇宙船が1つもない場合、このフェイズをスキップします。宇宙船がある場合、移動力を決定し…」"
ev = colonies() + ports(("trade_ship", "cannon"), ("colony_ship", "boosters"), ("colony_ship", "freight_ring"))
write("star_no_end_of_turn_before_the_flight", {
 "description": SETUP_DESC + " Seed 003: " + SEED_FLIGHT + " (the flight phase is skipped only with no ship; with a "
  "ship the mothership is shaken, and a black ball means an encounter). P0 has a trade ship in space, so ending the "
  "turn right after the roll is refused (event 13).",
 "record": rec({}, ev + [R(6, 6), END]),
 "expect_error": {"index": 13, "contains": "the flight phase comes before the end of the turn"}})
write("star_end_of_turn_without_a_ship_skips_the_flight", {
 "description": SETUP_DESC + " Seed 003: " + SEED_FLIGHT + ". P0's only ship docks at the merchants' station; "
  "in P0's next turn, with no ship in space, the turn ends without a shake (event 23).",
 "record": rec({}, colonies() + ports(("trade_ship", "freight_ring"), ("colony_ship", "boosters"),
                                      ("colony_ship", "freight_ring"))
                + [R(6, 6), SH(0, "yellow", "red"), TS(0), END, R(6, 6), FLY(1), END, R(6, 6), FLY(2), END,
                         R(6, 6), END]),
 "expect_outcomes": {"23": {"player": 0, "next": "roll", "next_player": 1}},
 "expect": {"turn": {"player": 1, "phase": "roll", "number": 5, "waiting_for": 1}, "last_shake": None}})
