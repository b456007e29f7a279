"""Places on the board as players say them: "the 6 hills", "Ben's settlement", "the side between the
6 hills and the 8 fields" -- never the record's coordinates (``[[0, 0], [0, 1], [1, 0]]``).

A player at the table finds a hex by its number and terrain, a corner or a side by the hexes around it or by
the piece standing there; the board view rings the spot as well, so a name needs to be only as exact as a
player's own words.  Hexes that share a number and terrain (the sea, two 9 pastures) are told apart by a
neighbour only they have.

:class:`Places` reads the board (and the pieces, when there is a game); it holds no rules.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from ..rules import geometry as geo
from ..rules.board import telling_neighbour

PlayerName = Callable[[int], str]

# The few words of a place, per language (the terrain and piece words come from the caller's `word`).
WORDS = {
    "en": {
        "tile": "the {number} {terrain}", "blank": "the {terrain}", "off": "a spot off the board",
        "beside": "{place} next to {other}", "corner": "the corner of {hexes}", "corner_sea": "a corner out at sea",
        "side": "the side between {a} and {b}", "coast": "the coast of {a}", "coast_by": "the coast of {a} by {b}",
        "lane": "a side out at sea", "piece": "{player}'s {piece}", "and": " and ", "comma": ", ", "or": " or ",
    },
    "ja": {
        "tile": "{number}の{terrain}", "blank": "{terrain}", "off": "盤面の外",
        "beside": "{other}の隣の{place}", "corner": "{hexes}の角", "corner_sea": "海の上の角",
        "side": "{a}と{b}の間の辺", "coast": "{a}の海岸", "coast_by": "{b}寄りの{a}の海岸",
        "lane": "海の上の辺", "piece": "{player}の{piece}", "and": "・", "comma": "・", "or": "か",
    },
}


def _spot(value) -> tuple:
    """A hex ``[q, r]`` or a vertex/edge ``[[q, r], ...]`` (lists or tuples) as the rules' tuples."""
    if value and isinstance(value[0], (list, tuple)):
        return tuple(sorted(tuple(h) for h in value))
    return tuple(value)


class Places:
    """Names hexes, corners and sides of ``board`` in ``lang``.

    ``buildings`` (vertex -> (player, kind)) and ``pieces`` (edge -> (player, kind)) name a spot by what
    stands there; ``word(key)`` gives the app's word for a terrain or a piece in ``lang``.
    """

    def __init__(self, board, lang: str, word: Callable[[str], str], player_name: PlayerName,
                 buildings: Mapping | None = None, pieces: Mapping | None = None):
        self.board, self.lang, self.word, self.player_name = board, lang, word, player_name
        self.buildings = buildings or {}
        self.pieces = pieces or {}
        self.w = WORDS.get(lang, WORDS["en"])
        tiles = getattr(board, "tiles", {}) or {}
        self.tiles = tiles
        counts: dict[str, int] = {}
        for h in tiles:
            counts[self._base(h)] = counts.get(self._base(h), 0) + 1
        self._unique = {name for name, n in counts.items() if n == 1}

    # --- hexes ---------------------------------------------------------------------------------------
    def _base(self, h) -> str:
        tile = self.tiles.get(tuple(h))
        if tile is None:
            return self.w["off"]
        return self._tile(tile.terrain, tile.number)

    def _tile(self, terrain: str, number: int | None) -> str:
        word = self.word(terrain)
        if number is None:
            return self.w["blank"].format(terrain=word)
        return self.w["tile"].format(number=number, terrain=word)

    def named(self, terrain: str, number: int | None, beside: tuple[str, int | None] | None = None) -> str:
        """A hex said from what it is (not where): "the 5 mountains", with ``beside`` (the terrain and number of
        the neighbour that tells it apart) "the 5 mountains next to the 8 hills" -- a hex the tide took, named
        from its outcome (``FloodedHex``) in the words :meth:`hex` gives it."""
        base = self._tile(terrain, number)
        if beside is None:
            return base
        return self.w["beside"].format(place=base, other=self._tile(*beside))

    def _land_first(self, hexes: Iterable) -> list:
        """Hexes on the board, land before sea, then by number (a stable, readable order)."""
        on = [h for h in hexes if h in self.tiles]
        return sorted(on, key=lambda h: (not self.tiles[h].is_land, self.tiles[h].number or 0, h))

    def hex(self, h) -> str:
        """"the 6 hills"; one that shares its number and terrain with another hex, by a neighbour
        (``telling_neighbour``, the rule the High Tide flood's outcome names a hex by): "the 9 pasture next to the
        4 forest"."""
        h = _spot(h)
        base = self._base(h)
        if h not in self.tiles or base in self._unique:
            return base
        near = telling_neighbour(self.tiles, h)
        if near is None:
            return base
        return self.w["beside"].format(place=base, other=self._base(near))

    def hexes(self, hexes) -> str:
        return self.w["or"].join(self.hex(h) for h in hexes)

    # --- corners and sides ---------------------------------------------------------------------------
    def _piece(self, owner_kind) -> str:
        player, kind = owner_kind[0], owner_kind[1]
        return self.w["piece"].format(player=self.player_name(player), piece=self.word(kind))

    def vertex(self, v) -> str:
        v = _spot(v)
        if v in self.buildings:
            return self._piece(self.buildings[v])
        land = [h for h in self._land_first(v) if self.tiles[h].is_land]
        if not land:
            return self.w["corner_sea"]
        names = [self._base(h) for h in land]
        return self.w["corner"].format(hexes=self.w["comma"].join(names[:-1]) + self.w["and"] + names[-1]
                                       if len(names) > 1 else names[0])

    def edge(self, e) -> str:
        e = _spot(e)
        if e in self.pieces:
            return self._piece(self.pieces[e])
        a, b = e
        land = [h for h in self._land_first(e) if self.tiles[h].is_land]
        if len(land) == 2:
            return self.w["side"].format(a=self._base(land[0]), b=self._base(land[1]))
        if not land:
            return self.w["lane"]
        # a coast: the land hex, and a land hex at one of its ends to tell which of its coasts
        ends = {h for v in geo.edge_vertices(e) for h in v} - {a, b}
        by = [h for h in self._land_first(ends) if self.tiles[h].is_land]
        if by:
            return self.w["coast_by"].format(a=self._base(land[0]), b=self._base(by[0]))
        return self.w["coast"].format(a=self._base(land[0]))

    def spot(self, value: Any) -> str:
        """Any spot: a hex, a corner (three hexes) or a side (two)."""
        s = _spot(value)
        if s and isinstance(s[0], tuple):
            return self.vertex(s) if len(s) == 3 else self.edge(s)
        return self.hex(s)


