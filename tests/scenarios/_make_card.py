"""Writes the card_ scenario records: the events, and the expectations worked out by hand (the descriptions say how).

Run from anywhere: python tests/scenarios/_make_card.py
"""
import json, pathlib
OUT = pathlib.Path(__file__).parent
PL = [{"name": "Aki", "color": "red"}, {"name": "Ben", "color": "blue"}, {"name": "Chie", "color": "white"}]
def rec(n, board, events, options=None):
    return {"format": "catan-record/1", "game": "card-game", "options": options or {}, "players": PL[:n],
            "board": board, "events": events}
def write(name, data):
    (OUT / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
B = lambda p, piece, **kw: {"type": "build", "player": p, "piece": piece, **kw}
END = {"type": "end_turn"}

write("card_steal_skips_protected_neighbour", {
 "description": "3 players, each starting with 1 road (A), 1 settlement and 12 cards; the knight deck holds 2; fate white "
  "(arrow to the left neighbour = the next player in seating order). P1 hires a knight (A) and builds a city and a church "
  "on it; P2 hires the last knight. P0's knight finds the deck empty: left of P0 is P1, whose only knight the church "
  "protects, so P1 is skipped and P2's knight is taken; it is P0's first knight, so it lies A side up. Then P1 hires "
  "a knight: left of P1 is P2 with no knight (skipped), then P0, whose knight is taken; it is P1's second, so B side "
  "up: 1 VP.",
 "record": rec(3, {"decks": {"road": 4, "settlement": 8, "knight": 2, "expansion": 7}, "fate": "white",
                   "start": {"roads": 1, "settlements": 1, "cards": 12}},
               [END,
                B(1, "knight"), B(1, "city", face="market_day"), B(1, "expansion", kind="church"), END,
                B(2, "knight"), END,
                B(0, "knight"), END,
                B(1, "knight", **{"from": 0}), END]),
 "expect_outcomes": {
  "1": {"side": "A", "taken": {}, "vp": {}},
  "3": {"vp": {"1": 3}},
  "4": {"draws": {"1": 3}},
  "7": {"side": "A", "skipped": [[1, "church"]], "taken": {"piece": "knight", "from": 2, "side": "A"}},
  "9": {"side": "B", "skipped": [[2, "none"]], "taken": {"piece": "knight", "from": 0, "side": "B"}, "vp": {"1": 4}},
 },
 "expect_after": {
  "7": {"players": [{"knights": ["A"]}, {"knights": ["A"]}, {"knights": []}], "decks": {"knight": 0}},
 },
 "expect": {
  "players": [{"vp": 1, "knights": [], "hand_size": 14},
              {"vp": 4, "knights": ["A", "B"], "settlements": 0, "cities": [{"face": "market_day", "expansion": "church"}],
               "hand_size": 3},
              {"vp": 1, "knights": [], "hand_size": 12}],
  "draw_pile": 12, "discard_pile": 21, "fate": "white",
  "turn": {"player": 2, "phase": "exchange", "number": 6},
 }})

write("card_expansion_replaces_city_vp", {
 "description": "2 players, 12 cards each at the start, win at 5 (option). P0 exchanges one card with the draw pile (1 "
  "A-side road: 1 exchange), builds a settlement and flips the fate card (white -> black), then a city that shows the "
  "robber raid, which flips it back. P1 builds a city paying 2 grain, 2 ore and 3 wool for the missing ore. P0's "
  "library replaces the city's 2 VP with 3; P1's town hall replaces them with 4, and P1's second road (B side) makes 5: "
  "P1 wins at once.",
 "record": rec(2, {"start": {"cards": 12}},
               [{"type": "exchange", "player": 0, "with": "pile"},
                B(0, "settlement", flip_fate=True), B(0, "city", face="robber_raid"), END,
                B(1, "city", face="market_day", paid={"grain": 2, "ore": 2, "wool": 3}), END,
                B(0, "expansion", kind="library"), END,
                B(1, "expansion", kind="town_hall"), B(1, "road")], {"vp_target": 5}),
 "expect_outcomes": {
  "0": {"exchanges_left": 0, "draws": {"0": 1}},
  "1": {"fate": "black", "vp": {"0": 2}},
  "2": {"fate": "white", "city_face": "robber_raid", "vp": {"0": 3}},
  "4": {"city_face": "market_day", "vp": {"1": 2}},
  "6": {"vp": {"0": 4}},
  "8": {"vp": {"1": 4}},
  "9": {"side": "B", "vp": {"1": 5}, "winner": 1, "ranking": [1, 0], "next": "game_over"},
 },
 "expect": {
  "players": [{"vp": 4, "settlements": 1, "cities": [{"face": "robber_raid", "expansion": "library"}], "hand_size": 3},
              {"vp": 5, "roads": ["A", "B"], "settlements": 0,
               "cities": [{"face": "market_day", "expansion": "town_hall"}], "hand_size": 1}],
  "decks": {"road": 2, "settlement": 4, "knight": 2, "expansion": 3},
  "draw_pile": 31, "discard_pile": 27, "fate": "white", "winner": 1,
 }})

write("card_one_build_of_each_kind", {
 "description": "A second knight in the same turn is refused (one build of each kind per turn).",
 "record": rec(2, {"start": {"cards": 12}}, [B(0, "knight"), B(0, "knight")]),
 "expect_error": {"index": 1, "contains": "already built a knight this turn"}})
write("card_exchanges_per_a_side_road", {
 "description": "P0 has one road card (A side): one exchange per turn; the second is refused.",
 "record": rec(2, {}, [{"type": "exchange", "player": 0, "with": "pile"},
                       {"type": "exchange", "player": 0, "with": "market", "get": "ore"}]),
 "expect_error": {"index": 1, "contains": "may make 1 exchange(s) this turn"}})
write("card_empty_deck_nobody_to_take", {
 "description": "The knight deck is empty and nobody has a knight: the knight cannot be hired.",
 "record": rec(3, {"decks": {"road": 4, "settlement": 8, "knight": 0, "expansion": 7}}, [B(0, "knight")]),
 "expect_error": {"index": 0, "contains": "knight deck is empty and no neighbour"}})
write("card_three_for_one_needs_three_identical", {
 "description": "A road paid with 1 lumber and 2 wool: a missing brick takes three identical cards.",
 "record": rec(2, {}, [B(0, "road", paid={"lumber": 1, "wool": 2})]),
 "expect_error": {"index": 0, "contains": "each missing card takes three identical cards"}})
print("ok")
write("card_road_taken_to_the_right_past_a_city_wall", {
 "description": "3 players, 1 road (A), 1 settlement and 12 cards each; the road deck is empty; the fate card shows the "
  "black arrow (to the right neighbour, the previous seat). P2 builds a city (market day) and a city wall on it. P0's "
  "road: right of P0 is P2, whose single road the wall protects (up to 3), so P2 is skipped and P1's only road is "
  "taken; it is P0's second road, B side up: 1 VP. P1, now without a road card, may make only one exchange, with "
  "the draw pile.",
 "record": rec(3, {"decks": {"road": 0, "settlement": 8, "knight": 4, "expansion": 7}, "fate": "black",
                   "start": {"cards": 12}},
               [END, END, B(2, "city", face="market_day"), B(2, "expansion", kind="city_wall"), END,
                B(0, "road"), END]),
 "expect_outcomes": {
  "3": {"vp": {"2": 3}},
  "5": {"side": "B", "skipped": [[2, "city_wall"]], "taken": {"piece": "road", "from": 1, "side": "B"}, "vp": {"0": 2}},
 },
 "expect": {
  "players": [{"vp": 2, "roads": ["A", "B"], "hand_size": 14}, {"vp": 1, "roads": [], "hand_size": 14},
              {"vp": 3, "roads": ["A"], "settlements": 0, "cities": [{"face": "market_day", "expansion": "city_wall"}],
               "hand_size": 5}],
  "fate": "black", "decks": {"road": 0}, "draw_pile": 18, "discard_pile": 11,
  "turn": {"player": 1, "phase": "exchange", "number": 5, "exchanges_left": 1},
 }})
