"""Why the rules refuse something, as data: a stable ``code`` and plain ``params``, rendered to English here.

Every refusal the rules core gives (an :class:`~companion.rules.errors.IllegalAction`, a
:class:`~companion.rules.errors.BoardProblem`, a breach an umpire records anyway) is a
:class:`Refusal`: a short snake_case ``code`` naming the reason and ``params``, the facts it is
about, as plain JSON values (seat numbers, resource names, counts, hexes ``[q, r]`` and vertices or
edges ``[[q, r], ...]`` as the record writes them, phase names).  ``str()`` renders the English
sentence from :data:`TEMPLATES`, the one English text of each code (the ``replay`` CLI and the
messages on bad records print it).  The app renders the same code and params in the user's
language, naming players as it names them (``companion/ui/refusals_text.py``).

A template is a :meth:`str.format` string whose fields carry a *kind* after the colon
(``{player:player}``, ``{cards:cards}``, ``{edge:edge}``): the kind says how a value reads, and a
language supplies one :class:`Words` with a method per kind.  A field without a kind prints as is
(counts).  Adding a reason: add its code and English template here, raise ``Refusal(code, ...)``
(or ``_require(condition, code, ...)``) at the rule, add its Japanese template in the UI's table;
``tests/test_refusals.py`` checks the three agree.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any, Mapping

# code -> English template.  Kinds after the colon: see Words.
TEMPLATES: dict[str, str] = {
    # generic: messages about a record's shape keep their English detail
    "malformed_event": "{detail}",
    "illegal_action": "{detail}",
    "board_format": "{detail}",
    # turn and phase
    "game_over": "the game is over",
    "ended_by_time": "the game was ended by the round's time limit",
    "wrong_phase": "not allowed now: the game is at {phase:phase}, this needs {needs:phases}",
    "out_of_turn": "{player:player} acts out of turn (it is {turn:player}'s turn)",
    "setup_wrong_player": "set-up: it is {expected:player}'s placement, not {player:player}'s",
    "setup_settlement_first": "set-up: {player:player} places a settlement first, not a {piece:piece}",
    "setup_road_next": "set-up: {player:player} places a road next, not a {piece:piece}",
    "special_build_not_queued": "{player:player} cannot build now: the special building phase has players "
                                "{left:players} left to build",
    "special_build_over": "{player:player} cannot build now: the special building phase has nobody left to build",
    # placing pieces
    "vertex_off_land": "vertex {vertex:vertex} is not on the land of this board",
    "vertex_taken": "vertex {vertex:vertex} is already taken",
    "distance_rule": "vertex {vertex:vertex} is next to a building at {neighbour:vertex} (distance rule)",
    "settlement_not_connected": "vertex {vertex:vertex} is not connected to a road of {player:player}",
    "road_off_land": "edge {edge:edge} has no land beside it, so no road can go there",
    "edge_taken": "edge {edge:edge} is already taken",
    "setup_link_not_touching": "the set-up {piece:piece} {edge:edge} must touch the settlement just placed",
    "road_not_connected": "edge {edge:edge} is not connected to a road, settlement or city of {player:player}",
    "no_piece_left": "{player:player} has no {piece:piece} left",
    "no_legal_spot": "{player:player} has nowhere to build a {piece:piece} now",
    "city_needs_settlement": "a city replaces one of {player:player}'s settlements; vertex {vertex:vertex} has "
                             "{there:building}",
    "no_building_at": "there is no settlement or city at {vertex:vertex}",
    "no_piece_on_edge": "there is no piece on edge {edge:edge}",
    # paying and the bank
    "cannot_afford": "{player:player} cannot pay {cards:cards} for {purpose:purpose} (holds {holds:hand})",
    "bank_short": "the bank has only {have} {resource:resource}, cannot give {n}",
    "does_not_hold": "{player:player} does not hold {cards:cards}",
    "unseen_all_in_bank": "{player:player} cannot pay {resource:resource}: all {n} are in the bank",
    "unseen_all_placed": "{player:player} cannot pay {resource:resource} from unseen cards: the bank holds {bank} of "
                         "the {n} and the table has seen the rest ({known})",
    "does_not_hold_hand": "{player:player} does not hold {cards:cards} (holds {holds:hand})",
    "hand_lacks": "the hand does not hold {cards:cards} (holds {holds:hand})",
    "empty_hand": "cannot take a card from an empty hand",
    # gold fields
    "gold_not_owed": "{player:player} is owed no gold (owed: {owed:owed})",
    "gold_count": "{player:player} takes {n} card(s) for gold, not {got}",
    "gold_count_bank": "{player:player} takes {n} card(s) for gold, not {got} (the bank holds only {n})",
    "gold_bank_short": "{player:player} cannot take {short:bank_short}; choose another resource",
    # the 7: discards, robber, steal
    "no_discard_owed": "{player:player} owes no discard",
    "discard_count": "{player:player} must discard {owed} cards, not {got}",
    "robber_off_land": "the robber must go to a land hex of the board, not {hex:hex}",
    "robber_must_move": "the robber must move: it already stands on {hex:hex}",
    "not_steal_candidate": "{victim:player} cannot be robbed here (candidates: {candidates:players})",
    "nothing_to_steal": "{victim:player} has no card to steal",
    # development cards
    "dev_deck_empty": "the development deck is empty",
    "dev_card_gone": "no {card:card} card is left in the deck",
    "dev_already_played": "{player:player} already played a development card this turn",
    "dev_bought_this_turn": "{player:player} cannot play a {card:card}: bought it this turn",
    "dev_none": "{player:player} cannot play a {card:card}: has none",
    "dev_none_to_play": "{player:player} holds no development card to play",
    "dev_all_new": "{player:player} cannot play a development card: all were bought this turn",
    "year_of_plenty_two": "year of plenty takes two resources",
    "reveal_too_many": "{player:player} cannot show {n} victory point card(s): holds only {held} development "
                       "card(s) that may be one",
    "reveal_vp_gone": "{player:player} cannot show {n} more victory point card(s): only {left} are still unaccounted "
                      "for",
    "monopoly_too_few": "{other:player} is known to hold {known} {resource:resource}, so hands over at least that "
                        "many, not {n}",
    # trades
    "trade_no_gift": "a trade needs cards on both sides (no gifts)",
    "trade_like_for_like": "a trade cannot swap like for like ({same:resources})",
    "trade_ratio": "{player:player} trades {resource:resource} at {ratio}:1, so {n} {resource:resource} is not a "
                   "whole number of trades",
    "trade_bank_count": "{give:cards} buys {bought} card(s) from the bank, not {got}",
    "trade_self": "a player cannot trade with themself",
    # Seafarers: ships and the pirate
    "ship_already_moved": "{player:player} already moved a ship this turn",
    "ship_move_same": "the ship must move somewhere else than {edge:edge}",
    "no_movable_ship": "{player:player} has no ship that may move now (the end ship of an open route, not built "
                       "this turn, not beside the pirate)",
    "ship_off_water": "edge {edge:edge} has land on both sides: ships sail on sea lanes and coasts only",
    "ship_by_pirate": "edge {edge:edge} borders the pirate's hex {pirate:hex}: no ship may be placed there",
    "ship_not_connected": "edge {edge:edge} is not connected to a ship, settlement or city of {player:player}",
    "no_ship_there": "there is no ship of {player:player} on edge {edge:edge}",
    "ship_new": "the ship on {edge:edge} was built this turn and cannot move until a later turn",
    "ship_pirate_stuck": "the ship on {edge:edge} borders the pirate's hex {pirate:hex} and cannot move",
    "ship_not_route_end": "the ship on {edge:edge} is not the end of an open route (a building or a ship at both "
                          "ends)",
    "no_robber_in_game": "this game plays without the robber: move the pirate",
    "robber_to_sea": "the robber never goes to sea: {hex:hex} is a sea hex (move the pirate there)",
    "no_pirate": "this game has no pirate",
    "pirate_off_sea": "the pirate must go to a sea hex of the board, not {hex:hex}",
    "pirate_to_frame": "the pirate never moves onto the sea frame: {hex:hex} is a frame hex",
    "pirate_must_move": "the pirate must move: it already stands on {hex:hex}",
    # High Tide
    "islet_setup": "vertex {vertex:vertex} is on the islet {islet:hex}: no initial settlement on an islet",
    "dike_special_build": "dikes cannot be built in the special building phase",
    "dike_spring_tide": "dikes cannot be built any more in the spring tide",
    "dike_too_early": "dikes cannot be built before the dike-building round",
    "no_dike_card": "{player:player} has no dike card left",
    "dike_off_land": "a dike protects a land hex; {hex:hex} is not land",
    "dike_there": "hex {hex:hex} already has a dike",
    "no_flood_owed": "no flood is owed now (the tide strikes after a high-tide roll other than 7)",
    "flood_off_land": "{hex:hex} is not land: the tide can only take land",
    "flood_wrong_hex": "the tide takes a land hex with the number rolled: one of {choices:hexes}, not {hex:hex}",
    "robber_stays_in_desert": "variant \"robber to the desert\": the robber stays in the desert for the high-tide "
                              "rounds and cannot move to {hex:hex} (the 7 moves the pirate, or nothing)",
    # the card game
    "card_no_card": "{player:player} has no card for the exchange",
    "card_exchange_after_build": "exchanges come before building: player has already built this turn",
    "card_exchanges_used": "{player:player} may make {allowed} exchange(s) this turn ({roads} A-side road(s))",
    "card_exchange_needs_road": "without a road card the only exchange is with the draw pile",
    "card_exchange_self": "a player cannot exchange with themself",
    "card_paid_wrong": "{paid:cards} does not pay for a {piece:piece} ({cost:cards}): each missing card takes three "
                       "identical cards",
    "card_built_kind": "{player:player} already built a {piece:piece} this turn (one of each kind)",
    "card_city_needs_settlement": "a city turns over one of {player:player}'s settlements; they have none",
    "card_has_expansion": "{player:player} already has a {kind:piece}",
    "card_no_free_city": "a city expansion goes on a city without one; {player:player} has none free",
    "card_expansion_deck_empty": "the city expansion deck is empty",
    "card_settlement_deck_empty": "the settlement deck is empty: no settlement can be built",
    "card_flip_only_settlement": "only a new settlement lets its owner flip the fate card (a robber raid flips it "
                                 "anyway)",
    "card_fate_points": "the fate card ({fate:fate}) points to {target:player} for the {piece:piece}, not "
                        "{named:player}",
    "card_nobody_to_take": "the {piece:piece} deck is empty and no neighbour has an unprotected {piece:piece} card",
    "card_cannot_pay": "{player:player} cannot pay {cards:cards} (holds {size} card(s): {holds:hand})",
    "card_discard_count": "{player:player} holds {size} card(s), cannot discard {n}",
    # Starfarers
    "setup_colony_wrong_player": "set-up: it is {expected:player}'s colony, not {player:player}'s",
    "spaceport_needs_colony": "a spaceport ring goes on one of {player:player}'s colonies; {site:edge} has "
                              "{there:building}",
    "upgrade_max": "{player:player}'s mothership holds at most {max} {piece:piece}s",
    "upgrade_box_empty": "no {piece:piece} is left in the box",
    "upgrade_too_few": "{player:player} has only {have} {piece:piece}(s) to lose",
    "setup_spaceport_phase": "not allowed now: the game is at {phase:phase}; the set-up spaceports come after all "
                             "set-up colonies",
    "setup_spaceport_wrong_player": "set-up: it is {expected:player}'s spaceport, not {player:player}'s",
    "setup_spaceport_needs_colony": "the set-up spaceport goes on one of {player:player}'s colonies; {site:edge} "
                                    "has {there:building}",
    "balls_too_many": "the mothership holds only {have} {colour:ball} ball, not {n}",
    "no_ship_for_flight": "{player:player} has no ship in space: the flight phase is skipped (end the turn)",
    "half_medals_too_few": "{player:player} has {have} half-medal(s), cannot lose {n}",
    "half_medals_all_out": "only {max} half-medals exist",
    "no_ship_kind_in_space": "{player:player} has no {ship:piece} in space",
    "no_station": "there is no alien trade station at {hex:hex}",
    "station_full": "all {docks} docks of the station at {hex:hex} are taken",
    "freight_rings_short": "{player:player} needs more freight rings than the {docked} station(s) already docked "
                           "at {hex:hex} (has {rings})",
    "no_marker": "there is no {marker:marker} marker at {hex:hex}",
    "marker_too_strong": "the {marker:marker} at {hex:hex} has strength {strength}; {player:player} has {have} "
                         "{gear:piece}(s)",
    "no_ship_to_reach": "{player:player} has no ship in space to reach it",
    "no_hidden_chip": "there is no face-down chip at {hex:hex}",
    "no_colony_at": "there is no colony or spaceport on {site:edge}",
    "not_colony_site": "{site:edge} is not a colony site (the edge between two planets of one system)",
    "colony_site_taken": "colony site {site:edge} is already taken",
    "setup_colony_not_catan": "set-up colonies go to the Catan colony systems; {site:edge} is not in one",
    "planet_marker_blocks": "planet {hex:hex} still has its {marker:marker} marker: no colony beside it until it "
                            "is {marker:cleared}",
    "system_unexplored": "the system of {site:edge} is still face down at {hexes:hexes}: a ship explores it (the "
                         "chips are turned up, reveal) before a colony can be founded there",
    "flight_owed": "{player:player} has {ships} ship(s) in space: the flight phase comes before the end of the turn "
                   "(shake the mothership)",
    "system_full": "with 3 players at most 2 of a system's 3 colony sites are used; {site:edge}'s system is full",
    # boards (a BoardProblem names its hex apart: "hex [q, r]: ...")
    "board_not_object": "board must be an object, got {kind}",
    "board_no_hexes": "board.hexes must be a non-empty list",
    "hex_entry_not_object": "board.hexes[{index}] must be an object",
    "hex_not_pair": "{where}: expected [q, r] with two integers, got {value}",
    "number_not_integer": "number must be an integer, got {number}",
    "flags_not_bool": "islet and frame must be true or false, got {islet}, {frame}",
    "harbors_not_list": "board.harbors must be a list, got {value}",
    "harbor_entry_shape": "board.harbors[{index}] must be {{\"edge\": [[q, r], [q, r]], \"trade\": ...}}",
    "harbor_hexes_apart": "board.harbors[{index}]: hexes {a:hex} and {b:hex} are not neighbours, so they share no edge",
    "hex_listed_twice": "listed twice",
    "unknown_terrain": "unknown terrain {terrain!r} (expected one of {known:names})",
    "harbor_trade_unknown": "harbor trade {trade!r} unknown (expected {known:names})",
    "two_harbors": "two harbors on the edge {edge:edge}",
    "number_on_blank": "{terrain:terrain} must carry no number (has {number})",
    "number_missing": "{terrain:terrain} needs a number token",
    "number_not_token": "number {number} does not exist (tokens are 2-6 and 8-12)",
    "islet_not_land": "an islet must be land",
    "frame_not_sea": "only sea hexes belong to the frame",
    "harbor_not_coast": "harbor {trade:trade} on edge {edge:edge} is not on a coast (needs land on one side and sea "
                        "on the other)",
    "figure_off_board": "the {figure:figure} stands on a hex that is not on the board",
    "robber_on_sea": "the robber must stand on land",
    "pirate_on_land": "the pirate must stand on sea",
    "robber_not_on_desert": "the robber starts on the desert ({desert:hex}), not on {hex:hex}",
    "red_numbers_adjacent": "{number} next to {other} at {hex:hex}",
    "terrain_count": "{terrain:terrain}: {have} hexes, the standard set has {want}",
    "numbers_missing": "number tokens missing from the standard set: {numbers:numbers}",
    "numbers_extra": "number tokens beyond the standard set: {numbers:numbers}",
}


def format_cards(cards: Mapping[str, int]) -> str:
    """``{"wool": 2, "ore": 1}`` as ``1 ore, 2 wool`` (``nothing`` when empty)."""
    return ", ".join(f"{n} {r}" for r, n in sorted(cards.items()) if n) or "nothing"


class Words:
    """How each kind of template field reads: the English of the rules core.

    A language (the app's Japanese, the app's English with players named by colour) subclasses this
    and overrides the kinds it says differently.
    """

    def player(self, p: int | None) -> str:
        return f"player {p}"

    def players(self, seats: list[int]) -> str:
        return str(list(seats))

    def name(self, value: str) -> str:
        return str(value).replace("_", " ")

    piece = card = resource = phase = ball = fate = terrain = trade = figure = name

    def phases(self, phases: list[str]) -> str:
        return " or ".join(self.phase(p) for p in phases)

    def resources(self, names: list[str]) -> str:
        return ", ".join(names)

    def names(self, names: list[str]) -> str:
        return ", ".join(names)

    def numbers(self, numbers: list[int]) -> str:
        return ", ".join(str(n) for n in numbers)

    def cards(self, cards: Mapping[str, int]) -> str:
        return format_cards(cards)

    def hand(self, holds: Mapping[str, int]) -> str:
        """A hand as the table knows it: named cards, then ``unseen`` ones (key ``"unseen"``)."""
        parts = [f"{n} {r}" for r, n in sorted(holds.items()) if n and r != "unseen"]
        if holds.get("unseen"):
            parts.append(f"{holds['unseen']} unseen")
        return ", ".join(parts) or "nothing"

    def hex(self, h: list[int]) -> str:
        return str(list(h))

    def hexes(self, hexes: list[list[int]]) -> str:
        return str([list(h) for h in hexes])

    vertex = edge = hexes

    def building(self, there: list | None) -> str:
        """What stands on a spot: ``None`` or ``[player, kind]``."""
        return "nothing" if there is None else f"{self.player(there[0])}'s {there[1]}"

    def purpose(self, what: str) -> str:
        """What a payment buys: a piece or card name, or ``discard``/``trade``/``encounter``."""
        if what in ("discard", "trade", "encounter"):
            return f"the {what}"
        return "a development card" if what == "development" else f"a {self.name(what)}"

    def marker(self, marker: str) -> str:
        return "pirate base" if marker == "pirate" else "ice planet"

    def cleared(self, marker: str) -> str:
        return "defeated" if marker == "pirate" else "terraformed"

    def owed(self, pairs: list[list[int]]) -> str:
        """``[[player, count], ...]`` as the English message always wrote it."""
        return str({p: n for p, n in pairs}) if pairs else "nobody"

    def bank_short(self, short: Mapping[str, int]) -> str:
        return ", ".join(f"{r} (the bank has {n})" for r, n in short.items())


def _formatter(words: Words):
    """A ``string.Formatter`` whose kinds of field (``{player:player}``) are ``words``' methods.  (The class
    is made at the first sentence: importing ``string`` compiles a regular expression, which a replay that
    refuses nothing need not pay for at start.)"""
    global _Formatter
    if _Formatter is None:
        import string

        class _Formatter(string.Formatter):
            def __init__(self, words: Words):
                self.words = words

            def format_field(self, value: Any, spec: str) -> str:
                if spec and spec.isidentifier():
                    return getattr(self.words, spec)(value)
                return format(value, spec)
    return _Formatter(words)


_Formatter = None


# Refusals that name a place the piece cannot be at all: a side or corner with no land (a road or settlement at
# sea, off the board), a side between two land hexes for a ship, a place already holding a piece.  No table can
# have done that, so an umpire's ``forced`` entry is refused as well (the override is for rules, not geometry),
# and the app offers no "record anyway" for them.
NO_SUCH_PLACE: frozenset[str] = frozenset({"vertex_off_land", "vertex_taken", "road_off_land", "edge_taken",
                                           "ship_off_water"})


ENGLISH = Words()


def render(code: str, params: Mapping[str, Any], words: Words = ENGLISH, template: str | None = None) -> str:
    """The sentence for ``code`` with ``params``, in the language of ``words`` (English by default)."""
    return _formatter(words).vformat(TEMPLATES[code] if template is None else template, (), params)


def fields(template: str) -> dict[str, str]:
    """A template's fields and their kinds (``""`` for a plain field), for checking translations."""
    import string

    return {name: spec for _, name, spec, _ in string.Formatter().parse(template) if name is not None}


class Refusal:
    """One reason the rules refuse: ``code`` and ``params`` (plain JSON values); ``str()`` is English."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, **params: Any):
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return render(self.code, self.params)

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.code, self.params) == (other.code, other.params)

    __hash__ = None  # type: ignore[assignment]  # params is a dict

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


class Breach(str):
    """A rule an umpire's ``forced`` entry broke: the English sentence (what outcomes and the ``replay``
    view keep) that also carries its :class:`Refusal`, so the app can say it in the user's language."""

    refusal: Refusal

    def __new__(cls, refusal: Refusal) -> "Breach":
        text = super().__new__(cls, str(refusal))
        text.refusal = refusal
        return text


def json_spot(spot) -> list:
    """A hex, vertex or edge (tuples) as the record writes it (lists)."""
    return [list(h) for h in spot] if spot and isinstance(spot[0], tuple) else list(spot)
