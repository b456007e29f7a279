"""The High Tide scenario (Catan book p. 85; seed ``002``), played with Seafarers, 3-6 players.

Phases (``high_tide.phase`` in the replay JSON):

``normal``
    Seafarers as usual; nobody wins by points.  The first player to reach ``leader_vp`` (10; the
    8-point variant sets 8) becomes the *leader*; the turn in which that happens finishes as normal.
``dike_round``
    One round, starting with the player left of the leader: dikes may now be built.
``high_tide``
    Rounds starting left of the leader again.  After the production of a roll other than 7 the
    roller picks one land hex carrying the number (``flood_choices``; a ``flood`` event records the
    choice; with ``flood_all`` every such hex floods at once).  A dike on it is removed instead;
    otherwise it becomes sea and loses its token, and every road, settlement and city that now
    touches only sea sinks back to its owner (ships sail on).  The game ends when the leader
    finishes their 3rd turn of these rounds with 4 or 6 players, their 4th with 3 or 5.
``spring_tide`` (variant)
    After the high-tide rounds, the same without dike building, until at most 7 land hexes remain
    (11 with 5-6 players), desert included; the game ends at once when that happens.
``ended``
    Ranking by VP (sunk pieces no longer count: they are off the board), then by resource cards.

Decisions the book leaves open (docs/high-tide.md, to be checked against the printed book):

- dike cards: ``dikes_per_player`` (default 3) at ``dike_cost`` (default 1 brick + 1 lumber);
  a dike goes on any land hex without one, on its owner's turn, from the dike round on, never in
  the special building phase or in spring-tide rounds; a dike that holds back a flood is used up.
- a robber on a hex that floods is washed to a desert that is still land (the lowest one), or off
  the board when none is left (the next 7 or knight may put it on any land hex);
- a harbor whose land hex floods is gone (its edge is sea on both sides); buildings keep any
  other harbor;
- the leader is whoever reaches ``leader_vp`` first, checked after each event with the player
  whose turn it is first; if that is not the player whose turn it is, the dike round still starts
  left of the leader.
"""

from __future__ import annotations


from . import GAMES
from . import events as ev
from .board import Board, Tile, telling_neighbour
from .errors import IllegalAction, MalformedEvent
from .game import GAME_OVER, GOLD, MAIN, SPECIAL_BUILD, SETUP_ROAD, SETUP_SETTLEMENT
from .geometry import Hex, Vertex
from .outcome import FloodedHex, SunkPiece
from .refusals import Refusal, json_spot
from .seafarers import SeafarersGame, SeafarersOptions
from .values import Fresh, Value

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any, Mapping

FLOOD = "flood"
NORMAL, DIKE_ROUND, HIGH_TIDE, SPRING_TIDE, ENDED = "normal", "dike_round", "high_tide", "spring_tide", "ended"
FLOODING_PHASES = (HIGH_TIDE, SPRING_TIDE)


class HighTideOptions(SeafarersOptions, frozen=True):
    """High Tide options: the book's variants and the dike cards (see the module docstring)."""

    leader_vp: int = 10                 # variant 1: 8
    robber_to_desert: bool = False      # variant 2: the robber goes to the desert for the high tide and stays
    flood_all: bool = False             # variant 3: every land hex with the number floods
    spring_tide: bool = False           # variant 4
    dikes_per_player: int = 3
    dike_cost: tuple[tuple[str, int], ...] = (("brick", 1), ("lumber", 1))

    @classmethod
    def from_json(cls, data, extra=()):
        data = dict(data or {})
        cost = data.pop("dike_cost", None)
        options = super().from_json(data, extra=(*extra, "dike_cost"))
        if cost is not None:
            from .board import RESOURCES
            cards = ev.cards(cost, RESOURCES, "option dike_cost")
            object.__setattr__(options, "dike_cost", tuple(sorted(cards.items())))
        if options.leader_vp < 3:
            raise MalformedEvent(f"option leader_vp must be at least 3, got {options.leader_vp}")
        return options


class Tide(Value):
    """The scenario's own state (kept in ``State.extra['tide']``, copied with the state)."""

    phase: str = NORMAL
    leader: int | None = None
    round: int = 0
    leader_turns_done: int = 0           # leader turns finished in the high-tide rounds
    flooded: list[Hex] = Fresh(list)
    dikes: dict[Hex, int] = Fresh(dict)   # standing dikes and their builders
    dikes_left: list[int] = Fresh(list)
    sunk: list[dict[str, int]] = Fresh(list)
    flood_choices: tuple[Hex, ...] = ()  # a flood the roller still has to choose
    ranking: tuple[int, ...] = ()