STAR_WORDS = {
    "en": {"planet": "the {number} {resource} planet", "planet_blank": "the {resource} planet",
           "hidden": "a face-down {resource} planet", "station": "the {alien} station", "space": "open space",
           "site": "the colony site between {a} and {b}", "piece": "{player}'s {piece}", "or": " or "},
    "ja": {"planet": "{number}の{resource}の惑星", "planet_blank": "{resource}の惑星",
           "hidden": "裏向きの{resource}の惑星", "station": "{alien}のステーション", "space": "宇宙空間",
           "site": "{a}と{b}の間のコロニー地点", "piece": "{player}の{piece}", "or": "か"},
}


class StarPlaces:
    """Starfarers: planets by number and resource, stations by their aliens, colony sites by their two planets
    (or the colony standing there) -- never coordinates."""

    def __init__(self, board, lang: str, word: Callable[[str], str], player_name: PlayerName,
                 buildings: Mapping | None = None):
        self.board, self.word, self.player_name = board, word, player_name
        self.buildings = buildings or {}
        self.w = STAR_WORDS.get(lang, STAR_WORDS["en"])

    def hex(self, h) -> str:
        h = _spot(h)
        planet = self.board.planets.get(h)
        if planet is not None:
            resource = self.word(planet.resource)
            if planet.hidden:
                return self.w["hidden"].format(resource=resource)
            if planet.number is not None:
                return self.w["planet"].format(number=planet.number, resource=resource)
            return self.w["planet_blank"].format(resource=resource)
        if h in self.board.stations:
            return self.w["station"].format(alien=self.word(self.board.stations[h]))
        return self.w["space"]

    def hexes(self, hexes) -> str:
        return self.w["or"].join(self.hex(h) for h in hexes)

    def edge(self, e) -> str:
        e = _spot(e)
        there = self.buildings.get(e)
        if there is not None:
            return self.w["piece"].format(player=self.player_name(there[0]), piece=self.word(there[1]))
        return self.w["site"].format(a=self.hex(e[0]), b=self.hex(e[1]))

    vertex = edge

    def spot(self, value: Any) -> str:
        s = _spot(value)
        return self.edge(s) if s and isinstance(s[0], tuple) else self.hex(s)
