"""The app says every refusal of the rules in Japanese (and English), naming players as it names them.

Data-driven: every code of the core's table has a Japanese template with the same fields, every
value a field can take (pieces, cards, phases, resources, ...) has a Japanese word, and every code
renders to Japanese without an English word.  Then real refusals from real games, rendered as a
Japanese user at the table reads them.
"""

from __future__ import annotations

import re

import pytest

from companion.record import COLORS
from companion.rules import standard_board
from companion.rules.board import HARBOR_TRADES, RESOURCES, TERRAINS, Tile
from companion.rules.card_game import COSTS as CARD_COSTS, EXPANSION_KINDS, FATE_SIDES
from companion.rules.game import DEVELOPMENT_CARDS, Game
from companion.rules.refusals import TEMPLATES, Refusal, fields
from companion.rules.starfarers import BALLS, COSTS as STAR_COSTS, PIECES as STAR_PIECES, UPGRADES
from companion.rules.starfarers_board import RESOURCES as STAR_RESOURCES
from companion.ui import i18n
from companion.ui.refusals_text import JA, Japanese, describe
from test_refusals import _problems_with, _refusal, _set_up, _spot  # the same set-up and refusal checks

ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
# Codes that quote what a record or a board file says (its field names, its values) as written.
FREE_TEXT = {"malformed_event", "illegal_action", "board_format", "unknown_terrain", "harbor_trade_unknown",
             "board_not_object", "board_no_hexes", "hex_entry_not_object", "hex_not_pair", "number_not_integer",
             "flags_not_bool", "harbors_not_list", "harbor_entry_shape"}

# Every value each kind of field can take, from the rules' own tables.
PIECES = sorted({"road", "settlement", "city", "ship", "dike", "transport_ship", *CARD_COSTS, *STAR_COSTS,
                 *STAR_PIECES, *EXPANSION_KINDS, *UPGRADES} - {"transport"})
DOMAINS = {
    "piece": PIECES,
    "card": list(DEVELOPMENT_CARDS),
    "phase": ["setup_settlement", "setup_road", "roll", "discard", "move_robber", "steal", "main", "gold",
              "special_build", "flood", "game_over", "setup_colony", "setup_spaceport", "encounter", "flight",
              "exchange", "build"],
    "resource": sorted({*RESOURCES, *STAR_RESOURCES}),
    "terrain": list(TERRAINS),
    "trade": list(HARBOR_TRADES),
    "ball": sorted(set(BALLS)),
    "fate": list(FATE_SIDES),
    "figure": ["robber", "pirate"],
    "purpose": PIECES + ["development", "discard", "trade", "encounter"],
    "marker": ["pirate", "ice"],
    "cleared": ["pirate", "ice"],
}
SAMPLE = {
    "": 3, "player": 1, "players": [1, 2], "cards": {"wool": 2, "ore": 1}, "hand": {"brick": 1, "unseen": 2},
    "phases": ["roll", "main"], "resources": ["wool", "ore"], "names": ["forest", "hills"], "hex": [0, 1],
    "hexes": [[0, 1], [1, 0]], "vertex": [[0, 0], [1, 0], [0, 1]], "edge": [[0, 0], [1, 0]],
    "building": [2, "settlement"], "owed": [[1, 2]], "bank_short": {"ore": 0},
    "numbers": [5, 8],
}


def _name(p: int) -> str:
    """Players as the app names them when no name is given: by colour."""
    return i18n.tr(COLORS[p], "ja")


def _sample(kind: str):
    return DOMAINS[kind][0] if kind in DOMAINS else SAMPLE[kind]


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_code_has_english_and_japanese_with_the_same_fields_and_renders_without_english(code):
    assert code in JA, f"no Japanese for {code}"
    en, ja = fields(TEMPLATES[code]), fields(JA[code])
    assert set(ja) == set(en), f"{code}: Japanese fields {sorted(ja)}, English {sorted(en)}"
    params = {name: ("lava" if code in FREE_TEXT else _sample(kind)) for name, kind in en.items()}
    text = describe(Refusal(code, **params), "ja", _name)
    assert not re.search(r"\{[a-z_]+(:[a-z_]+)?\}", text) and text.strip(), text
    if code not in FREE_TEXT:
        assert not ENGLISH_WORD.search(text), f"{code}: {text}"
    english = describe(Refusal(code, **params), "en", _name)
    assert not re.search(r"player \d", english), "the app's English names players too"


