"""Seafarers over the base game: ships, sea lanes and coasts, the pirate, gold fields, 3-6 players.

What changes against the base game (seed ``004``, digest §2):

- A ship (lumber + wool, 15 per player) lies on an edge with sea on at least one side: a sea lane
  (sea|sea) or a coast (land|sea).  One piece per edge, so a coast holds a road or a ship.
- A ship links to its owner's settlement/city or to another of their ships (branches allowed),
  never directly to a road: the change needs the owner's building on that corner.
- Once per turn the owner may move one ship that ends an *open* route (at one of its ends there is
  neither the owner's building nor another of their ships), but not a ship built in their own turn
  (one built in the 5-6 special building phase, outside their turn, may move).  A
  route joining two of the owner's buildings is closed, even when an opponent later builds in its
  middle: its ships keep a ship or building at both ends, so none of them counts as an end.
- The pirate stands on a sea hex: no ship may be placed on, or moved away from, its six edges.  It
  may start on the sea frame but moves only to other sea hexes, never onto the frame (hexes marked
  ``"frame": true``).  On a 7 or a knight exactly one of pirate and robber moves; the robber never
  goes to sea; the pirate's mover robs a player with a ship on an edge of its new hex.
- Gold fields: the outcome lists ``gold_owed``; each owed player answers with a ``gold`` event naming
  the cards (core :meth:`Game._on_gold`; the bank's stock limits the choice).
- Longest trade route: roads + ships, switching only at an own building (the one route search in
  :mod:`.routes`), recomputed after every piece placed, moved or lost by anyone.
- Road building: two free pieces, roads or ships in any mix.
- 5 or 6 players: the extension's bank, deck and special building phase (:mod:`.extension`).
"""

from __future__ import annotations


from . import GAMES
from . import events as ev
from . import extension
from .errors import IllegalAction
from .game import COSTS, MAIN, MOVE_ROBBER, SPECIAL_BUILD, Game, Options
from .geometry import Edge, Hex, hex_edges
from .refusals import Refusal, json_spot

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any, Mapping


class SeafarersOptions(Options, frozen=True):
    """Seafarers table options.  ``use_robber: false`` for scenarios with the pirate alone."""

    use_robber: bool = True