class HighTideGame(SeafarersGame):
    """High Tide (record game name ``"high-tide"``)."""

    name = "high-tide"
    options_class = HighTideOptions

    def __init__(self, board, players, options=None):
        super().__init__(board, players, options)
        self.state.extra["tide"] = Tide(dikes_left=[self.options.dikes_per_player] * players,
                                        sunk=[{"settlements": 0, "cities": 0, "roads": 0} for _ in range(players)])

    @property
    def tide(self) -> Tide:
        return self.state.extra["tide"]

    @property
    def leader_turns(self) -> int:
        """High-tide turns the leader plays: 3 with 4 or 6 players, 4 with 3 or 5."""
        return 3 if self.n_players in (4, 6) else 4

    @property
    def spring_tide_land(self) -> int:
        return 11 if self.n_players >= 5 else 7

    def waiting_for(self) -> int | None:
        if self.state.phase == FLOOD:
            return self.state.turn_player
        return super().waiting_for()

    # --- set-up: no initial settlement on an islet -----------------------------------------------
    def _initial_settlement_problem(self, v: Vertex) -> Refusal | None:
        islets = [h for h in self.board.vertex_land[v] if self.board.tiles[h].islet]
        if islets:
            return Refusal("islet_setup", vertex=json_spot(v), islet=list(islets[0]))
        return None

    # --- dikes ---------------------------------------------------------------------------------------
    def buildable_pieces(self) -> tuple[str, ...]:
        return (*super().buildable_pieces(), "dike")

    @property
    def costs(self):
        return {**SeafarersGame.costs, "dike": dict(self.options.dike_cost)}

    def _build(self, player: int, piece: str, at: Any) -> dict[str, Any]:
        if piece != "dike":
            return super()._build(player, piece, at)
        s, tide = self.state, self.tide
        h = ev.hex_(at, "at")
        self._require(s.phase != SPECIAL_BUILD, "dike_special_build")
        if tide.phase not in (DIKE_ROUND, HIGH_TIDE):
            self._require(False, "dike_spring_tide" if tide.phase == SPRING_TIDE else "dike_too_early")
        self._require(tide.dikes_left[player] > 0, "no_dike_card", player=player)
        self._require(self.board.is_land(h), "dike_off_land", hex=list(h))
        self._require(h not in tide.dikes, "dike_there", hex=list(h))
        self._pay(player, self.costs["dike"], "dike")
        tide.dikes[h] = player
        tide.dikes_left[player] = max(0, tide.dikes_left[player] - 1)
        return {"player": player}

    def build_problem(self, player: int, piece: str) -> Refusal | None:
        """As the base game's, but a dike is first refused for its time, as ``build`` refuses it: before the dike
        round (``dike_too_early``), in the spring tide, in the special building phase, with no dike card left --
        not "cannot pay" (a first evening read that as "I need brick and lumber"; playtest s10)."""
        if piece == "dike":
            s, tide = self.state, self.tide
            if s.phase == SPECIAL_BUILD:
                return Refusal("dike_special_build")
            if tide.phase not in (DIKE_ROUND, HIGH_TIDE):
                return Refusal("dike_spring_tide" if tide.phase == SPRING_TIDE else "dike_too_early")
            if tide.dikes_left[player] <= 0:
                return Refusal("no_dike_card", player=player)
        return super().build_problem(player, piece)

    def legal_dike_spots(self, player: int) -> list[Hex]:
        """The land hexes where ``player`` may build a dike now (the checks of a dike's ``build`` that do not
        depend on the hand): none before the dike round, in the special building phase, in the spring tide or
        without a dike card left.  For the app, which offers only these and holds no rules."""
        s, tide = self.state, self.tide
        if s.phase == SPECIAL_BUILD or tide.phase not in (DIKE_ROUND, HIGH_TIDE) or tide.dikes_left[player] <= 0:
            return []
        return sorted(h for h in self.board.land if h not in tide.dikes)

    # --- the tide --------------------------------------------------------------------------------------
    def _production(self, number: int) -> dict[str, Any]:
        s, tide = self.state, self.tide
        candidates: tuple[Hex, ...] = ()
        if tide.phase in FLOODING_PHASES:
            candidates = tuple(h for h in self.board.hexes_by_number.get(number, ()))
            if candidates and not self.options.flood_all:
                tide.flood_choices = candidates
                s.phase = FLOOD  # gold choices, if any, come first and return here
        fields = super()._production(number)
        if candidates and self.options.flood_all:
            fields.update(self._flood(candidates))
        elif candidates:
            fields["flood_choices"] = candidates
        return fields

    def _on_flood(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The roller names the land hex the tide takes (right after the roll, or after gold choices)."""
        s, tide = self.state, self.tide
        h = ev.hex_(ev.require(event, "at"), "at")
        if not tide.flood_choices:
            raise IllegalAction(Refusal("no_flood_owed"))
        if not self.board.is_land(h):
            raise IllegalAction(Refusal("flood_off_land", hex=list(h)))
        self._require(h in tide.flood_choices, "flood_wrong_hex", choices=[list(c) for c in tide.flood_choices],
                      hex=list(h))

        if s.phase == FLOOD:
            s.phase = MAIN
        elif s.phase == GOLD:
            s.gold_return = MAIN
        return {"player": s.turn_player, **self._flood((h,))}

    def _flood(self, hexes: tuple[Hex, ...]) -> dict[str, Any]:
        """Flood ``hexes`` (dikes hold once), sink what touches only sea, recompute routes and the end."""
        s, tide = self.state, self.tide
        tide.flood_choices = ()
        fields: dict[str, Any] = {}
        taken, held = [], []
        for h in hexes:
            if h in tide.dikes:
                del tide.dikes[h]
                held.append(h)
            else:
                taken.append(h)
        if held:  # (with flood-all, several dikes may hold at one roll: it kept the last only)
            fields["dike_removed"] = held[0]
            fields["dikes_removed"] = tuple(held)
            fields["dikes"] = flood_names(s.board, held)  # named as the floods are (the land stays)
        if taken:
            fields["flooded"] = taken[0]
            fields["floods"] = flood_names(s.board, taken)  # read before the flood: the hexes as they were
            s.board = flooded_board(s.board, taken)
            tide.flooded.extend(taken)
            if s.robber in taken:
                deserts = sorted(h for h in s.board.land if s.board.tiles[h].terrain == "desert")
                s.robber = deserts[0] if deserts else None
            fields["sunk"] = self._sink()
            fields["awards"] = self._update_longest_route()
        if tide.phase == SPRING_TIDE and len(s.board.land) <= self.spring_tide_land:
            fields.update(self._end())
        return fields

    def _sink(self) -> tuple[SunkPiece, ...]:
        s, tide = self.state, self.tide
        sunk = []
        for v in sorted(v for v in s.buildings if not any(s.board.is_land(h) for h in v)):
            player, kind = s.buildings.pop(v)
            tide.sunk[player][kind + "s" if kind != "city" else "cities"] += 1
            sunk.append(SunkPiece(player, kind, v))
        for e in sorted(e for e, (_, kind) in s.pieces.items() if kind == "road" and not s.board.edge_is_land(e)):
            player, kind = s.pieces.pop(e)
            tide.sunk[player]["roads"] += 1
            sunk.append(SunkPiece(player, kind, e))
        return tuple(sunk)

    # --- phases and the end ------------------------------------------------------------------------
    def _on_end_turn(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s, tide = self.state, self.tide
        self._require_phase(MAIN)
        ending = s.turn_player
        fields: dict[str, Any] = {"player": ending}
        if tide.phase == NORMAL and tide.leader is not None:
            tide.phase, tide.round = DIKE_ROUND, 1
            fields["phase"] = DIKE_ROUND
            s.turn_player = tide.leader  # the dike round starts left of the leader
        elif ending == tide.leader and tide.phase in (DIKE_ROUND, HIGH_TIDE, SPRING_TIDE):
            if tide.phase == HIGH_TIDE:
                tide.leader_turns_done += 1
            if tide.phase == DIKE_ROUND:
                tide.phase, tide.round = HIGH_TIDE, 1
                fields["phase"] = HIGH_TIDE
                if self.options.robber_to_desert:
                    deserts = sorted(h for h in self.board.land if self.board.tiles[h].terrain == "desert")
                    s.robber = deserts[0] if deserts else s.robber
            elif tide.phase == HIGH_TIDE and tide.leader_turns_done >= self.leader_turns:
                if not self.options.spring_tide:
                    fields.update(self._end())
                    return fields
                if len(s.board.land) <= self.spring_tide_land:
                    fields.update(self._end())  # the spring tide's end is already reached
                    return fields
                tide.phase, tide.round = SPRING_TIDE, 1
                fields["phase"] = SPRING_TIDE
            else:
                tide.round += 1
        self._start_next_turn()
        return fields

    def _end(self) -> dict[str, Any]:
        s, tide = self.state, self.tide
        tide.phase = ENDED
        tide.flood_choices = ()
        tide.ranking = self.ranking()
        s.winner = tide.ranking[0]
        s.phase = GAME_OVER
        fields = {"phase": ENDED, "winner": s.winner, "ranking": tide.ranking, "places": self.places()}
        winners = self.winners()
        if len(winners) > 1:
            fields["winners"] = winners
        return fields

    def place_key(self, player: int) -> tuple[int, ...]:
        """Most VP, a tie to the most resource cards (seed 002: the win; the same order places the others, as the
        game-over screen always showed it): players level on both share a place."""
        return (self.victory_points(player), self.state.players[player].hand.size)

    def winners(self) -> tuple[int, ...]:
        """Who won, at the end: most victory points, a tie to the most resource cards (seed 002); players level
        on both share the win (the seed says no more).  Empty before the end."""
        ranking = self.tide.ranking
        if not ranking:
            return super().winners()
        first = (self.victory_points(ranking[0]), self.state.players[ranking[0]].hand.size)
        return tuple(p for p in ranking if (self.victory_points(p), self.state.players[p].hand.size) == first)

    def _robber_kept_in_desert(self) -> bool:
        """Variant 2 (seed 002: the robber moves to the desert and *stays there*) in the high-tide rounds."""
        return self.options.robber_to_desert and self.tide.phase in (*FLOODING_PHASES, ENDED)

    def robber_hexes(self) -> tuple[Hex, ...]:
        if self._robber_kept_in_desert():
            return ()  # a 7 or knight moves the pirate, or nothing
        return super().robber_hexes()

    def _on_move_robber(self, event: Mapping[str, Any]) -> dict[str, Any]:
        if self._robber_kept_in_desert():
            to = ev.hex_(ev.require(event, "to"), "to")
            self._require(False, "robber_stays_in_desert", hex=list(to))  # an umpire may still force it
        return super()._on_move_robber(event)

    def _after_event(self, before) -> dict[str, Any]:
        """No win by points: the first to ``leader_vp`` becomes the leader."""
        s, tide = self.state, self.tide
        if tide.leader is not None or s.phase in (SETUP_SETTLEMENT, SETUP_ROAD, GAME_OVER):
            return {}
        order = self._in_turn_order(range(self.n_players))
        for p in order:
            if self.victory_points(p) >= self.options.leader_vp:
                tide.leader = p
                return {"leader": p}
        return {}

    # --- the replay view ---------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        out = super().summary()
        tide = self.tide
        left = self.leader_turns - tide.leader_turns_done if tide.phase != SPRING_TIDE else 0
        out["high_tide"] = {
            "phase": tide.phase,
            "round": tide.round,
            "leader": tide.leader,
            "leader_turns_left": left if tide.phase != ENDED else 0,
            "flooded": [list(h) for h in tide.flooded],
            "dikes": [list(h) for h in sorted(tide.dikes)],
            "dikes_left": list(tide.dikes_left),
            "sunk": [dict(x) for x in tide.sunk],
            "land_hexes": len(self.board.land),
            "flood_choices": [list(h) for h in tide.flood_choices],
        }
        if tide.ranking:
            out["high_tide"]["ranking"] = list(tide.ranking)
        return out


def flood_names(board: Board, hexes) -> tuple[FloodedHex, ...]:
    """``hexes`` of ``board`` (the board before the flood: the one the roller was offered) as the screen and the
    voice name them: terrain, number, and the neighbour that tells a hex apart from another with the same terrain
    and number (``telling_neighbour``, the rule the app's place words follow)."""
    named = []
    for h in hexes:
        tile = board.tiles[h]
        near = telling_neighbour(board.tiles, h)
        beside = None if near is None else (board.tiles[near].terrain, board.tiles[near].number)
        named.append(FloodedHex(h, tile.terrain, tile.number, beside))
    return tuple(named)


def flooded_board(board: Board, hexes) -> Board:
    """The board after the tide took ``hexes``: sea without a token; harbors with no land left go."""
    tiles = dict(board.tiles)
    for h in hexes:
        tiles[h] = Tile("sea")
    land = {h for h, t in tiles.items() if t.is_land}
    harbors = {e: t for e, t in board.harbors.items() if e[0] in land or e[1] in land}
    return Board(tiles, harbors, board.robber, board.pirate)


GAMES["high-tide"] = HighTideGame
