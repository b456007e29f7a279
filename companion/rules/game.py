"""The base game (3-4 players; 5-6 with the extension) as a state you can push events onto and pop.

Modelled on python-chess's ``Board``: :class:`Game` holds the position (pieces, hands, robber,
turn, awards), ``push(event)`` applies one record event and returns its :class:`Outcome`, ``pop()``
takes it back, ``copy()`` gives an independent game.  Events are the JSON objects of the record
format (docs/record-format.md); the rules core does no I/O.

Variants subclass :class:`Game` and override a few hooks (see ``companion/rules/seafarers.py``).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping

from . import events as ev
from .board import RESOURCES, Board
from .errors import IllegalAction, MalformedEvent
from .geometry import Edge, Hex, Vertex, hex_vertices
from .hands import Hand
from .history import GAME_OVER, EventHistory
from .outcome import AwardChange, Outcome
from .production import Production, claims, owed, pay
from .refusals import NO_SUCH_PLACE, Breach, Refusal, json_spot
from .routes import memo_longest_route
from .values import Fresh, Value

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any

COSTS: dict[str, dict[str, int]] = {
    "road": {"lumber": 1, "brick": 1},
    "settlement": {"lumber": 1, "brick": 1, "grain": 1, "wool": 1},
    "city": {"ore": 3, "grain": 2},
    "development": {"grain": 1, "wool": 1, "ore": 1},
}
DEVELOPMENT_CARDS = ("knight", "victory_point", "road_building", "year_of_plenty", "monopoly")
BUILDING_WEIGHTS = {"settlement": 1, "city": 2}
_NOT_KEPT = object()

SETUP_SETTLEMENT = "setup_settlement"
SETUP_ROAD = "setup_road"
ROLL = "roll"
DISCARD = "discard"
MOVE_ROBBER = "move_robber"
STEAL = "steal"
MAIN = "main"
GOLD = "gold"                      # players owed gold-field choices name them
SPECIAL_BUILD = "special_build"    # 5-6 players: the others may build before the next roll
_TURN_PLAYER_PHASES = frozenset((ROLL, MAIN, MOVE_ROBBER, STEAL))  # the turn's player acts
_SETUP_PHASES = frozenset((SETUP_SETTLEMENT, SETUP_ROAD))
# Game._route_lengths's last complete input and its answer: the pieces' edges and their (player, kind), the
# buildings' corners and their (player, kind), each side of a building's corner -> its ((corner, owner), ...),
# and per player: blocked corners, own corners, pieces as (edge, kind), route length.
_RouteInputs = namedtuple("_RouteInputs", "edges pieces corners owners sides blocked own mine lengths")


class Options(Value, frozen=True):
    """Table options (the record's ``options`` object).  Unknown keys are refused by name."""

    vp_target: int = 10
    discard_limit: int = 7            # a 7 makes players holding MORE than this discard half
    win_on_own_turn_only: bool = True
    separate_red_numbers: bool = False  # only used when generating a board

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, extra: tuple[str, ...] = ()) -> "Options":
        data = dict(data or {})
        known = set(cls._fields)
        unknown = sorted(k for k in data if k not in known and k not in extra)
        if unknown:
            raise MalformedEvent(f"unknown option(s) {', '.join(unknown)} (known: {', '.join(sorted(known | set(extra)))})")
        values = {}
        for k in known:
            if k in data:
                default = getattr(cls, k)
                if isinstance(default, bool) and not isinstance(data[k], bool):
                    raise MalformedEvent(f"option {k} must be true or false, got {data[k]!r}")
                if isinstance(default, int) and not isinstance(default, bool):
                    ev.integer(data[k], f"option {k}")
                values[k] = data[k]
        return cls(**values)


class PlayerState(Value):
    hand: Hand = Fresh(Hand)
    dev: dict[str, int] = Fresh(dict)       # development cards held, known kinds
    dev_unknown: int = 0                                       # held, kind unseen
    dev_new: dict[str, int] = Fresh(dict)    # bought this turn (subset of the above)
    dev_new_unknown: int = 0
    knights: int = 0
    vp_revealed: int = 0                                       # victory-point cards shown to the table

    def copy(self) -> "PlayerState":
        # Every field set one by one in field order, as __init__ does (see State.copy).
        new = object.__new__(PlayerState)
        new.hand = self.hand.copy()
        new.dev = dict(self.dev)
        new.dev_unknown = self.dev_unknown
        new.dev_new = dict(self.dev_new)
        new.dev_new_unknown = self.dev_new_unknown
        new.knights = self.knights
        new.vp_revealed = self.vp_revealed
        return new

    @property
    def dev_count(self) -> int:
        return sum(self.dev.values()) + self.dev_unknown


class State(Value):
    """Everything that changes during a game; copied whole before each event for ``pop``."""

    board: Board                                  # the board now (High Tide floods change it)
    players: list[PlayerState]
    buildings: dict[Vertex, tuple[int, str]]
    pieces: dict[Edge, tuple[int, str]]          # roads (and ships in Seafarers)
    robber: Hex | None
    pirate: Hex | None
    bank: dict[str, int]
    deck: dict[str, int]                          # development cards left, by kind (upper bounds)
    deck_size: int
    phase: str = SETUP_SETTLEMENT
    turn_player: int = 0
    turn_number: int = 0                          # 0 during set-up, then 1, 2, ...
    setup_step: int = 0
    setup_vertex: Vertex | None = None            # the settlement the next set-up road must touch
    discards_owed: dict[int, int] = Fresh(dict)
    return_phase: str = MAIN                      # where play resumes after the robber
    steal_candidates: tuple[int, ...] = ()
    free_roads: int = 0                           # free roads (or ships) left from road building
    gold_owed: dict[int, int] = Fresh(dict)
    gold_return: str = MAIN                       # where play resumes after the gold choices
    special_queue: tuple[int, ...] = ()           # 5-6 players: who may still special-build, in order
    dev_played: bool = False
    longest_road: int | None = None
    largest_army: int | None = None
    route_lengths: list[int] = Fresh(list)
    winner: int | None = None
    last_dice: tuple[int, int] | None = None
    last_payouts: dict[int, dict[str, int]] = Fresh(dict)
    # variant state (deep-copied); every game: ``blind_steal`` while this turn's blind steal may yet be named
    # (``Game._unseen_named``). (No field of its own: a 30th attribute leaves CPython's shared key layout.)
    extra: dict[str, Any] = Fresh(dict)

    def copy(self) -> "State":
        # Every field set one by one, in field order, as __init__ does: the copy keeps the class's shared key
        # layout, which CPython 3.11's specialised attribute reads rely on.  (Filling ``new.__dict__`` in bulk
        # gave every copy a dict of its own, so a table's game -- a copy before every event -- read its state's
        # attributes the slow way: a live push and undo of a roll 116 -> 81 k instructions.)
        # tests/test_state_copy.py holds the list to State's fields.
        new = object.__new__(State)
        new.board = self.board
        new.players = [p.copy() for p in self.players]
        new.buildings = dict(self.buildings)
        new.pieces = dict(self.pieces)
        new.robber = self.robber
        new.pirate = self.pirate
        new.bank = dict(self.bank)
        new.deck = dict(self.deck)
        new.deck_size = self.deck_size
        new.phase = self.phase
        new.turn_player = self.turn_player
        new.turn_number = self.turn_number
        new.setup_step = self.setup_step
        new.setup_vertex = self.setup_vertex
        new.discards_owed = dict(self.discards_owed)
        new.return_phase = self.return_phase
        new.steal_candidates = self.steal_candidates
        new.free_roads = self.free_roads
        new.gold_owed = dict(self.gold_owed)
        new.gold_return = self.gold_return
        new.special_queue = self.special_queue
        new.dev_played = self.dev_played
        new.longest_road = self.longest_road
        new.largest_army = self.largest_army
        new.route_lengths = list(self.route_lengths)
        new.winner = self.winner
        new.last_dice = self.last_dice
        new.last_payouts = {p: dict(c) for p, c in self.last_payouts.items()}
        if self.extra:  # a variant's state (Seafarers' and High Tide's); the base game has none
            import copy

            new.extra = copy.deepcopy(self.extra)
        else:
            new.extra = {}
        return new


