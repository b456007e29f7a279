"""Catan: Starfarers over the core (seed ``003``, digest §4), 3-4 players, record game ``"starfarers"``.

What the companion keeps for a Starfarers table, and how it maps onto the core:

- The board (:mod:`.starfarers_board`): planets are hexes, colony sites the edges between the planets of
  a system; colonies and spaceports stand on sites (``state.buildings`` keyed by the site's edge).
- Production is the core's one routine (:func:`.production.produce`) with planets as producers and
  colonies and spaceports as buildings of weight 1 each; then the roller draws from the face-down
  supply pile by VP (4-7: 2, 8-9: 1, 10+: 0).  When the pile is empty it is refilled at once with up to
  8 of each resource from the stock.
- A 7: no planet produces; players with more than 7 cards return half (rounded down) to the stock;
  the roller steals one card from a player of their choice; every other player, clockwise from the
  roller's left, draws 1 from the supply; then the roller's own supply draw.
- Build (own turn, after the roll): spaceport, colony ship, trade ship, booster (≤ 6), cannon (≤ 6),
  freight ring (≤ 5); trade with the active player or the stock (3:1, trade goods 2:1).
- Flight: the mothership ``shake`` (two of 2 yellow, 1 red, 1 blue, 1 black; black → speed 3 and an
  encounter first); then what the flight achieved: ``found_colony``, ``trade_station`` (needs more
  freight rings than stations already docked; the friendship marker goes to whoever has the most
  stations there, the holder keeping it on a tie), ``defeat_pirate`` (cannons ≥ strength),
  ``terraform`` (freight rings ≥ strength), ``reveal`` (a face-down chip turned up).  Ship positions
  are not tracked: the ships are on the real board.
- Encounters are recorded by their outcome only (half-medals won or lost, cards, upgrades), never
  the card's text.
- VP: colony 1, spaceport 2, friendship marker 2, pirate base or ice planet marker 1, 2 half-medals 1;
  4 at the start (3 colonies, one a spaceport).  The game ends at the end of a player's turn when a
  player has 15 (``vp_target``).

Set-up (seed): colonies 1st clockwise from the start player (player 0), 2nd counter-clockwise,
3rd clockwise; then from the last placer clockwise each player turns a colony into a spaceport
and takes a free colony or trade ship and one of 2 boosters / 1 cannon / 1 freight ring
(``setup_spaceport``).  Choices where the seed is silent are listed in
docs/starfarers-and-card-game.md.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import GAMES
from . import events as ev
from .errors import IllegalAction, MalformedEvent

from .game import DISCARD, GAME_OVER, MAIN, ROLL, STEAL, Game, Options
from .geometry import Edge, Hex
from .hands import Hand
from .outcome import AwardChange, Outcome
from .production import produce
from .refusals import Refusal, json_spot
from .starfarers_board import DOCKS, NUMBERS, RESOURCES, Planet, StarBoard, star_board_from_json
from .values import Fresh, Value

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    import random
    from typing import Any

SETUP_COLONY = "setup_colony"
SETUP_SPACEPORT = "setup_spaceport"
ENCOUNTER = "encounter"
FLIGHT = "flight"

COSTS: dict[str, dict[str, int]] = {
    "spaceport": {"carbon": 3, "food": 2},
    "trade_ship": {"ore": 1, "fuel": 1, "trade_goods": 2},
    "colony_ship": {"ore": 1, "fuel": 1, "carbon": 1, "food": 1},
    "cannon": {"carbon": 2},
    "freight_ring": {"ore": 2},
    "booster": {"fuel": 2},
}
UPGRADES = ("booster", "cannon", "freight_ring")
UPGRADE_MAX = {"booster": 6, "cannon": 6, "freight_ring": 5}      # per mothership (seed)
UPGRADE_TRAY = {"booster": 24, "cannon": 24, "freight_ring": 20}  # the expansion box's stock (seed)
SHIPS = ("colony_ship", "trade_ship")
PIECES = {"colony": 9, "trade_station": 7, "transport": 3, "spaceport_ring": 3}
HALF_MEDALS = 40
SETUP_UPGRADES = {"boosters": ("booster", 2), "cannon": ("cannon", 1), "freight_ring": ("freight_ring", 1)}

BALLS = ("yellow", "yellow", "red", "blue", "black")
BALL_VALUES = {"black": 0, "blue": 1, "yellow": 2, "red": 3}
WEIGHTS = {"colony": 1, "spaceport": 1}


def shake_mothership(rng: random.Random) -> tuple[str, str]:
    """A digital shake: two of the five balls, drawn without putting back (the rng is the caller's)."""
    balls = list(BALLS)
    rng.shuffle(balls)
    return (balls[0], balls[1])


def ball_speed(balls: tuple[str, str]) -> tuple[int, bool]:
    """(base speed, encounter?) for two balls: black means speed 3 and an encounter."""
    if "black" in balls:
        return 3, True
    return sum(BALL_VALUES[b] for b in balls), False


def supply_draw_count(vp: int) -> int:
    """Cards the roller draws from the supply pile at ``vp`` victory points (seed: 4-7: 2, 8-9: 1, 10+: 0)."""
    return 2 if vp <= 7 else 1 if vp <= 9 else 0


class StarOptions(Options, frozen=True):
    """Starfarers options: 15 VP (seed); ``starting_cards`` of each resource per player (seed: 3);
    ``supply_refill`` cards of each resource per supply pile (seed: 8)."""

    vp_target: int = 15
    starting_cards: int = 3
    supply_refill: int = 8


class StarOutcome(Outcome, frozen=True):
    """The core outcome plus what a Starfarers event means (empty when it does not apply).

    - ``supply_draws``: ``{player: cards}`` drawn face down from the supply pile by this event;
      ``refills``: how often the pile was refilled from the stock meanwhile.
    - ``balls``/``speed``/``movement``: the mothership shake, its base speed and with boosters;
      ``encounter``: an encounter is owed before the flight (a black ball).
    - ``half_medals``: ``{player: change}``; ``vp``: ``{player: new VP}`` for each player whose VP changed.
    - ``founded``: the colony site of a new colony; ``spaceport``: the site of a new spaceport;
      ``station``: the alien station where a trade station docked (friendship changes are ``awards``
      named ``friendship_<alien>``); ``conquered``: ``("pirate" | "ice", planet)`` won;
      ``revealed``: a planet whose chip was turned up.
    """

    supply_draws: dict[int, int] = Fresh(dict)
    refills: int | None = None
    balls: tuple[str, ...] = ()
    speed: int | None = None
    movement: int | None = None
    encounter: bool | None = None
    half_medals: dict[int, int] = Fresh(dict)
    vp: dict[int, int] = Fresh(dict)
    founded: Edge | None = None
    spaceport: Edge | None = None
    station: Hex | None = None
    conquered: tuple[str, Hex] | None = None
    revealed: Hex | None = None


class Fleet(Value):
    """Per-game Starfarers state (deep-copied with the core state for undo)."""

    supply: Hand
    half_medals: list[int]
    upgrades: list[dict[str, int]]
    ships: list[dict[str, int]]
    trophies: list[dict[str, int]]
    friendship_cards: list[list[str]]
    docks: dict[Hex, list[int]] = Fresh(dict)        # station -> owners in order of arrival
    friendship: dict[Hex, int | None] = Fresh(dict)  # station -> marker holder
    shake: tuple[str, str] | None = None
    speed: int | None = None
    setup_step: int = 0


class StarfarersGame(Game):
    """Starfarers for 3-4 players (record game name ``"starfarers"``)."""

    name = "starfarers"
    resources = RESOURCES
    bank_size = 20
    deck_composition: Mapping[str, int] = {}
    piece_limits = PIECES
    min_players, max_players = 3, 4
    options_class = StarOptions
    outcome_class = StarOutcome
    costs = COSTS
    read_board = staticmethod(star_board_from_json)

    # the base game's development cards and robber do not exist here
    _on_buy_development = _on_play_development = _on_reveal_development = _on_move_robber = _on_gold = None

    def __init__(self, board: StarBoard, players: int, options: StarOptions | None = None):
        super().__init__(board, players, options)
        s, o = self.state, self.options
        for name, low in (("starting_cards", 0), ("supply_refill", 1)):
            if getattr(o, name) < low:
                raise MalformedEvent(f"option {name} must be at least {low}, got {getattr(o, name)}")
        supply = Hand()
        for r in self.resources:
            take = min(o.supply_refill, s.bank[r])
            s.bank[r] -= take
            supply.add({r: take})
        start = {r: min(o.starting_cards, s.bank[r] // players) for r in self.resources}
        for st in s.players:
            for r, n in start.items():
                s.bank[r] -= n
            st.hand.add(start)
        s.phase = SETUP_COLONY
        s.extra["fleet"] = Fleet(
            supply=supply, half_medals=[1] * players,
            upgrades=[dict.fromkeys(UPGRADES, 0) for _ in range(players)],
            ships=[dict.fromkeys(SHIPS, 0) for _ in range(players)],
            trophies=[{"pirate": 0, "ice": 0} for _ in range(players)],
            friendship_cards=[[] for _ in range(players)],
            docks={h: [] for h in board.stations}, friendship=dict.fromkeys(board.stations))

    @classmethod
    def event_types(cls) -> list[str]:
        return sorted(n[4:] for n in dir(cls) if n.startswith("_on_") and callable(getattr(cls, n)))

    @property
    def fleet(self) -> Fleet:
        return self.state.extra["fleet"]

    # --- set-up order and whose input ---------------------------------------------------------
    def colony_order(self) -> list[int]:
        """1st colony clockwise from the start player, 2nd counter-clockwise, 3rd clockwise again."""
        forward = list(range(self.n_players))
        return forward + forward[::-1] + forward

    def spaceport_order(self) -> list[int]:
        """Spaceports clockwise from the last colony placer (seed set-up step 4)."""
        last = self.colony_order()[-1]
        return [(last + k) % self.n_players for k in range(self.n_players)]

    def turn_player(self) -> int:
        """Whose turn it is: the player placing in set-up, else the player who rolls (or rolled) this turn."""
        if self.state.phase in (SETUP_COLONY, SETUP_SPACEPORT):
            return self.waiting_for()
        return self.state.turn_player

    def waiting_for(self) -> int | None:
        s = self.state
        if s.phase == SETUP_COLONY:
            return self.colony_order()[self.fleet.setup_step]
        if s.phase == SETUP_SPACEPORT:
            return self.spaceport_order()[self.fleet.setup_step - len(self.colony_order())]
        if s.phase == GAME_OVER:
            return None
        if s.phase == DISCARD:
            return min(s.discards_owed) if s.discards_owed else None
        return s.turn_player

    # --- counting ------------------------------------------------------------------------------
    @staticmethod
    def _vp_of(state, player: int) -> int:
        fleet = state.extra["fleet"]
        pieces = [kind for p, kind in state.buildings.values() if p == player]
        vp = len(pieces) + pieces.count("spaceport")                     # colony 1, spaceport ring +1
        vp += 2 * sum(1 for holder in fleet.friendship.values() if holder == player)
        vp += fleet.trophies[player]["pirate"] + fleet.trophies[player]["ice"]
        return vp + fleet.half_medals[player] // 2

    def victory_points(self, player: int, *, hidden: bool = True) -> int:
        return self._vp_of(self.state, player)

    def pieces_left(self, player: int, piece: str) -> int:
        s, fleet = self.state, self.fleet
        mine = [kind for p, kind in s.buildings.values() if p == player]
        ships = fleet.ships[player]
        used = {
            "colony": len(mine) + ships["colony_ship"],
            "spaceport_ring": mine.count("spaceport"),
            "trade_station": sum(owners.count(player) for owners in fleet.docks.values()) + ships["trade_ship"],
            "transport": ships["colony_ship"] + ships["trade_ship"],
        }[piece]
        return self.piece_limits[piece] - used

    def unseen_may_be(self, resource: str) -> int:
        """:meth:`Game.unseen_may_be`, less the supply pile's cards still known (a refill's, not yet drawn)."""
        return super().unseen_may_be(resource) - self.fleet.supply.known.get(resource, 0)

    def harbor_ratios(self, player: int) -> dict[str, int]:
        """Trade with the stock: 3:1, trade goods 2:1 (seed)."""
        return {r: (2 if r == "trade_goods" else 3) for r in self.resources}

    def _route_lengths(self) -> list[int]:
        return [0] * self.n_players  # no roads in space

    def _update_longest_route(self) -> tuple[AwardChange, ...]:
        return ()

    def _occupied(self, site: Edge) -> bool:
        return site in self.state.buildings or site in self.board.neutral

    def colony_site_problem(self, player: int, site: Edge, *, setup: bool = False) -> Refusal | None:
        """Why ``player`` cannot found a colony on ``site`` now (None when they can)."""
        board = self.board
        if site not in board.sites:
            return Refusal("not_colony_site", site=json_spot(site))
        if self._occupied(site):
            return Refusal("colony_site_taken", site=json_spot(site))
        system = board.sites[site]
        if setup and board.catan and system not in board.catan:
            return Refusal("setup_colony_not_catan", site=json_spot(site))
        hidden = [list(h) for h in board.systems[system] if board.planets[h].hidden]
        if hidden:
            # seed 003: a ship beside a face-down system explores it (every chip turned up) first, and a
            # hidden chip may be a pirate base or an ice planet, beside which no colony may stand
            return Refusal("system_unexplored", site=json_spot(site), hexes=hidden)
        for h in site:
            planet = board.planets[h]
            if planet.marker:
                return Refusal("planet_marker_blocks", hex=list(h), marker=planet.marker)
        if self.n_players == 3 and not setup:  # a rule of founding (seed: 《コロニーを設置》), not of the set-up
            used = sum(1 for e, i in board.sites.items() if i == system and self._occupied(e))
            if used >= 2:
                return Refusal("system_full", site=json_spot(site))
        return None

    # --- the supply pile -------------------------------------------------------------------------
    def _refill_supply(self) -> int:
        """Seed 003: 「補充用の山札がなくなったら、即座に各資源の山から8枚ずつ引き」 -- the moment the pile runs
        out it takes up to ``supply_refill`` of each resource from the stock (what there is).  1 if refilled."""
        s, fleet = self.state, self.fleet
        refill = {r: min(self.options.supply_refill, s.bank[r]) for r in self.resources}
        refill = {r: k for r, k in refill.items() if k}
        if not refill:
            return 0
        for r, k in refill.items():
            s.bank[r] -= k
        fleet.supply.add(refill)
        return 1

    def _draw_supply(self, player: int, n: int) -> tuple[int, int]:
        """``player`` draws ``n`` face down from the supply pile, which is refilled as soon as it runs out."""
        s, fleet = self.state, self.fleet
        drawn = refills = 0
        for _ in range(n):
            if fleet.supply.size == 0:
                refills += self._refill_supply()  # the stock was empty when the pile ran out; try again
                if fleet.supply.size == 0:
                    break  # stock and pile both empty: nothing to draw
            fleet.supply.lose_unseen()
            s.players[player].hand.unknown += 1
            steal = s.extra.get("blind_steal")
            if steal and steal[0] == player:
                del s.extra["blind_steal"]  # (another unseen card beside the stolen one: a payment no longer tells which)
            elif steal and steal[1] == player:
                # The victim draws after the 7's steal: the unseen card commutes with the card taken, so it goes on
                # the hand before and after the steal alike.  Left off, paying one unseen card in a trade brought the
                # victim's hand back to the steal's "after" with a different card in it, and naming the stolen card
                # put back a card the victim had given away (review, session 18).
                thief, victim, before, after = steal
                s.extra["blind_steal"] = (thief, victim, (before[0], before[1] + 1), (after[0], after[1] + 1))
            drawn += 1
            if fleet.supply.size == 0:
                refills += self._refill_supply()
        return drawn, refills

    def _supply_fields(self, draws: list[tuple[int, int]]) -> dict[str, Any]:
        out: dict[int, int] = {}
        refills = 0
        for player, n in draws:
            got, r = self._draw_supply(player, n)
            refills += r
            if got:
                out[player] = out.get(player, 0) + got
        return {"supply_draws": out, **({"refills": refills} if refills else {})}

    def _roller_draw(self) -> dict[str, Any]:
        roller = self.state.turn_player
        return self._supply_fields([(roller, supply_draw_count(self.victory_points(roller)))])

    # --- production and the 7 ------------------------------------------------------------------
    def _production(self, number: int) -> dict[str, Any]:
        s = self.state
        result = produce(number, self.board.hexes_by_number, self.board.resource_of, s.buildings, WEIGHTS,
                         s.bank, frozenset(), self.board.planet_sites)
        for player, cards in result.payouts.items():
            self._receive(player, cards)
        s.last_payouts = {p: dict(c) for p, c in result.payouts.items()}
        return {"payouts": result.payouts, "shortages": result.shortages, **self._roller_draw()}

    def _start_move(self) -> dict[str, Any]:
        """After the 7's discards: the roller steals from a player of their choice (no robber)."""
        s = self.state
        candidates = tuple(p for p in range(self.n_players)
                           if p != s.turn_player and s.players[p].hand.size > 0)
        s.steal_candidates = candidates
        s.return_phase = MAIN
        if candidates:
            s.phase = STEAL
            return {"steal_from": candidates}
        s.phase = MAIN
        return self._after_seven()

    def _on_steal(self, event: Mapping[str, Any]) -> dict[str, Any]:
        fields = super()._on_steal(event)
        return {**fields, **self._after_seven()}

    def _after_seven(self) -> dict[str, Any]:
        """Every other player draws 1 from the supply, clockwise; then the roller's own supply draw."""
        s = self.state
        roller = s.turn_player
        others = [((roller + k) % self.n_players, 1) for k in range(1, self.n_players)]
        return self._supply_fields(others + [(roller, supply_draw_count(self.victory_points(roller)))])

    # --- set-up ----------------------------------------------------------------------------------
    def _on_build(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s, fleet = self.state, self.fleet
        player = ev.player(event, self.n_players)
        if s.phase == SETUP_COLONY:
            ev.name(ev.require(event, "piece"), ("colony",), "set-up piece")
            site = ev.edge(ev.require(event, "at"))
            expected = self.colony_order()[fleet.setup_step]
            if player != expected:
                raise IllegalAction(Refusal("setup_colony_wrong_player", expected=expected, player=player))
            self._require_problem(self.colony_site_problem(player, site, setup=True))
            s.buildings[site] = (player, "colony")
            fleet.setup_step += 1
            if fleet.setup_step == len(self.colony_order()):
                s.phase = SETUP_SPACEPORT
            return {"player": player, "founded": site}
        piece = ev.name(ev.require(event, "piece"), tuple(COSTS), "piece")
        self._require_phase(MAIN)
        self._require_turn(player)
        fields: dict[str, Any] = {"player": player}
        if piece == "spaceport":
            site = ev.edge(ev.require(event, "at"))
            self._require(s.buildings.get(site) == (player, "colony"), "spaceport_needs_colony", player=player,
                          site=json_spot(site), there=self._site_holder(site))
            self._require(self.pieces_left(player, "spaceport_ring") > 0, "no_piece_left", player=player,
                          piece="spaceport_ring")
            self._pay(player, COSTS[piece], "spaceport")
            s.buildings[site] = (player, "spaceport")
            fields["spaceport"] = site
        elif piece in SHIPS:
            cargo = "colony" if piece == "colony_ship" else "trade_station"
            self._require(self.pieces_left(player, "transport") > 0, "no_piece_left", player=player,
                          piece="transport_ship")
            self._require(self.pieces_left(player, cargo) > 0, "no_piece_left", player=player, piece=cargo)
            self._pay(player, COSTS[piece], piece)
            fleet.ships[player][piece] += 1
        else:
            self._add_upgrade(player, piece, 1)
            self._pay(player, COSTS[piece], piece)
        return fields

    def _add_upgrade(self, player: int, piece: str, n: int) -> None:
        fleet = self.fleet
        have = fleet.upgrades[player][piece]
        in_use = sum(u[piece] for u in fleet.upgrades)
        if n > 0:
            self._require(have + n <= UPGRADE_MAX[piece], "upgrade_max", player=player, max=UPGRADE_MAX[piece],
                          piece=piece)
            self._require(in_use + n <= UPGRADE_TRAY[piece], "upgrade_box_empty", piece=piece)
        else:
            self._require(have + n >= 0, "upgrade_too_few", player=player, have=have, piece=piece)
        fleet.upgrades[player][piece] = max(0, have + n)

    def _site_holder(self, site: Edge) -> list | None:
        """What stands on a colony site, as refusals give it: ``None`` or ``[player, kind]``."""
        b = self.state.buildings.get(site)
        return None if b is None else list(b)

    def _on_setup_spaceport(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """Set-up step 4: one colony becomes a spaceport, a free ship, one upgrade choice."""
        s, fleet = self.state, self.fleet
        player = ev.player(event, self.n_players)
        site = ev.edge(ev.require(event, "at"))
        ship = ev.name(ev.require(event, "ship"), SHIPS, "ship")
        choice = ev.name(ev.require(event, "upgrade"), tuple(SETUP_UPGRADES), "upgrade")
        if s.phase != SETUP_SPACEPORT:
            raise IllegalAction(Refusal("setup_spaceport_phase", phase=s.phase))
        expected = self.waiting_for()
        if player != expected:
            raise IllegalAction(Refusal("setup_spaceport_wrong_player", expected=expected, player=player))
        if s.buildings.get(site) != (player, "colony"):
            raise IllegalAction(Refusal("setup_spaceport_needs_colony", player=player, site=json_spot(site),
                                        there=self._site_holder(site)))
        s.buildings[site] = (player, "spaceport")
        fleet.ships[player][ship] += 1
        kind, n = SETUP_UPGRADES[choice]
        self._add_upgrade(player, kind, n)
        fleet.setup_step += 1
        if fleet.setup_step == len(self.colony_order()) + self.n_players:
            s.phase, s.turn_player, s.turn_number = ROLL, 0, 1
        return {"player": player, "spaceport": site}

    # --- flight ------------------------------------------------------------------------------------
    def _on_shake(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The mothership shake that starts the flight phase: two balls, recorded like dice."""
        s, fleet = self.state, self.fleet
        player = ev.player(event, self.n_players)
        balls = ev.require(event, "balls")
        if not isinstance(balls, (list, tuple)) or len(balls) != 2 or any(b not in BALL_VALUES for b in balls):
            raise MalformedEvent(f"balls must be two of yellow, red, blue, black, got {balls!r}")
        for colour in set(balls):
            if list(balls).count(colour) > BALLS.count(colour):
                raise IllegalAction(Refusal("balls_too_many", have=BALLS.count(colour), colour=colour,
                                            n=list(balls).count(colour)))
        self._require_phase(MAIN)
        self._require_turn(player)
        self._require(sum(fleet.ships[player].values()) > 0, "no_ship_for_flight", player=player)
        speed, encounter = ball_speed(tuple(balls))
        fleet.shake, fleet.speed = (balls[0], balls[1]), speed
        s.phase = ENCOUNTER if encounter else FLIGHT
        return {"player": player, "balls": tuple(balls), "speed": speed,
                "movement": speed + fleet.upgrades[player]["booster"], **({"encounter": True} if encounter else {})}

    def _on_encounter(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """What an encounter card did, by its outcome: half-medals, cards, upgrades (never its text)."""
        s, fleet = self.state, self.fleet
        player = ev.player(event, self.n_players)
        medals = ev.integer(event.get("half_medals", 0), "half_medals")
        gain = ev.cards(event.get("gain", {}), self.resources, "gain")
        lose = ev.cards(event.get("lose", {}), self.resources, "lose")
        upgrades = event.get("upgrades", {})
        if not isinstance(upgrades, Mapping) or any(k not in UPGRADES for k in upgrades):
            raise MalformedEvent(f"upgrades must be an object like {{\"cannon\": 1}} with keys "
                                 f"{', '.join(UPGRADES)}, got {upgrades!r}")
        self._require_phase(ENCOUNTER)
        self._require_turn(player)
        have = fleet.half_medals[player]
        self._require(have + medals >= 0, "half_medals_too_few", player=player, have=have, n=-medals)
        self._require(sum(fleet.half_medals) + medals <= HALF_MEDALS, "half_medals_all_out", max=HALF_MEDALS)
        fleet.half_medals[player] = max(0, have + medals)
        if lose:
            self._pay(player, lose, "encounter")
        if gain:
            self._receive(player, gain)
        for kind, n in upgrades.items():
            self._add_upgrade(player, kind, ev.integer(n, f"upgrades.{kind}"))
        s.phase = FLIGHT
        fields: dict[str, Any] = {"player": player, "half_medals": {player: medals} if medals else {}}
        if gain:
            fields["payouts"] = {player: gain}
        return fields

    def _flight_player(self, event: Mapping[str, Any]) -> int:
        player = ev.player(event, self.n_players)
        self._require_phase(FLIGHT)
        self._require_turn(player)
        return player

    def _use_ship(self, player: int, ship: str) -> None:
        fleet = self.fleet
        self._require(fleet.ships[player][ship] > 0, "no_ship_kind_in_space", player=player, ship=ship)
        fleet.ships[player][ship] = max(0, fleet.ships[player][ship] - 1)

    def _on_found_colony(self, event: Mapping[str, Any]) -> dict[str, Any]:
        s = self.state
        player = self._flight_player(event)
        site = ev.edge(ev.require(event, "at"))
        problem = self.colony_site_problem(player, site)
        if site not in self.board.sites or site in s.buildings:
            raise IllegalAction(problem)  # not even an umpire can put two colonies on one site
        self._require_problem(problem)
        self._use_ship(player, "colony_ship")
        s.buildings[site] = (player, "colony")
        return {"player": player, "founded": site}

    def _on_trade_station(self, event: Mapping[str, Any]) -> dict[str, Any]:
        fleet = self.fleet
        player = self._flight_player(event)
        at = ev.hex_(ev.require(event, "at"), "at")
        card = event.get("card")
        if card is not None and not isinstance(card, str):
            raise MalformedEvent(f"card must name the friendship card taken, got {card!r}")
        if at not in self.board.stations:
            raise IllegalAction(Refusal("no_station", hex=list(at)))
        docked = fleet.docks[at]
        if len(docked) >= DOCKS:
            raise IllegalAction(Refusal("station_full", docks=DOCKS, hex=list(at)))
        rings = fleet.upgrades[player]["freight_ring"]
        self._require(rings > len(docked), "freight_rings_short", player=player, docked=len(docked), hex=list(at),
                      rings=rings)
        self._use_ship(player, "trade_ship")
        docked.append(player)
        if card is not None:
            fleet.friendship_cards[player].append(card)
        return {"player": player, "station": at, "awards": self._update_friendship(at)}

    def _update_friendship(self, at: Hex) -> tuple[AwardChange, ...]:
        """The marker goes to the player with the most stations here; the holder keeps it on a tie."""
        fleet = self.fleet
        docked = fleet.docks[at]
        counts = {p: docked.count(p) for p in docked}
        holder = fleet.friendship[at]
        best = max(counts.values(), default=0)
        if holder is not None and counts.get(holder, 0) == best:
            return ()
        leaders = [p for p in dict.fromkeys(docked) if counts[p] == best]  # in order of arrival
        new = leaders[0] if leaders else None
        if new == holder:
            return ()
        fleet.friendship[at] = new
        return (AwardChange(f"friendship_{self.board.stations[at]}", holder, new, best),)

    def _conquer(self, event: Mapping[str, Any], marker: str) -> dict[str, Any]:
        s, fleet = self.state, self.fleet
        player = self._flight_player(event)
        at = ev.hex_(ev.require(event, "at"), "at")
        number = ev.integer(ev.require(event, "number"), "number")
        if number not in NUMBERS:
            raise MalformedEvent(f"number must be the replacement chip put on the planet (2-6, 8-12), got {number}")
        planet = self.board.planets.get(at)
        if planet is None or planet.marker != marker:
            raise IllegalAction(Refusal("no_marker", marker=marker, hex=list(at)))
        strength = getattr(planet, marker)
        gear = "cannon" if marker == "pirate" else "freight_ring"
        have = fleet.upgrades[player][gear]
        self._require(have >= strength, "marker_too_strong", marker=marker, hex=list(at), strength=strength,
                      player=player, have=have, gear=gear)
        self._require(sum(fleet.ships[player].values()) > 0, "no_ship_to_reach", player=player)
        s.board = self.board.with_planet(at, Planet(planet.resource, number))
        fleet.trophies[player][marker] += 1
        return {"player": player, "conquered": (marker, at)}

    def _on_defeat_pirate(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A ship reached a pirate base with cannons ≥ its strength; ``number`` is the replacement chip."""
        return self._conquer(event, "pirate")

    def _on_terraform(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A ship reached an ice planet with freight rings ≥ its strength; ``number`` is the replacement chip."""
        return self._conquer(event, "ice")

    def _on_reveal(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """A face-down chip turned up when a ship reached the system: a number, or a marker with strength."""
        player = self._flight_player(event)
        at = ev.hex_(ev.require(event, "at"), "at")
        planet = self.board.planets.get(at)
        if planet is None or not planet.hidden:
            raise IllegalAction(Refusal("no_hidden_chip", hex=list(at)))
        shown = {k: event[k] for k in ("number", "pirate", "ice") if event.get(k) is not None}
        if len(shown) != 1:
            raise MalformedEvent("reveal names exactly one of number, pirate, ice")
        (kind, value), = shown.items()
        ev.integer(value, kind)
        if (kind == "number" and value not in NUMBERS) or (kind != "number" and not 1 <= value <= 12):
            raise MalformedEvent(f"{kind} {value} does not exist")
        self.state.board = self.board.with_planet(at, Planet(planet.resource, **{kind: value}))
        return {"player": player, "revealed": at}

    # --- the turn and the end ------------------------------------------------------------------------
    def ships_in_space(self, player: int) -> int:
        """The player's colony and trade ships in space.  While there is one, the flight phase is owed before
        the turn may end: seed 003 skips it only with no ship (「宇宙船が1つもない場合、このフェイズを
        スキップします」), and skipping it would also skip the black ball's encounter."""
        return sum(self.fleet.ships[player].values())

    def flight_owed(self) -> bool:
        """The turn cannot end yet: the build phase is on and the turn's player has a ship in space (the
        mothership must be shaken first).  The screen offers "End turn" only when this is false."""
        return self.state.phase == MAIN and self.ships_in_space(self.state.turn_player) > 0

    def _on_end_turn(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """End of the turn (after the build phase, or after the flight): 15 VP now wins."""
        s = self.state
        self._require_phase(MAIN, FLIGHT)
        ending = s.turn_player
        if s.phase == MAIN:
            ships = self.ships_in_space(ending)
            self._require(ships == 0, "flight_owed", player=ending, ships=ships)
        fields: dict[str, Any] = {"player": ending}
        for p in self._in_turn_order(range(self.n_players)):
            if self.victory_points(p) >= self.options.vp_target:
                s.winner, s.phase = p, GAME_OVER
                return {**fields, "winner": p, "ranking": self.ranking(), "places": self.places()}
        self._start_next_turn()
        fleet = self.fleet
        fleet.shake, fleet.speed = None, None
        return fields

    def _before_event(self, saved: Any) -> tuple[str, list[int]]:
        # VP before the event, for the outcome's ``vp`` (a bulk replay mutates the state in place, so
        # the state itself cannot serve as "before" once the event is applied)
        return saved.phase, [self.victory_points(p) for p in range(self.n_players)]

    def _after_event(self, before: tuple[str, list[int]]) -> dict[str, Any]:
        phase, vps = before
        changed = {p: self.victory_points(p) for p in range(self.n_players) if vps[p] != self.victory_points(p)}
        return {"vp": changed} if changed and phase not in (SETUP_COLONY, SETUP_SPACEPORT) else {}

    def _on_remove_piece(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The umpire takes a colony or spaceport off its site (placed by mistake)."""
        site = ev.edge(ev.require(event, "at"))
        if site not in self.state.buildings:
            raise IllegalAction(Refusal("no_colony_at", site=json_spot(site)))
        player, _ = self.state.buildings.pop(site)
        return {"player": player}

    def ranking(self) -> tuple[int, ...]:
        return tuple(sorted(range(self.n_players),
                            key=lambda p: (-self.victory_points(p), -self.state.players[p].hand.size, p)))

    # --- the replay view -----------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        s, fleet, board = self.state, self.fleet, self.board
        players = []
        for p, st in enumerate(s.players):
            mine = sorted((site, kind) for site, (owner, kind) in s.buildings.items() if owner == p)
            players.append({
                "vp": self.victory_points(p),
                "hand_size": st.hand.size,
                "hand": dict(sorted(st.hand.known.items())),
                "unknown_cards": st.hand.unknown,
                "colonies": [[list(h) for h in site] for site, kind in mine if kind == "colony"],
                "spaceports": [[list(h) for h in site] for site, kind in mine if kind == "spaceport"],
                "half_medals": fleet.half_medals[p],
                "upgrades": dict(fleet.upgrades[p]),
                "ships": dict(fleet.ships[p]),
                "trade_stations": sum(d.count(p) for d in fleet.docks.values()),
                "trophies": dict(fleet.trophies[p]),
                "friendship_markers": sorted(board.stations[h] for h, holder in fleet.friendship.items() if holder == p),
                "friendship_cards": list(fleet.friendship_cards[p]),
            })
        return {
            "players": players,
            "stations": [{"at": list(h), "alien": board.stations[h], "docks": list(fleet.docks[h]),
                          "holder": fleet.friendship[h]} for h in sorted(board.stations)],
            "markers": [{"at": list(h), "kind": pl.marker, "strength": getattr(pl, pl.marker)}
                        for h, pl in sorted(board.planets.items()) if pl.marker],
            "hidden_planets": [list(h) for h, pl in sorted(board.planets.items()) if pl.hidden],
            "turn": {"player": self.turn_player(), "phase": s.phase, "number": s.turn_number,
                     "waiting_for": self.waiting_for()},
            "winner": s.winner,
            "last_roll": None if s.last_dice is None else {
                "dice": list(s.last_dice),
                "payouts": [dict(sorted(s.last_payouts.get(p, {}).items())) for p in range(self.n_players)],
            },
            "last_shake": None if fleet.shake is None else {
                "balls": list(fleet.shake), "speed": fleet.speed,
                "movement": fleet.speed + fleet.upgrades[s.turn_player]["booster"]},
            "bank": dict(s.bank),
            "supply": {"size": fleet.supply.size, "known": dict(sorted(fleet.supply.known.items()))},
            **({"ended_by_time": {"after": s.extra["ended_by_time"]}} if "ended_by_time" in s.extra else {}),
        }


GAMES["starfarers"] = StarfarersGame
