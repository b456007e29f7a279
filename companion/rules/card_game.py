"""The fast Catan card game (seed ``001``, digest §5), 2-4 players, record game ``"card-game"``.

No board: each player has a *tableau* -- road cards and knight cards laid in order with their sides
alternating A, B, A, ... (the first is A), settlements, cities (each showing the *robber raid* or
*market day* printed under it) and city expansions (at most one of each kind per player, each on
a city).  The game is a state with ``push``/``pop`` over the same record envelope as the board
games (``catan-record/1``); it does not subclass the board :class:`~companion.rules.game.Game`,
because nothing of a board applies, but it answers the same calls (``push``, ``pop``, ``copy``,
``summary``, ``outcomes``, ``waiting_for``, ``victory_points``) and its outcomes are
:class:`~companion.rules.outcome.Outcome` values with a few more fields.

A turn (seed): (1) ``exchange``s 1:1 -- without a road card one, with the draw pile only; otherwise
one per A-side road, each with the draw pile, the market or another player's hand; (2) ``build``s,
at most one of each kind, three identical cards standing in for any one missing card; (3)
``end_turn``: the player draws 2 cards plus 1 per A-side knight.

The fate card: white side (arrow to the left neighbour) or black (to the right).  A new settlement
lets its owner flip it (``"flip_fate": true`` on the build); a city that shows the robber raid
flips it.  When the road or knight deck is empty, the builder takes the top road/knight card of the
neighbour the fate card points to, skipping players without one and players protected by a church
(one knight) or a city wall (up to three roads); the taken card continues the taker's A/B order.

What the printed card texts do (market day, robber raid's losses, the library, ...) is not
reproduced; the table records their effect on hands with ``draw``/``discard`` and on the fate card
with ``flip_fate``.  Choices where the seed is silent: docs/starfarers-and-card-game.md.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Mapping

from . import GAMES
from . import events as ev
from .board import RESOURCES
from .errors import BoardError, BoardProblem, IllegalAction, MalformedEvent
from .hands import Hand
from .history import GAME_OVER, EventHistory
from .outcome import Outcome
from .refusals import Breach, Refusal
from .values import Fresh, Value

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any

COSTS: dict[str, dict[str, int]] = {
    "road": {"lumber": 1, "brick": 1},
    "settlement": {"lumber": 1, "brick": 1, "grain": 1, "wool": 1},
    "city": {"grain": 2, "ore": 3},
    "expansion": {"wool": 3, "ore": 1},
    "knight": {"grain": 1, "wool": 1, "ore": 1},
}
CITY_FACES = ("robber_raid", "market_day")
FATE_SIDES = ("white", "black")
# The seed names three kinds (church, city wall, town hall); library and merchant guild are from the
# German edition's card list (de.wikipedia); the sixth we could not confirm is "other" (an option).
EXPANSION_KINDS = ("church", "city_wall", "town_hall", "library", "merchant_guild", "other")
PROTECTION = {"knight": ("church", 1), "road": ("city_wall", 3)}  # who is skipped when taking a card
# Components of the German edition by player count (de.wikipedia), less the road and the settlement
# each player starts with (see the docs): decks after dealing the start.
DECKS = {2: {"road": 3, "settlement": 5, "knight": 2, "expansion": 5},
         3: {"road": 4, "settlement": 8, "knight": 4, "expansion": 7},
         4: {"road": 5, "settlement": 11, "knight": 5, "expansion": 9}}
RESOURCE_CARDS = 67
MARKET = 5
START = {"roads": 1, "settlements": 1, "cards": 3}

EXCHANGE = "exchange"
BUILD = "build"


class CardOptions(Value, frozen=True):
    """``vp_target``: the seed gives none; 10 is the base game's (seed 000), see the docs.
    ``expansion_kinds``: the six city expansion kinds (names a table may change)."""

    vp_target: int = 10
    expansion_kinds: tuple[str, ...] = EXPANSION_KINDS

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> "CardOptions":
        data = dict(data or {})
        unknown = sorted(k for k in data if k not in cls._fields)
        if unknown:
            raise MalformedEvent(f"unknown option(s) {', '.join(unknown)} (known: vp_target, expansion_kinds)")
        target = ev.integer(data.get("vp_target", 10), "option vp_target")
        if target < 2:
            raise MalformedEvent(f"option vp_target must be at least 2, got {target}")
        kinds = data.get("expansion_kinds", list(EXPANSION_KINDS))
        if (not isinstance(kinds, list) or len(kinds) != 6 or len(set(kinds)) != 6
                or not all(isinstance(k, str) and k for k in kinds)):
            raise MalformedEvent(f"option expansion_kinds must list six different names, got {kinds!r}")
        return cls(target, tuple(kinds))


class CardSetup(Value, frozen=True):
    """The record's ``board`` for the card game: deck sizes, the fate card's side, the start."""

    decks: Mapping[str, int] | None = None     # None: the defaults for the number of players
    fate: str = "white"
    start: Mapping[str, int] = Fresh(lambda: dict(START))
    robber = pirate = None                     # read by code written for boards; never used here

    @staticmethod
    def from_json(data: Any) -> "CardSetup":
        if not isinstance(data, Mapping):
            raise MalformedEvent(f"the card game's board must be an object (decks, fate, start), got {data!r}")
        unknown = sorted(k for k in data if k not in ("decks", "fate", "start"))
        if unknown:
            raise MalformedEvent(f"board: unknown key(s) {', '.join(unknown)} (the card game's board has decks, "
                                 f"fate, start)")
        decks = data.get("decks")
        if decks is not None:
            if not isinstance(decks, Mapping) or set(decks) != set(DECKS[4]):
                raise MalformedEvent(f"board.decks must give road, settlement, knight, expansion, got {decks!r}")
            for k, n in decks.items():
                if ev.integer(n, f"board.decks.{k}") < 0:
                    raise MalformedEvent(f"board.decks.{k} must not be negative, got {n}")
        fate = ev.name(data.get("fate", "white"), FATE_SIDES, "board.fate")
        start = dict(START)
        raw = data.get("start", {})
        if not isinstance(raw, Mapping) or any(k not in START for k in raw):
            raise MalformedEvent(f"board.start may give {', '.join(START)}, got {raw!r}")
        for k, n in raw.items():
            if ev.integer(n, f"board.start.{k}") < 0:
                raise MalformedEvent(f"board.start.{k} must not be negative, got {n}")
            start[k] = n
        return CardSetup(dict(decks) if decks is not None else None, fate, start)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"fate": self.fate, "start": dict(self.start)}
        if self.decks is not None:
            out["decks"] = dict(self.decks)
        return out


class CardOutcome(Outcome, frozen=True):
    """The core outcome plus what a card-game event means (empty when it does not apply).

    - ``side``: the A/B side of the road or knight card the builder just laid;
      ``taken``: ``{"piece", "from", "side"}`` when it came from a neighbour (deck empty);
      ``skipped``: ``[(player, reason)]`` passed over on the way (``"none"``, ``"church"``, ``"city_wall"``).
    - ``fate``: the fate card's side after this event, when it flipped.
    - ``city_face``: what the new city shows (``robber_raid`` / ``market_day``).
    - ``draws``: ``{player: cards}`` drawn from the draw pile; ``reshuffled``: the discards became the pile.
    - ``exchanges_left``: exchanges the player may still make this turn.
    - ``vp``: ``{player: new VP}`` for each player whose VP changed.
    """

    side: str | None = None
    taken: dict[str, Any] = Fresh(dict)
    skipped: tuple[tuple[int, str], ...] = ()
    fate: str | None = None
    city_face: str | None = None
    draws: dict[int, int] = Fresh(dict)
    reshuffled: bool | None = None
    exchanges_left: int | None = None
    vp: dict[int, int] = Fresh(dict)


class Tableau(Value):
    roads: int = 0
    knights: int = 0
    settlements: int = 0
    cities: list[list] = Fresh(list)   # [face, expansion kind or None], in the order built
    hand: Hand = Fresh(Hand)

    @property
    def expansions(self) -> list[str]:
        return [kind for _, kind in self.cities if kind]


class CardState(Value):
    players: list[Tableau]
    decks: dict[str, int]
    draw_pile: int
    discard_pile: int
    market: int
    fate: str
    turn_player: int = 0
    turn_number: int = 1
    phase: str = EXCHANGE
    exchanges_used: int = 0
    built: tuple[str, ...] = ()
    winner: int | None = None
    extra: dict[str, Any] = Fresh(dict)  # ended_by_time (the round's time limit: companion.rules.history)


def sides(n: int) -> list[str]:
    """The sides of ``n`` road or knight cards laid in order: A, B, A, B, ..."""
    return ["A" if i % 2 == 0 else "B" for i in range(n)]


class CardGame(EventHistory):
    """The card game's position with the history of events that led to it (record game ``"card-game"``)."""

    name = "card-game"
    resources = RESOURCES
    min_players, max_players = 2, 4
    options_class = CardOptions
    outcome_class = CardOutcome
    costs = COSTS

    @staticmethod
    def read_board(data: Any) -> CardSetup:
        """The record's ``board`` (decks, fate, start); problems come back as a :class:`BoardError`."""
        try:
            return CardSetup.from_json(data)
        except MalformedEvent as error:
            raise BoardError([BoardProblem(None, str(error))]) from None
    corrections = ("note", "draw", "discard", "flip_fate")
    after_game_over = ("note", "time_limit")  # a tournament's time limit ends it as it ends a board game

    def __init__(self, setup: CardSetup, players: int, options: CardOptions | None = None):
        if not self.min_players <= players <= self.max_players:
            raise MalformedEvent(f"the card game is played by {self.min_players}-{self.max_players} players, not {players}")
        self.initial_board = setup
        self.n_players = players
        self.options = options or CardOptions()
        decks = dict(setup.decks) if setup.decks is not None else dict(DECKS[players])
        start = setup.start
        tableaux = [Tableau(roads=start["roads"], settlements=start["settlements"],
                            hand=Hand({}, start["cards"])) for _ in range(players)]
        pile = RESOURCE_CARDS - MARKET - players * start["cards"]
        if pile < 0:
            raise MalformedEvent(f"board.start.cards: {players} x {start['cards']} cards and the market need more "
                                 f"than the {RESOURCE_CARDS} resource cards")
        self.state = CardState(tableaux, decks, pile, 0, MARKET, setup.fate)
        self.events: list[dict[str, Any]] = []
        self.outcomes: list[CardOutcome] = []
        self._stack: list[CardState | None] = []
        self._warnings: list[str] = []
        self._forced = False

    @property
    def board(self) -> CardSetup:
        return self.initial_board

    # --- copying and history (as the board games') ----------------------------------------------------
    def copy(self) -> "CardGame":
        new = self._bare_copy()
        new.state = _copy.deepcopy(self.state)
        new.events, new.outcomes, new._stack = list(self.events), list(self.outcomes), list(self._stack)
        return new

    # push/pop: companion.rules.history.EventHistory; the card game's state is a few small lists
    def _copy_state(self, state: CardState) -> CardState:
        return _copy.deepcopy(state)

    def _before_event(self, saved: CardState) -> list[int]:
        return [self._vp(saved, p) for p in range(self.n_players)]

    # --- queries --------------------------------------------------------------------------------------
    def waiting_for(self) -> int | None:
        return None if self.state.phase == GAME_OVER else self.state.turn_player

    @staticmethod
    def _vp(state: CardState, player: int) -> int:
        t = state.players[player]
        vp = t.roads // 2 + t.knights // 2 + t.settlements     # B sides: the 2nd, 4th, ... card
        for _, kind in t.cities:
            vp += 2 if kind is None else 4 if kind == "town_hall" else 3   # an expansion replaces the city's 2
        return vp

    def victory_points(self, player: int, *, hidden: bool = True) -> int:
        return self._vp(self.state, player)

    def exchanges_allowed(self, player: int) -> int:
        """One with the draw pile without a road card; otherwise one per A-side road."""
        roads = self.state.players[player].roads
        return 1 if roads == 0 else (roads + 1) // 2

    def end_draw(self, player: int) -> int:
        """Cards drawn at the end of the turn: 2 plus 1 per A-side knight."""
        return 2 + (self.state.players[player].knights + 1) // 2

    def take_target(self, builder: int, piece: str) -> tuple[int | None, tuple[tuple[int, str], ...]]:
        """Whose top road/knight card the builder takes when the deck is empty, and who was skipped.

        White side: the left neighbour (next in seating order, the way play passes); black: the right.
        A player without such a card is skipped, and so is one whose cards are all protected (a church
        protects one knight, a city wall up to three roads).
        """
        s = self.state
        step = 1 if s.fate == "white" else -1
        skipped = []
        protector, limit = PROTECTION[piece]
        for k in range(1, self.n_players):
            other = (builder + step * k) % self.n_players
            t = s.players[other]
            count = t.roads if piece == "road" else t.knights
            if count == 0:
                skipped.append((other, "none"))
            elif protector in t.expansions and count <= limit:
                skipped.append((other, protector))
            else:
                return other, tuple(skipped)
        return None, tuple(skipped)

    # --- checks -----------------------------------------------------------------------------------------
    def _require(self, condition: bool, code: str, **params: Any) -> None:
        """A rule check refused with ``code`` and ``params`` (see refusals.py); a forced entry records it."""
        if not condition:
            refusal = Refusal(code, **params)
            if self._forced:
                self._warnings.append(Breach(refusal))
            else:
                raise IllegalAction(refusal)

    def _turn(self, event: Mapping[str, Any]) -> int:
        player = ev.player(event, self.n_players)
        if player != self.state.turn_player:
            self._require(False, "out_of_turn", player=player, turn=self.state.turn_player)
        return player

    # --- the draw pile ------------------------------------------------------------------------------------
    def _draw(self, player: int, n: int) -> dict[str, Any]:
        s = self.state
        drawn, reshuffled = 0, False
        for _ in range(n):
            if s.draw_pile == 0:
                if s.discard_pile == 0:
                    break
                s.draw_pile, s.discard_pile, reshuffled = s.discard_pile, 0, True
            s.draw_pile -= 1
            s.players[player].hand.unknown += 1
            drawn += 1
        return {"draws": {player: drawn} if drawn else {}, **({"reshuffled": True} if reshuffled else {})}

    def _give_up(self, player: int, card: str | None) -> None:
        """One card leaves ``player``'s hand for an exchange (named, or unseen)."""
        hand = self.state.players[player].hand
        if hand.size == 0:
            raise IllegalAction(Refusal("card_no_card", player=player))
        if card is None:
            hand.lose_unseen()
        else:
            hand.remove({card: 1}, player)

    # --- events -------------------------------------------------------------------------------------------
    def _on_exchange(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A 1:1 exchange: ``with`` is ``"pile"``, ``"market"`` or a player; ``give``/``get`` name cards when seen."""
        s = self.state
        player = self._turn(event)
        partner = ev.require(event, "with")
        give = event.get("give")
        get = event.get("get")
        for value, what in ((give, "give"), (get, "get")):
            if value is not None:
                ev.name(value, self.resources, what)
        if s.phase != EXCHANGE:
            self._require(False, "card_exchange_after_build")
        allowed = self.exchanges_allowed(player)
        self._require(s.exchanges_used < allowed, "card_exchanges_used", player=player, allowed=allowed,
                      roads=(s.players[player].roads + 1) // 2)
        if partner == "pile":
            self._give_up(player, give)
            s.discard_pile += 1
            fields = self._draw(player, 1)
        elif partner == "market":
            self._require(s.players[player].roads > 0, "card_exchange_needs_road")
            if get is None:
                raise MalformedEvent("an exchange with the market names the card taken (get)")
            self._give_up(player, give)
            s.players[player].hand.add({get: 1})
            fields = {}
        else:
            other = ev.player(event, self.n_players, "with")
            if other == player:
                raise IllegalAction(Refusal("card_exchange_self"))
            self._require(s.players[player].roads > 0, "card_exchange_needs_road")
            # drawn blind from the other's hand, one card given back (maybe the same one): sizes stay
            self._give_up(other, None)
            s.players[player].hand.unknown += 1
            self._give_up(player, give)
            s.players[other].hand.unknown += 1
            fields = {}
        s.exchanges_used += 1
        return {"player": player, "exchanges_left": max(0, allowed - s.exchanges_used), **fields}

    def _paid(self, piece: str, event: Mapping[str, Any]) -> dict[str, int]:
        """The cards paid: the cost, or with ``paid`` three identical cards standing in for a missing one."""
        cost = COSTS[piece]
        if "paid" not in event:
            return dict(cost)
        paid = ev.cards(event["paid"], self.resources, "paid")
        direct = {r: min(paid.get(r, 0), n) for r, n in cost.items()}
        missing = sum(cost.values()) - sum(direct.values())
        extra = {r: paid.get(r, 0) - direct.get(r, 0) for r in paid}
        ok = all(n % 3 == 0 for n in extra.values()) and sum(extra.values()) == 3 * missing
        if not ok:
            raise IllegalAction(Refusal("card_paid_wrong", paid=dict(paid), piece=piece, cost=dict(cost)))
        return paid

    def _on_build(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = self._turn(event)
        piece = ev.name(ev.require(event, "piece"), tuple(COSTS), "piece")
        t = s.players[player]
        fields: dict[str, Any] = {"player": player}
        self._require(piece not in s.built, "card_built_kind", player=player, piece=piece)
        face = kind = None
        if piece == "city":
            face = ev.name(ev.require(event, "face"), CITY_FACES, "face")
            self._require(t.settlements > 0, "card_city_needs_settlement", player=player)
        elif piece == "expansion":
            kind = ev.name(ev.require(event, "kind"), self.options.expansion_kinds, "kind")
            self._require(kind not in t.expansions, "card_has_expansion", player=player, kind=kind)
            self._require(any(k is None for _, k in t.cities), "card_no_free_city", player=player)
            self._require(s.decks["expansion"] > 0, "card_expansion_deck_empty")
        elif piece == "settlement":
            self._require(s.decks["settlement"] > 0, "card_settlement_deck_empty")
        flip = event.get("flip_fate", False)
        if not isinstance(flip, bool):
            raise MalformedEvent(f"flip_fate must be true or false, got {flip!r}")
        if flip and piece != "settlement":
            raise IllegalAction(Refusal("card_flip_only_settlement"))
        taken_from = None
        if piece in ("road", "knight") and s.decks[piece] == 0:
            taken_from, skipped = self.take_target(player, piece)
            fields["skipped"] = skipped
            named = event.get("from")
            if named is not None:
                named = ev.player(event, self.n_players, "from")
                self._require(named == taken_from, "card_fate_points", fate=s.fate, target=taken_from, piece=piece,
                              named=named)
                taken_from = named if self._forced else taken_from
            if taken_from is None:
                raise IllegalAction(Refusal("card_nobody_to_take", piece=piece))
        paid = self._paid(piece, event)
        hand = t.hand
        if not hand.can_pay(paid):
            self._require(False, "card_cannot_pay", player=player, cards=dict(paid), size=hand.size,
                          holds=hand.holdings())
        else:
            hand.remove(paid)
            s.discard_pile += sum(paid.values())
        s.phase = BUILD
        s.built += (piece,)
        if piece in ("road", "knight"):
            if taken_from is None:
                s.decks[piece] -= 1
            else:
                victim = s.players[taken_from]
                setattr(victim, piece + "s", getattr(victim, piece + "s") - 1)
            count = getattr(t, piece + "s") + 1
            setattr(t, piece + "s", count)
            fields["side"] = sides(count)[-1]
            if taken_from is not None:
                fields["taken"] = {"piece": piece, "from": taken_from, "side": fields["side"]}
        elif piece == "settlement":
            s.decks["settlement"] -= 1
            t.settlements += 1
            if flip:
                fields["fate"] = self._flip()
        elif piece == "city":
            t.settlements = max(0, t.settlements - 1)
            t.cities.append([face, None])
            fields["city_face"] = face
            if face == "robber_raid":  # the fate card must flip
                fields["fate"] = self._flip()
        else:
            s.decks["expansion"] -= 1
            for city in t.cities:
                if city[1] is None:
                    city[1] = kind
                    break
        return fields

    def _flip(self) -> str:
        s = self.state
        s.fate = "black" if s.fate == "white" else "white"
        return s.fate

    def _on_flip_fate(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A card's text flips the fate card (the reason may be given in ``text``)."""
        return {"fate": self._flip()}

    def _on_draw(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A card's text lets a player draw ``count`` cards from the draw pile."""
        player = ev.player(event, self.n_players)
        n = ev.integer(ev.require(event, "count"), "count")
        if n < 1:
            raise MalformedEvent(f"count must be at least 1, got {n}")
        return {"player": player, **self._draw(player, n)}

    def _on_discard(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A card's text (a robber raid, ...) makes a player discard: ``cards`` when seen, else ``count``."""
        s = self.state
        player = ev.player(event, self.n_players)
        hand = s.players[player].hand
        if "cards" in event:
            cards = ev.cards(event["cards"], self.resources)
            hand.remove(cards, player)
            n = sum(cards.values())
        else:
            n = ev.integer(ev.require(event, "count"), "count")
            if not 1 <= n <= hand.size:
                raise IllegalAction(Refusal("card_discard_count", player=player, size=hand.size, n=n))

            for _ in range(n):
                hand.lose_unseen()
        s.discard_pile += n
        return {"player": player}

    def _on_end_turn(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The player draws 2 + 1 per A-side knight; the next player's turn begins."""
        s = self.state
        player = s.turn_player
        if "player" in event:
            self._turn(event)
        fields = {"player": player, **self._draw(player, self.end_draw(player))}
        s.turn_player = (player + 1) % self.n_players
        s.turn_number += 1
        s.phase, s.exchanges_used, s.built = EXCHANGE, 0, ()
        return fields

    def _on_note(self, event: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(event.get("text", ""), str):
            raise MalformedEvent("note.text must be a string")
        return {}

    def _after_event(self, vp_before: list[int]) -> dict[str, Any]:
        s = self.state
        now = [self.victory_points(p) for p in range(self.n_players)]
        fields: dict[str, Any] = {}
        changed = {p: v for p, v in enumerate(now) if v != vp_before[p]}
        if changed:
            fields["vp"] = changed
        # VP are only gained on one's own turn, so the player whose turn it is wins at once
        if s.winner is None and now[s.turn_player] >= self.options.vp_target and s.phase != GAME_OVER:
            s.winner, s.phase = s.turn_player, GAME_OVER
            fields.update(winner=s.turn_player, ranking=self.ranking(), places=self.places())
        return fields

    def ranking(self) -> tuple[int, ...]:
        return tuple(sorted(range(self.n_players), key=lambda p: (-self.victory_points(p), p)))

    # --- the replay view ---------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        s = self.state
        return {
            "players": [{
                "vp": self.victory_points(p),
                "roads": sides(t.roads),
                "knights": sides(t.knights),
                "settlements": t.settlements,
                "cities": [{"face": face, "expansion": kind} for face, kind in t.cities],
                "hand_size": t.hand.size,
                "hand": dict(sorted(t.hand.known.items())),
                "unknown_cards": t.hand.unknown,
            } for p, t in enumerate(s.players)],
            "decks": dict(s.decks),
            "draw_pile": s.draw_pile,
            "discard_pile": s.discard_pile,
            "fate": s.fate,
            "turn": {"player": s.turn_player, "phase": s.phase, "number": s.turn_number,
                     "waiting_for": self.waiting_for(),
                     "exchanges_left": max(0, self.exchanges_allowed(s.turn_player) - s.exchanges_used)
                     if s.phase == EXCHANGE else 0,
                     "built": list(s.built)},
            "winner": s.winner,
            **({"ended_by_time": {"after": s.extra["ended_by_time"]}} if "ended_by_time" in s.extra else {}),
        }


GAMES["card-game"] = CardGame