class Game(EventHistory):
    """A base-game position with the history of events that led to it."""

    name = "base"
    resources: tuple[str, ...] = RESOURCES
    bank_size = 19
    deck_composition: Mapping[str, int] = {"knight": 14, "victory_point": 5, "road_building": 2,
                                           "year_of_plenty": 2, "monopoly": 2}
    piece_limits: Mapping[str, int] = {"road": 15, "settlement": 5, "city": 4}
    min_players, max_players = 3, 4
    options_class = Options
    costs: Mapping[str, Mapping[str, int]] = COSTS
    outcome_class: type[Outcome] = Outcome  # a game with more to announce adds fields in a subclass
    # The robber starts on the desert (RULES.md 1; the 5-6 board: on either of its two): the app holds a game it
    # starts to that (board_problems(robber_on_desert=)); a record's board replays as written.
    robber_starts_on_desert = True

    def __init__(self, board: Board, players: int, options: Options | None = None):
        if not self.min_players <= players <= self.max_players:
            raise MalformedEvent(f"{self.name} is played by {self.min_players}-{self.max_players} players, not {players}")
        # Every attribute a game holds is set here (copied_attributes, in this order), the memos and the bank and
        # deck a 5-6 Seafarers game sets for itself included: CPython 3.11+ keeps a class's instances in one
        # shared key layout (fast reads) only for keys its first instances bring -- each new instance leaves
        # less room for more -- and a game is copied for every roll a table previews.
        self.bank_size, self.deck_composition = self.bank_size, self.deck_composition
        self.initial_board = board
        self.n_players = players
        self.options = options or self.options_class()
        self.special_building = players >= 5  # the 5-6 extension's special building phase
        self.state = State(
            board=board,
            players=[PlayerState() for _ in range(players)],
            buildings={}, pieces={},
            robber=board.robber, pirate=board.pirate,
            bank={r: self.bank_size for r in self.resources},
            deck=dict(self.deck_composition), deck_size=sum(self.deck_composition.values()),
            route_lengths=[0] * players,
        )
        self.events: list[dict[str, Any]] = []
        self.outcomes: list[Outcome] = []
        self._stack: list[State] = []
        self._warnings: list[str] = []
        self._forced = False
        self._building_vp_memo = self._claims_memo = self._resource_cache = self._route_inputs = None

    @property
    def board(self) -> Board:
        """The board as it is now (the starting board unless the tide has taken land)."""
        return self.state.board

    # --- copying and history -------------------------------------------------------------------
    # (in the order __init__ sets them)
    copied_attributes = ("bank_size", "deck_composition", "initial_board", "n_players", "options",
                         "special_building", "state", "events", "outcomes", "_stack", "_warnings", "_forced",
                         "_building_vp_memo", "_claims_memo", "_resource_cache", "_route_inputs")

    def copy(self) -> "Game":
        new = self._bare_copy()
        new.state = self.state.copy()
        new.events = list(self.events)
        new.outcomes = list(self.outcomes)
        new._stack = list(self._stack)  # states in the stack are never mutated
        return new

    corrections = ("set_hand", "remove_piece", "note")
    # the time limit too: a desk may end by time a game that its table played on to a win (the result stood at time)
    after_game_over = (*corrections, "time_limit")

    def _refuse_after_game_over(self) -> None:
        # an umpire may still force an entry
        self._require(False, "ended_by_time" if self.ended_by_time is not None else "game_over")

    # --- queries -------------------------------------------------------------------------------
    def waiting_for(self) -> int | None:
        """Whose input the table waits for now."""
        s = self.state
        if s.phase in _TURN_PLAYER_PHASES:  # (asked after every event: the usual answer first)
            return s.turn_player
        if s.phase == GAME_OVER:
            return None
        if s.phase == DISCARD:
            return min(s.discards_owed) if s.discards_owed else None
        if s.phase == GOLD:
            return self._in_turn_order(s.gold_owed)[0] if s.gold_owed else None
        if s.phase == SPECIAL_BUILD:
            return s.special_queue[0] if s.special_queue else s.turn_player
        if s.phase in (SETUP_SETTLEMENT, SETUP_ROAD):
            return self.setup_order()[s.setup_step]
        return s.turn_player

    def turn_player(self) -> int:
        """Whose turn it is: the player placing in set-up, else the player who rolls (or rolled) this turn."""
        s = self.state
        if s.phase in (SETUP_SETTLEMENT, SETUP_ROAD):
            return self.setup_order()[s.setup_step]
        return s.turn_player

    def _in_turn_order(self, players) -> list[int]:
        """``players`` ordered from the player whose turn it is, clockwise."""
        t = self.state.turn_player
        return sorted(players, key=lambda p: (p - t) % self.n_players)

    def setup_order(self) -> list[int]:
        forward = list(range(self.n_players))
        return forward + forward[::-1]

    def victory_points(self, player: int, *, hidden: bool = True) -> int:
        s = self.state
        memo = self._building_vp_memo  # (_building_vp's own first look, written out: asked after every event)
        vp = (memo[1] if memo is not None and memo[0] == s.buildings else self._building_vp())[player]
        if s.longest_road == player:
            vp += 2
        if s.largest_army == player:
            vp += 2
        if hidden:
            vp += s.players[player].dev.get("victory_point", 0)
        else:
            vp += s.players[player].vp_revealed  # shown to the table (reveal_development)
        return vp

    _building_vp_memo: tuple[dict[Vertex, tuple[int, str]], tuple[int, ...]] | None = None

    def _building_vp(self) -> tuple[int, ...]:
        """Every player's VP from settlements and cities, counted from the buildings.  Asked after every event
        (the win check) while the buildings change a few dozen times a game, so the count is kept with a copy
        of the buildings it was made from and made again whenever they differ, compared whole: equal
        buildings, equal counts, whatever event, undo or correction changed them (it cannot go stale)."""
        buildings = self.state.buildings
        memo = self._building_vp_memo
        if memo is not None and memo[0] == buildings:
            return memo[1]
        counts = [0] * self.n_players
        weights = BUILDING_WEIGHTS
        for owner, kind in buildings.values():
            counts[owner] += weights.get(kind, 0)
        self._building_vp_memo = memo = (dict(buildings), tuple(counts))
        return memo[1]

    def pieces_left(self, player: int, piece: str) -> int:
        s = self.state
        if piece in ("settlement", "city"):
            used = sum(1 for p, kind in s.buildings.values() if p == player and kind == piece)
        else:
            used = sum(1 for p, kind in s.pieces.values() if p == player and kind == piece)
        return self.piece_limits[piece] - used

    def harbor_ratios(self, player: int) -> dict[str, int]:
        """The player's maritime trade ratio for each resource."""
        harbor_at = self.state.board.harbor_at_vertex
        trades = set()
        for v, (p, _) in self.state.buildings.items():  # (each corner hashed once: every bank trade asks)
            if p == player:
                harbor = harbor_at.get(v)
                if harbor is not None:
                    trades.add(harbor)
        generic = 3 if "3:1" in trades else 4
        return {r: (2 if r in trades else generic) for r in self.resources}

    def robber_hexes(self) -> tuple[Hex, ...]:
        """Where the robber may move: any land hex but the one it stands on."""
        board, robber = self.board, self.state.robber
        land = board.land_in_order
        if robber not in board.land:
            return land
        i = land.index(robber)
        return land[:i] + land[i + 1:]

    def steal_candidates(self, hex_: Hex, thief: int) -> tuple[int, ...]:
        """Players with a building on ``hex_`` and at least one card, other than the thief."""
        s = self.state
        corners = self.board.hex_corners.get(hex_) or hex_vertices(hex_)
        victims = {s.buildings[v][0] for v in corners if v in s.buildings}
        return tuple(sorted(p for p in victims if p != thief and s.players[p].hand.size > 0))

    def victims_by_hex(self) -> dict[Hex, tuple[int, ...]]:
        """Each hex the robber may move to now, with whom its mover could rob there (:meth:`steal_candidates`
        for the player whose turn it is): what a table weighs before it taps a hex.  Empty when no move is owed.
        Seafarers adds the pirate's sea hexes with the ship owners it could rob."""
        if self.state.phase != MOVE_ROBBER:
            return {}
        thief = self.state.turn_player
        return {h: self.steal_candidates(h, thief) for h in self.robber_hexes()}

    def legal_settlement_spots(self, player: int) -> list[Vertex]:
        return sorted(v for v in self.board.land_vertices if self._settlement_problem(player, v) is None)

    def legal_settlement_spots_setup(self) -> list[Vertex]:
        return sorted(v for v in self.board.land_vertices
                      if self._settlement_problem(-1, v, setup=True) is None and self._initial_settlement_problem(v) is None)

    def legal_road_spots(self, player: int) -> list[Edge]:
        return sorted(e for e in self.board.edges if self._road_problem(player, e) is None)

    def legal_city_spots(self, player: int) -> list[Vertex]:
        """The player's settlements: where a city may go."""
        return sorted(v for v, (p, kind) in self.state.buildings.items() if p == player and kind == "settlement")

    def build_problem(self, player: int, piece: str) -> Refusal | None:
        """Why ``player`` cannot build ``piece`` now (``"development"``: buy a development card), as the
        refusal the rules would give, or None when it may be tried: no piece left, cannot pay, nowhere legal.

        For the app's build buttons, which hold no rules.  Only what holds whatever spot is chosen; a hand
        with unseen cards is given the benefit of the doubt (they may be what it takes)."""
        s = self.state
        if piece == "development":
            if s.deck_size == 0:
                return Refusal("dev_deck_empty")
        elif piece in self.piece_limits and self.pieces_left(player, piece) <= 0:
            return Refusal("no_piece_left", player=player, piece=piece)
        cost = self.costs.get(piece)
        free = piece in self.link_pieces() and s.free_roads > 0 and s.phase == MAIN
        hand = s.players[player].hand
        if cost and not free:
            if not hand.can_pay(cost):
                return Refusal("cannot_afford", player=player, cards=dict(cost), purpose=piece, holds=hand.holdings())
            if hand.unknown:
                problem = self.unseen_problem({player: cost})
                if problem is not None:
                    return problem
        spots = getattr(self, f"legal_{piece}_spots", None)
        if spots is not None and not spots(player):
            return Refusal("no_legal_spot", player=player, piece=piece)
        return None

    def play_problem(self, player: int, card: str | None = None) -> Refusal | None:
        """Why ``player`` cannot play ``card`` (None: any development card but a victory point) now, as the
        refusal the rules would give, or None when it may be tried: one already played this turn, none held,
        or only cards bought this turn.  For the app's Play buttons, offered on the player's own turn; an unseen
        card is given the benefit of the doubt (it may be the card)."""
        s = self.state
        if s.dev_played:
            return Refusal("dev_already_played", player=player)
        st = s.players[player]
        kinds = [card] if card is not None else [c for c in DEVELOPMENT_CARDS if c != "victory_point"]
        held = sum(st.dev.get(c, 0) for c in kinds) + st.dev_unknown
        bought_now = sum(st.dev_new.get(c, 0) for c in kinds) + st.dev_new_unknown
        if held > bought_now:
            return None
        if card is None:
            return Refusal("dev_all_new" if held else "dev_none_to_play", player=player)
        return Refusal("dev_bought_this_turn" if held else "dev_none", player=player, card=card)

    def revealable_vp_cards(self, player: int) -> int:
        """How many victory-point cards ``player`` may show now at most (``reveal_development``): the known
        ones not shown yet, and unseen development cards while VP cards are unaccounted for."""
        s = self.state
        st = s.players[player]
        known = st.dev.get("victory_point", 0) - st.vp_revealed
        return known + min(st.dev_unknown, s.deck.get("victory_point", 0))

    def legal_setup_links(self) -> list[tuple[str, Edge]]:
        """Set-up: the ``(piece, edge)`` pairs where the road (or ship) after the settlement just placed may go.

        Empty outside the set-up road step.  For the app, which shows these spots and holds no rules.
        """
        s = self.state
        if s.phase != SETUP_ROAD or s.setup_vertex is None:
            return []
        who = self.waiting_for()
        return sorted((piece, e) for e in self.board.vertex_edges[s.setup_vertex] for piece in self.link_pieces()
                      if self._link_problem(who, piece, e, touching=s.setup_vertex) is None)

    # --- checks ----------------------------------------------------------------------------------
    def _require(self, condition: bool, code: str, **params: Any) -> None:
        """A rule check, refused with ``code`` and ``params`` (see refusals.py): an umpire's ``forced``
        event records the breach as a warning instead."""
        if not condition:
            self._breach(Refusal(code, **params))

    def _breach(self, refusal: Refusal) -> None:
        if self._forced:
            self._warnings.append(Breach(refusal))
        else:
            raise IllegalAction(refusal)

    def _require_phase(self, *phases: str) -> None:
        if self.state.phase not in phases:
            self._require(False, "wrong_phase", phase=self.state.phase, needs=list(phases))

    def _require_turn(self, player: int) -> None:
        if player != self.state.turn_player:
            self._require(False, "out_of_turn", player=player, turn=self.state.turn_player)

    def _settlement_problem(self, player: int, v: Vertex, *, setup: bool = False) -> Refusal | None:
        s = self.state
        if v not in self.board.land_vertices:
            return Refusal("vertex_off_land", vertex=json_spot(v))
        if v in s.buildings:
            return Refusal("vertex_taken", vertex=json_spot(v))
        for n in self.board.vertex_neighbours[v]:
            if n in s.buildings:
                return Refusal("distance_rule", vertex=json_spot(v), neighbour=json_spot(n))
        if not setup and not any(s.pieces.get(e, (None,))[0] == player for e in self.board.vertex_edges[v]):
            return Refusal("settlement_not_connected", vertex=json_spot(v), player=player)
        return None

    def _road_problem(self, player: int, e: Edge, *, touching: Vertex | None = None) -> Refusal | None:
        s = self.state
        if e not in self.board.edges or not self.board.edge_is_land(e):
            return Refusal("road_off_land", edge=json_spot(e))
        if e in s.pieces:
            return Refusal("edge_taken", edge=json_spot(e))
        ends = self.board.edge_vertices[e]
        if touching is not None:
            return None if touching in ends else Refusal("setup_link_not_touching", piece="road", edge=json_spot(e))
        for v in ends:
            owner = s.buildings.get(v)
            if owner is not None:
                if owner[0] == player:
                    return None
                continue  # another player's building cuts the connection through this vertex
            if any(s.pieces.get(x, (None, None)) == (player, "road") for x in self.board.vertex_edges[v] if x != e):
                return None
        return Refusal("road_not_connected", edge=json_spot(e), player=player)

    # --- paying ----------------------------------------------------------------------------------
    def _pay(self, player: int, cards: Mapping[str, int], what: str) -> None:
        """``player`` pays ``cards`` to the bank for ``what`` (a piece or card name, ``discard``, ``trade``...)."""
        hand = self.state.players[player].hand
        if not hand.can_pay(cards):
            self._require(False, "cannot_afford", player=player, cards=dict(cards), purpose=what,
                          holds=hand.holdings())
            return  # forced: the table says it was paid; do not invent negative cards
        if hand.unknown:
            problem = self.unseen_problem({player: cards})
            if problem is not None:
                self._breach(problem)  # forced: paid as the table says, the bank kept within its cards below
        if self.state.extra and "blind_steal" in self.state.extra:
            self._unseen_named(player, hand, cards)
        hand.take(cards)  # (can_pay asked just above)
        bank = self.state.bank
        for r, n in cards.items():
            bank[r] += n
            if bank[r] > self.bank_size:
                bank[r] = self.bank_size  # (only an umpire's forced payment gets here)

    def unseen_may_be(self, resource: str) -> int:
        """How many of the table's unseen cards may be ``resource``: its cards less those in the bank and those
        known to be in hands (Starfarers: and in the supply pile).  Every card entering or leaving the bank is
        named and known counts are lower bounds, so no unseen card can be a kind this comes to 0 for."""
        s = self.state
        n = self.bank_size - s.bank.get(resource, 0)
        for st in s.players:
            n -= st.hand.known.get(resource, 0)
        return n

    def most_to_give(self, player: int, resource: str, beside: Mapping[str, int] | None = None) -> int:
        """The most cards of ``resource`` ``player`` may give up along with ``beside`` (cards of other kinds already
        chosen): :meth:`Hand.most_of`, its unseen cards no more than :meth:`unseen_may_be` allows of the kind.  A
        discard's + stops there: one more would be refused."""
        hand = self.state.players[player].hand
        known = hand.known.get(resource, 0)
        return known + min(hand.most_of(resource, beside) - known, max(0, self.unseen_may_be(resource)))

    def unseen_problem(self, gives: Mapping[int, Mapping[str, int]]) -> Refusal | None:
        """Why ``gives`` (player -> cards each gives up at once: a payment, both sides of a trade, a monopoly's
        hand-overs, a named steal) cannot be: cards beyond a hand's known ones are unseen cards, and an unseen
        card can only be of a kind some card of which is neither in the bank nor known in a hand (the bank
        holding all 19 brick, nobody's unseen card is a brick).  None when it may be; the hands' own shortfall
        (``Hand.can_pay``) is the caller's."""
        players = self.state.players
        needed: dict[str, int] = {}
        payer: dict[str, int] = {}
        for p, cards in gives.items():
            known = players[p].hand.known
            for r, n in cards.items():
                over = n - known.get(r, 0)
                if over > 0:
                    needed[r] = needed.get(r, 0) + over
                    payer.setdefault(r, p)
        for r, n in needed.items():
            free = self.unseen_may_be(r)
            if n > free:
                bank = self.state.bank.get(r, 0)
                if bank >= self.bank_size:
                    return Refusal("unseen_all_in_bank", player=payer[r], resource=r, n=self.bank_size)
                return Refusal("unseen_all_placed", player=payer[r], resource=r, n=self.bank_size, bank=bank,
                               known=self.bank_size - bank - free)
        return None

    def _unseen_named(self, player: int, hand: Hand, cards: Mapping[str, int]) -> None:
        """``player`` is about to give ``cards`` (a payment, a trade, a discard) that the hand's known cards do not
        cover by exactly one of a kind: when that one unseen card is the one ``player`` stole blind this turn
        (``State.extra["blind_steal"]``: thief, victim, and the victim's hand before and after the steal as
        (sorted known items, unseen count); set only while the thief held no other unseen card), its kind is now
        known, and the victim's hand is the hand before the steal less that card -- if it has not changed since
        (compared as the table knows it).  That comparison is sound because within the turn the victim's unseen
        count only falls (an unseen card paid), so a hand back at "after" changed by known cards alone -- cards
        added to it otherwise go on "before" and "after" alike (a roll's: :meth:`_blind_victim_paid`; a Starfarers
        supply draw's, unseen: a hand that drew and paid an unseen card read "after" again with another card in it,
        review of session 18).  Without this the victim's hand
        kept the card unseen (session 18's trial: Dan built a road with the card he stole; Aki's hand still read
        "brick 3, 2 unseen" where "brick 4, grain 1" was known). Called before ``hand.take``."""
        steal = self.state.extra["blind_steal"]
        if steal[0] != player or hand.unknown != 1:
            return
        known = hand.known
        over = [(r, n - known.get(r, 0)) for r, n in cards.items() if n > known.get(r, 0)]
        if len(over) != 1 or over[0][1] != 1:
            return  # the unseen card not given (or the payment cannot be told apart): it stays unseen
        del self.state.extra["blind_steal"]
        _thief, victim, before, after = steal
        victim_hand = self.state.players[victim].hand
        if (tuple(sorted(victim_hand.known.items())), victim_hand.unknown) != after:
            return  # the victim's hand changed since: what the steal took cannot be put back on it alone
        was = Hand(dict(before[0]), before[1])
        resource = over[0][0]
        if was.can_pay({resource: 1}):
            was.take({resource: 1})
            self.state.players[victim].hand = was

    def _blind_victim_paid(self, payouts: Mapping[int, Mapping[str, int]]) -> None:
        """A roll paid the victim of this turn's blind steal (a knight's steal before the roll): cards added commute
        with the card taken, so the hand before the steal and after it both gain them, and the thief's payment
        still names the card (``_unseen_named`` compares the victim's hand with the steal's "after")."""
        thief, victim, before, after = self.state.extra["blind_steal"]
        cards = payouts.get(victim)
        if not cards:
            return

        def plus(hand: tuple) -> tuple:
            known = dict(hand[0])
            for r, n in cards.items():
                if n:
                    known[r] = known.get(r, 0) + n
            return (tuple(sorted(known.items())), hand[1])

        self.state.extra["blind_steal"] = (thief, victim, plus(before), plus(after))

    def _receive(self, player: int, cards: Mapping[str, int]) -> None:
        s = self.state
        bank = s.bank
        for r, n in cards.items():
            if bank[r] < n:
                raise IllegalAction(Refusal("bank_short", have=bank[r], resource=r, n=n))
        for r, n in cards.items():
            bank[r] -= n
        s.players[player].hand.add(cards)

    # --- events ----------------------------------------------------------------------------------
    def _on_build(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = ev.player(event, self.n_players)
        piece = ev.name(ev.require(event, "piece"), self.buildable_pieces(), "piece")
        at = ev.require(event, "at")
        if s.phase in (SETUP_SETTLEMENT, SETUP_ROAD):
            return self._setup_build(player, piece, at)
        if s.phase == SPECIAL_BUILD:
            self._special_builder(player)
            return self._build(player, piece, at)
        if s.phase != MAIN:
            self._require_phase(MAIN)
        if player != s.turn_player:
            self._require_turn(player)
        return self._build(player, piece, at)

    def _special_builder(self, player: int) -> None:
        """5-6 players: after a turn the others build in seat order; a later builder ends earlier slots."""
        s = self.state
        if player not in s.special_queue:
            if s.special_queue:
                self._require(False, "special_build_not_queued", player=player, left=list(s.special_queue))
            else:
                self._require(False, "special_build_over", player=player)
            return
        s.special_queue = s.special_queue[s.special_queue.index(player):]

    def _close_special_build(self) -> None:
        """The next player rolls (or plays a knight): the special building phase is over."""
        s = self.state
        if s.phase == SPECIAL_BUILD:
            s.phase = ROLL
            s.special_queue = ()

    def buildable_pieces(self) -> tuple[str, ...]:
        return ("road", "settlement", "city")

    def _setup_build(self, player: int, piece: str, at: Any) -> dict[str, Any]:
        s = self.state
        expected = self.setup_order()[s.setup_step]
        if player != expected:
            raise IllegalAction(Refusal("setup_wrong_player", expected=expected, player=player))
        if s.phase == SETUP_SETTLEMENT:
            if piece != "settlement":
                raise IllegalAction(Refusal("setup_settlement_first", player=player, piece=piece))
            v = ev.vertex(at)
            self._require_problem(self._settlement_problem(player, v, setup=True) or self._initial_settlement_problem(v))
            s.buildings[v] = (player, "settlement")
            s.setup_vertex = v
            s.phase = SETUP_ROAD
            fields: dict[str, Any] = {"player": player}
            if s.setup_step >= self.n_players:  # second settlement: starting cards
                fields.update(self._starting_cards(player, v))
            fields["awards"] = self._update_longest_route()
            return fields
        if piece not in self.link_pieces():
            raise IllegalAction(Refusal("setup_road_next", player=player, piece=piece))
        e = ev.edge(at)
        self._require_problem(self._link_problem(player, piece, e, touching=s.setup_vertex))
        s.pieces[e] = (player, piece)
        s.setup_vertex = None
        s.setup_step += 1
        if s.setup_step == len(self.setup_order()):
            s.phase = ROLL
            s.turn_player = 0
            s.turn_number = 1
        else:
            s.phase = SETUP_SETTLEMENT
        return {"player": player, "awards": self._update_longest_route()}

    def link_pieces(self) -> tuple[str, ...]:
        """Pieces that lie on edges and link buildings (roads; roads and ships in Seafarers)."""
        return ("road",)

    def _link_problem(self, player: int, piece: str, e: Edge, *, touching: Vertex | None = None) -> Refusal | None:
        return self._road_problem(player, e, touching=touching)

    def _initial_settlement_problem(self, v: Vertex) -> Refusal | None:
        return None

    def _require_problem(self, problem: Refusal | None) -> None:
        if problem is not None:
            if problem.code in NO_SUCH_PLACE:  # no table put it there: forced or not, nothing to record
                raise IllegalAction(problem)
            self._breach(problem)

    def _starting_cards(self, player: int, v: Vertex) -> dict[str, Any]:
        cards: dict[str, int] = {}
        gold = 0
        for h in self.board.vertex_land[v]:
            r = self._resource_of[h]
            if r == "gold":
                gold += 1
            elif r is not None:
                cards[r] = cards.get(r, 0) + 1
        cards = {r: min(n, self.state.bank[r]) for r, n in cards.items()}
        cards = {r: n for r, n in cards.items() if n}
        self._receive(player, cards)
        fields: dict[str, Any] = {"payouts": {player: cards} if cards else {}}
        if gold:
            fields["gold_owed"] = self._owe_gold({player: gold}, SETUP_ROAD)
        return fields

    def _owe_gold(self, owed: Mapping[int, int], then: str) -> dict[int, int]:
        """Players choose their gold-field cards next; at most what the bank still holds in all."""
        s = self.state
        owed = {p: n for p, n in owed.items() if n}
        if not owed:
            return {}
        s.gold_owed = dict(owed)
        s.gold_return = then
        s.phase = GOLD
        return dict(owed)

    def _build(self, player: int, piece: str, at: Any) -> dict[str, Any]:
        s = self.state
        self._require(self.pieces_left(player, piece) > 0, "no_piece_left", player=player, piece=piece)
        if piece == "settlement":
            v = ev.vertex(at)
            self._require_problem(self._settlement_problem(player, v))
            self._pay(player, self.costs[piece], "settlement")
            s.buildings[v] = (player, "settlement")
        elif piece == "city":
            v = ev.vertex(at)
            there = s.buildings.get(v)
            self._require(there == (player, "settlement"), "city_needs_settlement", player=player,
                          vertex=json_spot(v), there=list(there) if there is not None else None)
            self._pay(player, self.costs[piece], "city")
            s.buildings[v] = (player, "city")
        else:
            e = ev.edge(at)
            self._require_problem(self._link_problem(player, piece, e))
            if s.free_roads and s.phase == MAIN:
                s.free_roads -= 1
            else:
                self._pay(player, self.costs[piece], piece)
            s.pieces[e] = (player, piece)
        return {"player": player, "awards": self._update_longest_route()}


    def _on_roll(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        dice = event["dice"] if "dice" in event else ev.require(event, "dice")  # (require called only to refuse)
        if not isinstance(dice, (list, tuple)) or len(dice) != 2:
            raise MalformedEvent(f"dice must be two faces 1-6 like [3, 4], got {dice!r}")
        a, b = dice
        if not (type(a) is int is type(b) and 0 < a < 7 and 0 < b < 7):  # (no bools)
            raise MalformedEvent(f"dice must be two faces 1-6 like [3, 4], got {dice!r}")
        if s.phase != ROLL:  # (the checks called only when they have something to do: a third of all events)
            self._close_special_build()
            self._require_phase(ROLL)
        roller = s.turn_player
        s.last_dice = faces = (a, b)
        s.last_payouts = {}
        # (the seven's or production's fields dict, always a new one, is the roll's: neither names a player or dice)
        if a + b == 7:
            fields = self._seven()
        else:
            s.phase = MAIN  # (gold choices, a flood, ... may come first: production says)
            fields = self._production(a + b)
        fields["player"] = roller
        fields["dice"] = faces
        return fields

    def _seven(self) -> dict[str, Any]:
        s = self.state
        limit = self.options.discard_limit
        owed = {}
        for p, st in enumerate(s.players):  # (each hand counted once: Hand.size sums the hand)
            size = st.hand.size
            if size > limit:
                owed[p] = size // 2
        s.discards_owed = owed
        s.return_phase = MAIN
        s.phase = DISCARD if owed else MOVE_ROBBER
        fields: dict[str, Any] = {"discards_owed": dict(owed)}
        if not owed:
            fields.update(self._start_move())
        return fields

    def _start_move(self) -> dict[str, Any]:
        """A robber move is owed: where it may go.  With nowhere to go, play resumes."""
        fields = self._mover_targets()
        if not any(fields.values()):
            self.state.phase = self.state.return_phase
        return fields

    def _mover_targets(self) -> dict[str, Any]:
        """Where the robber (and in Seafarers the pirate) may go now that a move is owed."""
        return {"robber_hexes": self.robber_hexes()}

    def _production(self, number: int) -> dict[str, Any]:
        s = self.state
        result = self._produced(number)
        if result is None:  # (no building on a hex showing the number: most rolls of a game's first turns)
            s.last_payouts = {}
            return {}  # (fields left out read their class's empty defaults: no dicts made for nothing)
        payouts = result.payouts
        paid = {}
        if payouts:
            bank = s.bank  # (what pay grants the bank holds: _receive's check and Hand.add written out)
            players = s.players
            for player, cards in payouts.items():
                hand = players[player].hand.known
                for r, n in cards.items():
                    if n:
                        bank[r] -= n
                        hand[r] = hand.get(r, 0) + n
                paid[player] = dict(cards)
            if s.extra and "blind_steal" in s.extra:
                self._blind_victim_paid(payouts)
        s.last_payouts = paid
        fields: dict[str, Any] = {"payouts": payouts} if payouts else {}
        if result.shortages:
            fields["shortages"] = result.shortages
        if result.gold_owed and any(s.bank.values()):
            gold = self._owe_gold(result.gold_owed, s.phase)
            if gold:
                fields["gold_owed"] = gold
        return fields

    def _produced(self, number: int) -> Production | None:
        """What a roll of ``number`` pays now (None: no building on a hex showing it), changing nothing:
        the kept :meth:`_claims`, what they come to with the robber where it stands (kept beside them, by
        number and the robber's hex, which gives the blocked hexes; any hex not showing the number counts as
        none, so a robber move does not make every number's owed again), paid by the bank (:func:`.production.pay`)."""
        s = self.state
        memo = self._claims_memo  # (the look-up of _claims written out: a roll asks it, a miss calls it)
        if memo is None or memo[0] is not s.board or memo[1] != s.buildings:
            memo = self._claims_memo = (s.board, dict(s.buildings), {}, {})
        robber = s.robber  # (the blocked hexes are the robber's: keyed by its hex, made only when not kept)
        if robber is not None and robber not in s.board.hexes_by_number.get(number, ()):
            robber = None  # (the robber on a hex not showing the number leaves out nothing: owed as without it)
        due = memo[3].get((number, robber), _NOT_KEPT)
        if due is _NOT_KEPT:
            hex_claims = self._claims(number)
            due = memo[3][number, robber] = owed(hex_claims, self._blocked_hexes()) if hex_claims else None
        if due is None:
            return None
        owed_cards, gold = due
        return pay(owed_cards, gold, s.bank)

    def _claims(self, number: int) -> tuple:
        """What the hexes showing ``number`` owe before the robber and the bank (:func:`.production.claims`).
        It depends on the board and the buildings only, which change a few dozen times a game while a third of
        all events are rolls: kept per number with the board and a copy of the buildings it came from, and made
        again whenever either differs, compared whole (equal inputs, equal claims: whatever event, undo, copy or
        umpire's correction changed them, it cannot go stale)."""
        s = self.state
        board = s.board
        memo = self._claims_memo
        if memo is None or memo[0] is not board or memo[1] != s.buildings:
            self._claims_memo = memo = (board, dict(s.buildings), {}, {})
        hex_claims = memo[2].get(number)
        if hex_claims is None:
            hex_claims = memo[2][number] = claims(number, board.hexes_by_number, self._resource_of, s.buildings,
                                                  BUILDING_WEIGHTS, board.hex_corners)
        return hex_claims

    # (board, buildings, claims by number, what they come to by (number, robber's hex -- None when the robber
    # stands on no hex showing the number, as it leaves nothing out): production.owed, or None when no hex
    # showing the number has a building)
    _claims_memo: tuple[Board, dict[Vertex, tuple[int, str]], dict[int, tuple], dict[tuple, tuple]] | None = None

    @property
    def _resource_of(self) -> dict[Hex, str | None]:
        board = self.state.board
        cached = self._resource_cache
        if cached is None or cached[0] is not board:
            cached = (board, {h: ("gold" if t.terrain == "gold" else t.resource) for h, t in board.tiles.items()})
            self._resource_cache = cached
        return cached[1]

    # (board, what each hex yields) -- an ordinary attribute, never set through ``self.__dict__``: reading a
    # game's ``__dict__`` turns its attributes from the class's shared layout into a dict of their own, and a
    # replay's game then changed layout at its first roll, so that no read of ``self.state`` & co. stayed
    # specialised by the interpreter (3.11): 5 M instructions of a 1,000-event replay (docs/performance.md)
    _resource_cache: tuple[Board, dict[Hex, str | None]] | None = None

    def _on_gold(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A player names the cards taken for gold fields (any resources, as many as owed)."""
        s = self.state
        player = ev.player(event, self.n_players)
        cards = ev.cards(ev.require(event, "cards"), self.resources)
        self._require_phase(GOLD)
        owed = s.gold_owed.get(player, 0)
        if not owed:
            raise IllegalAction(Refusal("gold_not_owed", player=player, owed=[[p, n] for p, n in s.gold_owed.items()]))
        can_take = min(owed, sum(s.bank.values()))
        if sum(cards.values()) != can_take:
            raise IllegalAction(Refusal("gold_count" if can_take == owed else "gold_count_bank", player=player,
                                        n=can_take, got=sum(cards.values())))
        short = {r: s.bank[r] for r, n in cards.items() if s.bank[r] < n}
        if short:
            raise IllegalAction(Refusal("gold_bank_short", player=player, short=short))
        self._receive(player, cards)
        del s.gold_owed[player]
        if s.gold_return not in (SETUP_ROAD,):
            paid = s.last_payouts.setdefault(player, {})
            for r, n in cards.items():
                paid[r] = paid.get(r, 0) + n
        if not s.gold_owed or not any(s.bank.values()):
            s.gold_owed = {}
            s.phase = s.gold_return
        return {"player": player, "payouts": {player: dict(cards)}, "gold_owed": dict(s.gold_owed)}

    def _blocked_hexes(self) -> frozenset[Hex]:
        robber = self.state.robber
        return frozenset((robber,)) if robber is not None else frozenset()

    def _on_discard(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = ev.player(event, self.n_players)
        cards = ev.cards(ev.require(event, "cards"), self.resources)
        if s.phase != DISCARD:
            self._require_phase(DISCARD)
        owed = s.discards_owed.get(player, 0)
        if owed <= 0:
            self._breach(Refusal("no_discard_owed", player=player))
        got = sum(cards.values())
        if got != owed and not (self._forced and owed == 0):
            self._breach(Refusal("discard_count", player=player, owed=owed, got=got))
        self._pay(player, cards, "discard")
        s.discards_owed.pop(player, None)
        fields: dict[str, Any] = {"player": player, "discards_owed": dict(s.discards_owed)}
        if not s.discards_owed and s.phase == DISCARD:
            s.phase = MOVE_ROBBER
            fields.update(self._start_move())
        return fields

    def _on_move_robber(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        to = ev.hex_(ev.require(event, "to"), "to")
        if s.phase != MOVE_ROBBER:
            self._require_phase(MOVE_ROBBER)
        if to not in s.board.land:
            self._breach(Refusal("robber_off_land", hex=list(to)))
        if to == s.robber:
            self._breach(Refusal("robber_must_move", hex=list(to)))
        s.robber = to
        fields: dict[str, Any] = {"player": s.turn_player, "robber_moved": to}
        if s.phase != MOVE_ROBBER:  # an umpire moving the robber outside its turn
            return fields
        return {**fields, **self._after_move(self.steal_candidates(to, s.turn_player))}

    def _after_move(self, candidates: tuple[int, ...]) -> dict[str, Any]:
        s = self.state
        s.steal_candidates = candidates
        s.phase = STEAL if candidates else s.return_phase
        return {"steal_from": candidates}

    def _on_steal(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        victim = ev.player(event, self.n_players, "from")
        card = event.get("card")
        if card is not None:
            ev.name(card, self.resources, "card")
        if s.phase != STEAL:
            self._require_phase(STEAL)
        if victim not in s.steal_candidates:
            self._breach(Refusal("not_steal_candidate", victim=victim, candidates=list(s.steal_candidates)))
        thief = s.turn_player
        hand = s.players[victim].hand
        if hand.size == 0:
            raise IllegalAction(Refusal("nothing_to_steal", victim=victim))
        if card is None:
            kinds = [r for r, n in hand.known.items() if n]
            if hand.unknown == 0 and len(kinds) == 1:
                card = kinds[0]  # everybody knows what the only kind in the hand is
        if card is None:
            before = (tuple(sorted(hand.known.items())), hand.unknown)
            hand.lose_unseen()
            thief_hand = s.players[thief].hand
            if thief_hand.unknown == 0 and "blind_steal" not in s.extra:
                s.extra["blind_steal"] = (thief, victim, before, (tuple(sorted(hand.known.items())), hand.unknown))
            else:  # a second unseen card: a payment would not tell which it gave
                s.extra.pop("blind_steal", None)
            thief_hand.unknown += 1
        else:
            if hand.unknown and not hand.known.get(card):
                problem = self.unseen_problem({victim: {card: 1}})
                if problem is not None:
                    self._breach(problem)
            hand.remove({card: 1}, victim)
            s.players[thief].hand.add({card: 1})
        s.steal_candidates = ()
        if s.phase == STEAL:
            s.phase = s.return_phase
        return {"player": thief, "stolen": (victim, card)}

    def _on_buy_development(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = ev.player(event, self.n_players)
        card = event.get("card")
        if card is not None:
            ev.name(card, DEVELOPMENT_CARDS, "card")
        if s.phase == SPECIAL_BUILD:
            self._special_builder(player)
        else:
            self._require_phase(MAIN)
            self._require_turn(player)
        if s.deck_size == 0:
            raise IllegalAction(Refusal("dev_deck_empty"))
        if card is not None and s.deck.get(card, 0) == 0:
            raise IllegalAction(Refusal("dev_card_gone", card=card))
        self._pay(player, self.costs["development"], "development")
        st = s.players[player]
        s.deck_size -= 1
        if card is None:
            st.dev_unknown += 1
            st.dev_new_unknown += 1
        else:
            s.deck[card] -= 1
            st.dev[card] = st.dev.get(card, 0) + 1
            st.dev_new[card] = st.dev_new.get(card, 0) + 1
        return {"player": player}

    def _on_play_development(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = ev.player(event, self.n_players)
        card = ev.name(ev.require(event, "card"), [c for c in DEVELOPMENT_CARDS if c != "victory_point"], "card")
        self._require_turn(player)
        if card == "knight":
            self._close_special_build()
            self._require_phase(ROLL, MAIN)
        else:
            self._require_phase(MAIN)
        self._require(not s.dev_played, "dev_already_played", player=player)
        st = s.players[player]
        if st.dev.get(card, 0) - st.dev_new.get(card, 0) > 0:
            st.dev[card] -= 1
        elif st.dev_unknown - st.dev_new_unknown > 0:
            st.dev_unknown -= 1  # an unseen card turns out to be this one
            s.deck[card] = max(0, s.deck.get(card, 0) - 1)
        else:
            held = st.dev.get(card, 0) + st.dev_unknown
            self._require(False, "dev_bought_this_turn" if held else "dev_none", player=player, card=card)
            if st.dev.get(card, 0):
                st.dev[card] -= 1
        s.dev_played = True
        fields: dict[str, Any] = {"player": player}
        if card == "knight":
            st.knights += 1
            fields["awards"] = self._update_largest_army()
            fields.update(self._robber_owed(return_phase=s.phase))
        elif card == "road_building":
            s.free_roads = min(2, sum(self.pieces_left(player, k) for k in self.link_pieces()))
        elif card == "year_of_plenty":
            wanted = ev.require(event, "resources")
            if not isinstance(wanted, list) or not 1 <= len(wanted) <= 2:
                raise MalformedEvent(f"resources must list the two resources taken, got {wanted!r}")
            cards: dict[str, int] = {}
            for r in wanted:
                ev.name(r, self.resources, "resources")
                cards[r] = cards.get(r, 0) + 1
            self._require(len(wanted) == 2 or sum(s.bank.values()) < 2, "year_of_plenty_two")
            self._receive(player, cards)
            fields["payouts"] = {player: cards}
        elif card == "monopoly":
            resource = ev.name(ev.require(event, "resource"), self.resources, "resource")
            taken_field = event.get("taken")
            if taken_field is not None and not isinstance(taken_field, Mapping):
                raise MalformedEvent("taken must be an object {\"player index\": count}")
            unseen = [p for p in range(self.n_players) if p != player and s.players[p].hand.unknown]
            if taken_field is None and unseen:
                # Only the table knows how many of the unseen cards were this resource; without the
                # counts the hand sizes would stop being exact.
                raise MalformedEvent(f"monopoly: player(s) {unseen} hold cards nobody has seen, so the record must "
                                     f"say how many {resource} each player handed over, e.g. \"taken\": "
                                     f"{{\"{unseen[0]}\": 2}}")
            if taken_field is not None:
                handed = {other: {resource: n} for other in range(self.n_players) if other != player
                          and type(n := taken_field.get(str(other), 0)) is int and n > 0
                          and s.players[other].hand.can_pay({resource: n})}
                problem = self.unseen_problem(handed)
                if problem is not None:
                    self._breach(problem)
            total = 0
            for other in range(self.n_players):
                if other == player:
                    continue
                hand = s.players[other].hand
                if taken_field is not None:
                    n = ev.integer(taken_field.get(str(other), 0), f"taken.{other}")
                    if n < 0:
                        raise MalformedEvent(f"taken.{other} must not be negative, got {n}")
                    self._require(n >= hand.count(resource), "monopoly_too_few", other=other,
                                  known=hand.count(resource), resource=resource, n=n)
                    hand.remove({resource: n}, other)
                else:
                    n = hand.remove_all(resource)
                total += n
            s.players[player].hand.add({resource: total})
            fields["payouts"] = {player: {resource: total}} if total else {}
        return fields

    def _on_reveal_development(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A player shows victory-point cards on their own turn (to win with them, typically).

        The cards shown are first the VP cards the table already knew of, then unseen cards, which
        become known VP cards (the buyer kept them secret until now).  A VP card may be shown the
        turn it was bought, so a card bought this turn may be one of them."""
        s = self.state
        player = ev.player(event, self.n_players)
        cards = ev.cards(ev.require(event, "cards"), ("victory_point",), "cards")
        n = cards.get("victory_point", 0)
        if n < 1:
            raise MalformedEvent("reveal_development needs cards {\"victory_point\": n} with n at least 1")
        self._require_turn(player)
        self._require_phase(ROLL, MAIN)
        st = s.players[player]
        known = st.dev.get("victory_point", 0) - st.vp_revealed  # known VP cards not shown yet
        unseen = n - min(known, n)
        if unseen > st.dev_unknown:
            raise IllegalAction(Refusal("reveal_too_many", player=player, n=n,
                                        held=max(known, 0) + st.dev_unknown))
        if unseen > s.deck.get("victory_point", 0):
            raise IllegalAction(Refusal("reveal_vp_gone", player=player, n=unseen,
                                        left=s.deck.get("victory_point", 0)))
        # Cards bought this turn first: it leaves the older unseen cards playable (the table is never wrong).
        from_new = min(unseen, st.dev_new_unknown)
        st.dev_new_unknown -= from_new
        if from_new:
            st.dev_new["victory_point"] = st.dev_new.get("victory_point", 0) + from_new
        st.dev_unknown -= unseen
        if unseen:
            st.dev["victory_point"] = st.dev.get("victory_point", 0) + unseen
            s.deck["victory_point"] -= unseen
        st.vp_revealed += n
        return {"player": player}

    def _robber_owed(self, return_phase: str) -> dict[str, Any]:
        s = self.state
        s.return_phase = return_phase
        s.phase = MOVE_ROBBER
        return self._start_move()

    def _on_trade(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = ev.player(event, self.n_players)
        partner = ev.require(event, "with")
        resources = self.resources
        give = ev.cards(ev.require(event, "give"), resources, "give")
        get = ev.cards(ev.require(event, "get"), resources, "get")
        # (each check's refusal, and the arguments it names, made only when the check fails: a trade is
        # checked seven ways, and building them all every time was a tenth of its cost)
        if s.phase != MAIN:
            self._require_phase(MAIN)
        if player != s.turn_player:
            self._require_turn(player)
        if not (give and get):
            self._breach(Refusal("trade_no_gift"))
        if not give.keys().isdisjoint(get):
            self._breach(Refusal("trade_like_for_like", same=sorted(set(give) & set(get))))
        if partner == "bank":
            ratios = self.harbor_ratios(player)
            bought = 0
            for r, n in give.items():
                ratio = ratios[r]
                if n % ratio:
                    self._breach(Refusal("trade_ratio", player=player, resource=r, ratio=ratio, n=n))
                bought += n // ratio
            if bought != sum(get.values()):
                self._breach(Refusal("trade_bank_count", give=dict(give), bought=bought, got=sum(get.values())))
            self._pay(player, give, "trade")
            self._receive(player, get)
        else:
            other = ev.player(event, self.n_players, "with")
            if other == player:
                raise IllegalAction(Refusal("trade_self"))
            short = [(who, cards) for who, cards in ((player, give), (other, get))
                     if not s.players[who].hand.can_pay(cards)]
            for who, cards in short:  # (first: a hand too small is told so, as a payment's is, not "all in the bank")
                self._breach(Refusal("does_not_hold", player=who, cards=dict(cards)))
            if not short and (s.players[player].hand.unknown or s.players[other].hand.unknown):
                problem = self.unseen_problem({player: give, other: get})
                if problem is not None:
                    self._breach(problem)
            for who, cards in ((player, give), (other, get)):
                hand = s.players[who].hand
                if hand.can_pay(cards):  # (a forced trade the app cannot account for keeps the hand)
                    if s.extra and "blind_steal" in s.extra:
                        self._unseen_named(who, hand, cards)
                    hand.take(cards)
            s.players[player].hand.add(get)
            s.players[other].hand.add(give)
        return {"player": player}

    def _on_end_turn(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        if s.phase != MAIN:
            self._require_phase(MAIN)
        ending = s.turn_player
        s.extra.pop("blind_steal", None)  # (what the stolen card was is told by this turn's payments, or not at all)
        self._start_next_turn()
        return {"player": ending}

    def _start_next_turn(self) -> None:
        s = self.state
        ending = s.turn_player
        for st in s.players:
            if st.dev_new:
                st.dev_new.clear()
            if st.dev_new_unknown:
                st.dev_new_unknown = 0
        s.dev_played = False
        s.free_roads = 0
        s.turn_player = (s.turn_player + 1) % self.n_players
        s.turn_number += 1
        s.phase = ROLL
        if self.special_building:
            s.phase = SPECIAL_BUILD
            s.special_queue = tuple((ending + k) % self.n_players for k in range(1, self.n_players))

    # --- umpire corrections --------------------------------------------------------------------
    def _on_set_hand(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The umpire says what a player holds; the difference goes to or comes from the bank."""
        s = self.state
        player = ev.player(event, self.n_players)
        cards = ev.cards(ev.require(event, "cards"), self.resources)
        hand = s.players[player].hand
        for r in self.resources:
            delta = cards.get(r, 0) - hand.known.get(r, 0)
            s.bank[r] = max(0, min(self.bank_size, s.bank[r] - delta))
        s.players[player].hand = Hand(dict(cards), 0)
        s.extra.pop("blind_steal", None)
        return {"player": player}

    def _on_remove_piece(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The umpire takes a piece off the board (placed by mistake, or knocked over)."""
        s = self.state
        at = ev.require(event, "at")
        if isinstance(at, list) and len(at) == 3:
            v = ev.vertex(at)
            if v not in s.buildings:
                raise IllegalAction(Refusal("no_building_at", vertex=json_spot(v)))
            player, _ = s.buildings.pop(v)
        else:
            e = ev.edge(at)
            if e not in s.pieces:
                raise IllegalAction(Refusal("no_piece_on_edge", edge=json_spot(e)))

            player, _ = s.pieces.pop(e)
        return {"player": player, "awards": self._update_longest_route()}

    def _on_note(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A free-text remark kept in the record (e.g. why a correction was made)."""
        if not isinstance(event.get("text", ""), str):
            raise MalformedEvent("note.text must be a string")
        return {}

    # _on_time_limit: companion.rules.history (every game ends by time the same way)

    # --- awards and the end --------------------------------------------------------------------
    def route_length(self, player: int) -> int:
        """The player's longest road (longest trade route in Seafarers), from the pieces."""
        return self._route_lengths()[player]

    def _route_lengths(self) -> list[int]:
        """Every player's route, searched from the pieces (remembered by complete input, see routes.py)."""
        # A player's route is a function of their pieces and of the buildings on their pieces' corners (someone
        # else's: a route stops there; their own: road and ship join there).  The last call's complete input
        # is kept with its answer and compared with this call's in C -- the pieces and the buildings as tuples
        # in their dicts' order -- so that only the players whose input differs are searched again, and a
        # build (the last call's pieces with one more after them, the same buildings) looks only at the new
        # piece: its owner's pieces and the buildings at its ends are the last call's with it added, the same
        # as a split from scratch.  Anything else (a building built, upgraded, sunk or taken off; a piece
        # taken off or moved; an undo) splits everything afresh.  (Asked on every build: splitting every piece
        # by player and looking at every building's sides, in Python, every time was 6 % of a replay.)
        s = self.state
        placed, buildings = s.pieces, s.buildings
        n = self.n_players
        edges, pieces = tuple(placed), tuple(placed.values())
        corners, owners = tuple(buildings), tuple(buildings.values())
        last = self._route_inputs
        if last is None or len(last.lengths) != n:
            nothing = (frozenset(),) * n  # (no pieces, no buildings: every route 0)
            last = _RouteInputs((), (), None, None, {}, nothing, nothing, nothing, (0,) * n)
        known = len(last.edges)
        if len(edges) >= known and edges[:known] == last.edges and pieces[:known] == last.pieces:
            mine = list(last.mine)
            redo = set()
            for e, piece in zip(edges[known:], pieces[known:]):
                p = piece[0]
                mine[p] = mine[p] | {(e, piece[1])}
                redo.add(p)
            same_pieces_before = True
        else:
            split: list[list[tuple[Edge, str]]] = [[] for _ in range(n)]
            for e, piece in zip(edges, pieces):
                split[piece[0]].append((e, piece[1]))
            mine = [frozenset(player_pieces) for player_pieces in split]
            redo = set(range(n))
            same_pieces_before = False
        if same_pieces_before and last.corners == corners and last.owners == owners:
            sides = last.sides
            blocked, own = list(last.blocked), list(last.own)
            for e, piece in zip(edges[known:], pieces[known:]):
                for v, owner in sides.get(e, ()):
                    p = piece[0]
                    if owner == p:
                        own[p] = own[p] | {v}
                    else:
                        blocked[p] = blocked[p] | {v}
        else:
            # each side of a building's corner -> ((corner, owner), ...): made again when a building changes
            vertex_edges = self.board.vertex_edges
            sides = {}
            for v, (owner, _) in zip(corners, owners):
                for e in vertex_edges.get(v, ()):  # (a corner off the board touches no piece on it)
                    sides[e] = sides.get(e, ()) + ((v, owner),)
            blocked_of: list[list[Vertex]] = [[] for _ in range(n)]
            own_of: list[list[Vertex]] = [[] for _ in range(n)]
            for e, at in sides.items():
                piece = placed.get(e)
                if piece is not None:
                    p = piece[0]
                    for v, owner in at:
                        (own_of if owner == p else blocked_of)[p].append(v)
            blocked, own = [frozenset(vs) for vs in blocked_of], [frozenset(vs) for vs in own_of]
            redo.update(p for p in range(n) if blocked[p] != last.blocked[p] or own[p] != last.own[p])
        lengths = list(last.lengths)
        for p in redo:
            lengths[p] = memo_longest_route(mine[p], blocked[p], own[p]) if mine[p] else 0
        self._route_inputs = _RouteInputs(edges, pieces, corners, owners, sides, tuple(blocked), tuple(own),
                                          tuple(mine), tuple(lengths))
        return lengths

    # The last route search's complete input and its lengths, replaced whole by every call (a copied game
    # shares it until either searches again).
    _route_inputs: _RouteInputs | None = None

    def _update_longest_route(self) -> tuple[AwardChange, ...]:
        s = self.state
        s.route_lengths = self._route_lengths()
        holder = s.longest_road
        best = max(s.route_lengths)
        leaders = [p for p, n in enumerate(s.route_lengths) if n == best]
        if holder is not None and s.route_lengths[holder] >= 5 and s.route_lengths[holder] == best:
            new = holder  # still (jointly) longest: keeps the card
        elif best >= 5 and len(leaders) == 1:
            new = leaders[0]
        else:
            new = None  # several tie, or nobody has 5: the card is set aside
        if new == holder:
            return ()
        s.longest_road = new
        return (AwardChange("longest_road", holder, new, best if new is not None else 0),)

    def _update_largest_army(self) -> tuple[AwardChange, ...]:
        s = self.state
        holder = s.largest_army
        knights = [st.knights for st in s.players]
        held = knights[holder] if holder is not None else 2
        challenger = max(range(self.n_players), key=lambda p: knights[p])
        if knights[challenger] > held and challenger != holder:
            s.largest_army = challenger
            return (AwardChange("largest_army", holder, challenger, knights[challenger]),)
        return ()

    # (a winner is found by the win check after the event that gave the points or the turn; these give neither)
    after_event_unneeded = frozenset({"roll", "trade", "discard", "move_robber", "steal", "gold", "note",
                                      "set_hand"})

    def _after_event(self, before: State) -> dict[str, Any]:
        """After every event but those in ``after_event_unneeded``: has somebody won?"""
        s = self.state
        if s.winner is not None or s.phase in _SETUP_PHASES:
            return {}
        options = self.options
        target = options.vp_target
        if options.win_on_own_turn_only:
            if self.victory_points(s.turn_player) < target:  # (the usual answer, asked first)
                return {}
            contenders = (s.turn_player,)
        else:
            contenders = range(self.n_players)
        for p in contenders:
            if self.victory_points(p) >= target:
                s.winner = p
                s.phase = GAME_OVER
                return {"winner": p, "ranking": self.ranking(), "places": self.places()}
        return {}

    def ranking(self) -> tuple[int, ...]:
        """Players from first to last: by VP, then by cards in hand."""
        return tuple(sorted(range(self.n_players),
                            key=lambda p: (-self.victory_points(p), -self.state.players[p].hand.size, p)))

    # --- the replay view ---------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The derived state in the ``replay`` JSON shape (docs/record-format.md)."""
        s = self.state
        return {
            "players": [
                {
                    "vp": self.victory_points(p),
                    "visible_vp": self.victory_points(p, hidden=False),
                    "hand_size": st.hand.size,
                    "longest_road": s.route_lengths[p],
                    "knights": st.knights,
                    "hand": dict(sorted(st.hand.known.items())),
                    "unknown_cards": st.hand.unknown,
                    "development_cards": st.dev_count,
                }
                for p, st in enumerate(s.players)
            ],
            "longest_road": s.longest_road,
            "largest_army": s.largest_army,
            "robber": list(s.robber) if s.robber is not None else None,
            "turn": {"player": self.turn_player(), "phase": s.phase, "number": s.turn_number,
                     "waiting_for": self.waiting_for()},
            "winner": s.winner,
            "last_roll": None if s.last_dice is None else {
                "dice": list(s.last_dice),
                "payouts": [dict(sorted(s.last_payouts.get(p, {}).items())) for p in range(self.n_players)],
            },
            "bank": dict(s.bank),
            **({"ended_by_time": {"after": s.extra["ended_by_time"]}} if "ended_by_time" in s.extra else {}),
        }