class SeafarersGame(Game):
    """Seafarers for 3-6 players (record game name ``"seafarers"``)."""

    name = "seafarers"
    min_players, max_players = 3, 6
    options_class = SeafarersOptions
    costs = {**COSTS, "ship": {"lumber": 1, "wool": 1}}
    piece_limits = {**Game.piece_limits, "ship": 15}
    after_event_unneeded = Game.after_event_unneeded | {"move_pirate"}  # (a moved ship can lengthen a route)
    # A scenario's map places its own robber (seed 004, 4(2)), beside the board without a desert: High Tide's too.
    robber_starts_on_desert = False

    def __init__(self, board, players, options=None):
        if players >= 5:
            self.bank_size = extension.BANK_SIZE
            self.deck_composition = extension.DECK
        super().__init__(board, players, options)
        self.state.extra.update(new_ships=(), ship_moved=False)

    # --- pieces ------------------------------------------------------------------------------------
    def buildable_pieces(self) -> tuple[str, ...]:
        return ("road", "settlement", "city", "ship")

    def link_pieces(self) -> tuple[str, ...]:
        return ("road", "ship")

    def _link_problem(self, player: int, piece: str, e: Edge, *, touching=None, moving: Edge | None = None):
        if piece == "road":
            return self._road_problem(player, e, touching=touching)
        return self._ship_problem(player, e, touching=touching, moving=moving)

    def pirate_edges(self) -> frozenset[Edge]:
        """The six edges around the pirate, where no ship may be placed or moved from."""
        pirate = self.state.pirate
        return frozenset(hex_edges(pirate)) if pirate is not None else frozenset()

    def _ship_problem(self, player: int, e: Edge, *, touching=None, moving: Edge | None = None) -> Refusal | None:
        """Why a ship of ``player`` cannot go on ``e`` (``moving``: the ship being moved, already lifted)."""
        s = self.state
        if e not in self.board.edges or not self.board.edge_is_water(e):
            return Refusal("ship_off_water", edge=json_spot(e))
        if e in s.pieces and e != moving:
            return Refusal("edge_taken", edge=json_spot(e))
        if e in self.pirate_edges():
            return Refusal("ship_by_pirate", edge=json_spot(e), pirate=list(s.pirate))
        ends = self.board.edge_vertices[e]
        if touching is not None:
            return None if touching in ends else Refusal("setup_link_not_touching", piece="ship", edge=json_spot(e))
        for v in ends:
            owner = s.buildings.get(v)
            if owner is not None:
                if owner[0] == player:
                    return None
                continue  # an opponent's building: no connection through this corner
            if any(x != e and x != moving and s.pieces.get(x) == (player, "ship") for x in self.board.vertex_edges[v]):
                return None
        return Refusal("ship_not_connected", edge=json_spot(e), player=player)

    def legal_ship_spots(self, player: int) -> list[Edge]:
        return sorted(e for e in self.board.edges if self._ship_problem(player, e) is None)

    def movable_ships(self, player: int) -> list[Edge]:
        """Ships the player may move now: ends of open routes, not built this turn, not by the pirate."""
        s = self.state
        if s.extra["ship_moved"]:
            return []
        return sorted(e for e, owner in s.pieces.items()
                      if owner == (player, "ship") and self._ship_move_problem(player, e) is None)

    def ship_move_problem(self, player: int, e: Edge | None = None) -> Refusal | None:
        """Why ``player`` cannot move the ship on ``e`` now (``e`` None: any ship), as the refusal a
        ``move_ship`` from there would get, or None.  For the app's Move ship button, which holds no rules."""
        if self.state.extra["ship_moved"]:
            return Refusal("ship_already_moved", player=player)
        if e is not None:
            return self._ship_move_problem(player, e)
        return None if self.movable_ships(player) else Refusal("no_movable_ship", player=player)

    def ship_move_targets(self, player: int, source: Edge) -> list[Edge]:
        """Where ``player``'s ship on ``source``, lifted, may go: the placing rules without that ship (it cannot
        hold itself up) and not back where it lay."""
        return sorted(e for e in self.board.edges
                      if e != source and self._ship_problem(player, e, moving=source) is None)

    def _ship_move_problem(self, player: int, e: Edge) -> Refusal | None:
        s = self.state
        if s.pieces.get(e) != (player, "ship"):
            return Refusal("no_ship_there", player=player, edge=json_spot(e))
        if e in s.extra["new_ships"]:
            return Refusal("ship_new", edge=json_spot(e))
        if e in self.pirate_edges():
            return Refusal("ship_pirate_stuck", edge=json_spot(e), pirate=list(s.pirate))
        if not self._ends_open_route(player, e):
            return Refusal("ship_not_route_end", edge=json_spot(e))
        return None

    def _ends_open_route(self, player: int, e: Edge) -> bool:
        s = self.state
        for v in self.board.edge_vertices[e]:
            if s.buildings.get(v, (None,))[0] == player:
                continue
            if not any(x != e and s.pieces.get(x) == (player, "ship") for x in self.board.vertex_edges[v]):
                return True
        return False

    def _build(self, player: int, piece: str, at: Any) -> dict[str, Any]:
        fields = super()._build(player, piece, at)
        if piece == "ship" and self.state.phase != SPECIAL_BUILD:
            # only a ship built in its owner's own turn stays put (seed 004); the 5-6 special building
            # phase is building outside one's turn (seed 002), so its ships may move in the next turn
            self.state.extra["new_ships"] += (ev.edge(at),)
        return fields

    def _on_move_ship(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Move the end ship of an open route (once per turn, not one built this turn)."""
        s = self.state
        player = ev.player(event, self.n_players)
        source = ev.edge(ev.require(event, "from"), "from")
        target = ev.edge(ev.require(event, "to"), "to")
        self._require_phase(MAIN)
        self._require_turn(player)
        self._require(not s.extra["ship_moved"], "ship_already_moved", player=player)
        problem = self._ship_move_problem(player, source)
        if s.pieces.get(source) != (player, "ship"):
            raise IllegalAction(problem)  # not even an umpire can move a ship that is not there
        self._require_problem(problem)
        if target == source:
            raise IllegalAction(Refusal("ship_move_same", edge=json_spot(source)))
        self._require_problem(self._ship_problem(player, target, moving=source))
        del s.pieces[source]
        s.pieces[target] = (player, "ship")
        s.extra["ship_moved"] = True
        return {"player": player, "awards": self._update_longest_route()}

    def _start_next_turn(self) -> None:
        super()._start_next_turn()
        self.state.extra["new_ships"] = ()
        self.state.extra["ship_moved"] = False

    # --- robber and pirate ---------------------------------------------------------------------
    def robber_hexes(self) -> tuple[Hex, ...]:
        return super().robber_hexes() if self.options.use_robber else ()

    def pirate_hexes(self) -> tuple[Hex, ...]:
        """Where the pirate may move: any sea hex of the board but its own and the frame's (the seed:
        it moves to another sea *tile*, never to land or the sea frame); none if not in play."""
        s = self.state
        if s.pirate is None:
            return ()
        return tuple(sorted(h for h in self.board.sea if h != s.pirate and not self.board.tiles[h].frame))

    def _mover_targets(self) -> dict[str, Any]:
        return {"robber_hexes": self.robber_hexes(), "pirate_hexes": self.pirate_hexes()}

    def _on_move_robber(self, event: Mapping[str, Any]) -> dict[str, Any]:
        if not self.options.use_robber:
            raise IllegalAction(Refusal("no_robber_in_game"))
        to = ev.hex_(ev.require(event, "to"), "to")
        self._require(to not in self.board.sea, "robber_to_sea", hex=list(to))
        return super()._on_move_robber(event)

    def _on_move_pirate(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The pirate moves instead of the robber; its mover robs a player with a ship by its hex."""
        s = self.state
        to = ev.hex_(ev.require(event, "to"), "to")
        self._require_phase(MOVE_ROBBER)
        if s.pirate is None and not self._forced:
            raise IllegalAction(Refusal("no_pirate"))
        self._require(to in self.board.sea, "pirate_off_sea", hex=list(to))
        self._require(not self.board.tiles[to].frame if to in self.board.sea else True, "pirate_to_frame", hex=list(to))
        self._require(to != s.pirate, "pirate_must_move", hex=list(to))

        s.pirate = to
        fields: dict[str, Any] = {"player": s.turn_player, "pirate_moved": to}
        if s.phase != MOVE_ROBBER:
            return fields
        return {**fields, **self._after_move(self.pirate_victims(to, s.turn_player))}

    def victims_by_hex(self) -> dict[Hex, tuple[int, ...]]:
        out = super().victims_by_hex()
        if self.state.phase == MOVE_ROBBER:
            thief = self.state.turn_player
            out.update((h, self.pirate_victims(h, thief)) for h in self.pirate_hexes())
        return out

    def pirate_victims(self, hex_: Hex, thief: int) -> tuple[int, ...]:
        """Players with a ship on an edge of ``hex_`` and at least one card, other than the thief."""
        s = self.state
        owners = {s.pieces[e][0] for e in hex_edges(hex_) if s.pieces.get(e, (None, None))[1] == "ship"}
        return tuple(sorted(p for p in owners if p != thief and s.players[p].hand.size > 0))

    # --- the replay view ---------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        out = super().summary()
        for p, entry in enumerate(out["players"]):
            entry["longest_route"] = self.state.route_lengths[p]
            entry["ships"] = self.piece_limits["ship"] - self.pieces_left(p, "ship")
        out["pirate"] = list(self.state.pirate) if self.state.pirate is not None else None
        return out


GAMES["seafarers"] = SeafarersGame
