"""What a photo's pieces say that the game does not: the board read, laid on the game's board, piece by piece.

The reader's lattice names hexes in its own turn (any of six: the land's outline repeats every 60 degrees), so
the reading is first laid on the game's board: of the six turns, the one under which most hexes agree in
terrain and number.  Then every corner and edge is compared:

- a piece on the photo the game does not have ("a red road ... -- add it?"): the event that builds it, as a
  tap on the board would make it (the rules take it or say why not);
- a settlement on the photo where the game has that player's settlement... as a city: the city's build event;
- a piece the game has and the photo does not show, or shows in another colour: the umpire's correction that
  takes it off (``remove_piece``); a piece in another colour also gets its build proposed;
- the robber on another hex than the game's (:func:`robber_difference`): its move, so that the next roll pays
  as the table's robber lets it (a table that adopts the app mid-game has its robber anywhere).

Nothing here applies anything: the app lists these and a person taps the ones that are true.  Pure: no Kivy,
no I/O; the game is read through ``game.board`` and ``game.state`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.board.lattice import LAND, turned

#: Fewer hexes than this agreeing (terrain, and number where both are read) under the best turn: the photo is
#: not of this game's board (or was read too badly to compare).
MIN_AGREEING = 12


class NotThisBoard(ValueError):
    """The photo's board does not lie on the game's board under any turn; ``agreeing``: the most hexes that
    agree under one."""

    def __init__(self, agreeing: int):
        super().__init__(f"only {agreeing} of 19 hexes agree with the game's board under any turn")
        self.agreeing = agreeing


@dataclass(frozen=True)
class Difference:
    what: str            # "missing_in_game" | "missing_on_photo" | "upgraded" | "robber"
    piece: str           # "road" | "settlement" | "city" | "robber"
    player: int | None   # (None for the robber: nobody's)
    color: str           # ("" for the robber)
    at: tuple            # the game's corner or edge: its hexes (the robber: its one hex)
    event: dict          # what a tap records: a build, the umpire's remove_piece, or the robber's move


def best_turn(terrains: dict, numbers: dict, board) -> tuple[int, int]:
    """``(turns, agreeing)``: the turn putting the reading's hexes on the game's, and how many agree."""
    scores = []
    for turns in range(6):
        agree = 0
        for h in LAND:
            tile = board.tiles.get(turned(h, turns))
            if tile is None or not tile.is_land:
                continue
            number = numbers.get(h)
            agree += tile.terrain == terrains.get(h) and (number is None or tile.number is None
                                                         or number == tile.number)
        scores.append((agree, turns))
    agree, turns = max(scores)
    return turns, agree


def _json_spot(spot: tuple) -> list:
    return [list(h) for h in spot]


def differences(pieces: list, terrains: dict, numbers: dict, game, colors: list[str]) -> list[Difference]:
    """What the photo's ``pieces`` (vision.board.pieces.Piece, in the reading's lattice) say that ``game`` does
    not.  ``colors``: each player's colour, by seat.  Raises NotThisBoard when the board does not match."""
    board = game.board
    turns, agree = best_turn(terrains, numbers, board)
    if agree < MIN_AGREEING:
        raise NotThisBoard(agree)
    owner = {c: i for i, c in enumerate(colors)}
    seen_buildings: dict[tuple, tuple[str, str]] = {}
    seen_links: dict[tuple, str] = {}
    for p in pieces:
        spot = tuple(sorted(turned(h, turns) for h in p.at))
        if p.piece == "road":
            seen_links[spot] = p.color
        else:
            seen_buildings[spot] = (p.color, p.piece)
    state = game.state
    found: list[Difference] = []
    for spot, (color, kind) in sorted(seen_buildings.items()):
        if color not in owner:
            continue  # a colour nobody plays: a stray piece, or misread
        player = owner[color]
        there = state.buildings.get(spot)
        if there is not None and there[0] == player:
            if there[1] == "settlement" and kind == "city":
                found.append(Difference("upgraded", "city", player, color, spot, {
                    "type": "build", "player": player, "piece": "city", "at": _json_spot(spot)}))
            # (a city seen as a settlement: from above a city's roof is a settlement's -- not worth asking)
        else:
            found.append(Difference("missing_in_game", kind, player, color, spot,
                                    {"type": "build", "player": player, "piece": kind, "at": _json_spot(spot)}))
    for spot, color in sorted(seen_links.items()):
        if color not in owner:
            continue
        player = owner[color]
        there = state.pieces.get(spot)
        if there is None or there[0] != player:
            found.append(Difference("missing_in_game", "road", player, color, spot,
                                    {"type": "build", "player": player, "piece": "road", "at": _json_spot(spot)}))
    for spot, (player, kind) in sorted(state.buildings.items()):
        if spot not in seen_buildings or owner.get(seen_buildings[spot][0]) != player:
            found.append(Difference("missing_on_photo", kind, player, colors[player], spot,
                                    {"type": "remove_piece", "at": _json_spot(spot)}))
    for spot, (player, kind) in sorted(state.pieces.items()):
        if kind == "road" and (spot not in seen_links or owner.get(seen_links[spot]) != player):
            found.append(Difference("missing_on_photo", kind, player, colors[player], spot,
                                    {"type": "remove_piece", "at": _json_spot(spot)}))
    return found