@pytest.mark.parametrize("kind", sorted(DOMAINS))
def test_every_value_a_field_can_take_has_a_japanese_word(kind):
    words = Japanese(_name)
    for value in DOMAINS[kind]:
        said = getattr(words, kind)(value)
        assert said and not ENGLISH_WORD.search(said), f"{kind} {value!r} reads {said!r} in Japanese"


def test_no_japanese_template_is_left_over():
    assert set(JA) == set(TEMPLATES)


# --- real refusals, as a Japanese user reads them -------------------------------------------------------


def _japanese(what) -> str:
    text = describe(what, "ja", _name)
    assert not ENGLISH_WORD.search(text), text
    return text


def test_real_refusals_name_players_by_colour_in_japanese():
    game = Game(standard_board(3), 3)
    first = game.legal_settlement_spots_setup()[0]
    wrong = _refusal(game, {"type": "build", "player": 2, "piece": "settlement", "at": _spot(first)})
    assert _japanese(wrong) == "初期配置：今は赤が置く番です（白ではありません）"
    game.push({"type": "build", "player": 0, "piece": "settlement", "at": _spot(first)})
    game.push({"type": "build", "player": 0, "piece": "road", "at": _spot(game.legal_setup_links()[0][1])})
    near = next(n for n in game.board.vertex_neighbours[first] if n in game.board.land_vertices)
    distance = _refusal(game, {"type": "build", "player": 1, "piece": "settlement", "at": _spot(near)})
    assert distance.code == "distance_rule" and "距離ルール" in _japanese(distance)

    game = Game(standard_board(3), 3)
    _set_up(game)
    game.push({"type": "roll", "dice": [6, 6]})
    turn = _refusal(game, {"type": "build", "player": 1, "piece": "road", "at": _spot(sorted(game.board.edges)[0])})
    assert _japanese(turn) == "青の手番ではありません（今は赤の手番です）"
    game.push({"type": "set_hand", "player": 0, "cards": {"wool": 1}})
    afford = _refusal(game, {"type": "buy_development", "player": 0})
    assert _japanese(afford) == "赤は発展カードの費用（小麦1枚、鉄1枚、羊毛1枚）を払えません（手札：羊毛1枚）"
    game.push({"type": "end_turn"})
    game.push({"type": "set_hand", "player": 2, "cards": {"brick": 9}})
    game.push({"type": "roll", "dice": [3, 4]})
    discard = _refusal(game, {"type": "discard", "player": 2, "cards": {"brick": 3}})
    assert _japanese(discard) == "白が捨てるのは4枚です（3枚ではありません）"
    phase = _refusal(game, {"type": "end_turn"})
    assert _japanese(phase) == "現在は捨て札の段階です（建設・交易の段階で行います）"
    breach = game.push({"type": "discard", "player": 2, "cards": {"brick": 3}, "forced": True}).warnings[0]
    assert _japanese(breach) == "白が捨てるのは4枚です（3枚ではありません）"
    assert describe(breach, "en", lambda p: COLORS[p]) == "white must discard 4 cards, not 3"


def test_board_entry_problems_in_japanese_name_the_hex():
    board = standard_board(5)
    desert = next(h for h, t in sorted(board.tiles.items()) if t.terrain == "desert")
    tiles = dict(board.tiles)
    tiles[desert] = Tile("desert", 5)
    problems = _problems_with(board, tiles)
    said = [_japanese(p) for p in problems]
    assert f"ヘクス{list(desert)}：砂漠に数字は置きません（5があります）" in said
    assert "標準セットより多い数字チップ：5" in said


@pytest.mark.parametrize("refusal", [Refusal("card_built_kind", player=0, piece="road"),
                                     Refusal("card_paid_wrong", paid={"lumber": 1}, piece="road", cost={"brick": 1}),
                                     Refusal("card_nobody_to_take", piece="road")], ids=lambda r: r.code)
def test_the_card_games_road_is_its_buttons_word_in_japanese(refusal):
    """One word per thing in a game: the card game's button and cards say 街道; its refusals said 道."""
    said = describe(refusal, "ja")
    assert "街道" in said and "道" not in said.replace("街道", "")
    assert "道" in describe(Refusal("no_piece_left", player=0, piece="road"), "ja")  # the hex-board games' word