def robber_difference(robber, terrains: dict, numbers: dict, game) -> Difference | None:
    """The robber where the photo shows it (``robber``: its hex in the reading's lattice, None when none was
    seen), when the game has it elsewhere: the move that puts it there.  None when they agree, when the photo
    shows none, and while a 7's discards are owed -- the robber moves after them, and a move recorded before
    would leave the 7's own move nowhere to go (the row comes back once the discards are in)."""
    if robber is None or game.state.phase == "discard":
        return None
    turns, _agree = best_turn(terrains, numbers, game.board)
    at = turned(tuple(robber), turns)
    if at == game.state.robber or at not in game.board.land:
        return None
    return Difference("robber", "robber", None, "", (at,), {"type": "move_robber", "to": list(at)})


#: Refusals that say when a piece may be built or who pays for it, not where it stands: the turn, the phase, the
#: cards.  A piece the photo shows that the game lacks was built at the table already (a table that adopts the
#: app mid-game, or built without telling it), so Check the board records it as the umpire records what the
#: table shows (``forced``), as the play screen's "Record anyway" does.  Any other refusal (too close to another
#: building, a road nothing of its colour reaches, a side already taken) is said and nothing is recorded.
NOT_WHERE = frozenset({"wrong_phase", "out_of_turn", "cannot_afford", "special_build_not_queued",
                       "special_build_over"})


def as_the_table_shows(game, event: dict, *, road_beside: bool = False) -> tuple[dict | None, object | None]:
    """How to record ``event`` (a piece the photo shows that ``game`` lacks): ``(event to record, None)``, or
    ``(None, objection)`` -- the rules' error or warning saying why it is not recorded.

    As it is when the rules take it.  A piece refused only for when it comes or who pays (``NOT_WHERE``: the
    turn, the phase, the cards) is on the table already -- a table that adopts the app mid-game, or built
    without telling it -- and is recorded as the umpire records what the table shows (the event ``forced``, as
    "Record anyway" records it), when forcing it breaks nothing else; but a settlement with no road of its
    player in the game, where the photo shows that player's road beside it (``road_beside``), is taken: its
    roads join it once it is recorded (a network whose set-up settlement the photo was unsure of: test4_1's red
    one).  A placement the rules refuse (too close, not connected, taken) is not recorded.  Each is tried on a
    copy of the game; ``game`` is not changed."""
    from companion.rules.errors import IllegalAction, RulesError

    try:
        game.copy().push(dict(event))
        return dict(event), None
    except IllegalAction as error:
        if error.refusal.code not in NOT_WHERE:
            return None, error
    except RulesError as error:
        return None, error
    forced = dict(event, forced=True)
    try:
        outcome = game.copy().push(dict(forced))
    except RulesError as error:
        return None, error
    for warning in outcome.warnings:
        code = getattr(getattr(warning, "refusal", None), "code", None)
        if code not in NOT_WHERE and not (code == "settlement_not_connected" and road_beside):
            return None, warning  # forced, it would break a rule of where it stands: said, not recorded
    return forced, None


def next_in_setup(pending: list[Difference], game) -> Difference | None:
    """In the set-up, the difference among ``pending`` that the set-up takes next: the placing player's
    settlement (one with a road of theirs beside it first), then that player's road touching it; None when the
    game is past its set-up or no pending piece is the one it waits for.  The pieces of a board adopted
    mid-game go into the set-up in its own order (0, 1, 2, 3, 3, 2, 1, 0), so each is recorded as a tap on the
    board would record it and the game leaves the set-up for its first roll."""
    state = game.state
    if state.phase not in ("setup_settlement", "setup_road"):
        return None
    player = game.setup_order()[state.setup_step]
    board = game.board
    mine = [d for d in pending if d.player == player and d.what == "missing_in_game"]
    if state.phase == "setup_road":
        return next((d for d in mine if d.piece in game.link_pieces()
                     and state.setup_vertex in board.edge_vertices.get(d.at, ())), None)
    links = {d.at for d in mine if d.piece in game.link_pieces()}
    links |= {e for e, (owner, _piece) in state.pieces.items() if owner == player}
    placed = {v for v, (owner, _piece) in state.buildings.items() if owner == player}

    def network(v) -> set:  # the corners the player's roads (on the photo and in the game) join to ``v``
        seen, todo = {v}, [v]
        while todo:
            for e in board.vertex_edges[todo.pop()]:
                if e in links:
                    for w in board.edge_vertices[e]:
                        if w not in seen:
                            seen.add(w)
                            todo.append(w)
        return seen

    # a player's two set-up settlements anchor two networks on the table: the second is picked from another
    # network than the first (else the other network's roads join nothing of theirs and are refused)
    settlements = [d for d in mine if d.piece == "settlement"]
    return min(settlements, key=lambda d: (bool(network(d.at) & placed),
                                           not any(e in links for e in board.vertex_edges[d.at]), d.at),
               default=None)
