"""The one longest-route search, for roads (base game) and roads + ships (Seafarers).

Always computed from the pieces, never cached incrementally: the open-source engines that kept
running road components got Longest Road wrong when a settlement cut a road.  A route is a trail
(each piece used once, vertices may repeat) through the player's pieces; it may end at, but not
pass through, a vertex holding another player's building; and it may change between a road and a
ship only at a vertex holding the player's own settlement or city.

Search: the pieces split into parts no route can leave (at blocked corners, and between road and
ship where the player has no building); parts are searched largest first and skipped when no longer
than the best route found.  Within a part a longest trail can always be taken to start at a vertex
where it cannot be extended backwards -- a vertex of odd degree, a vertex where passing is
restricted, or (for a part in which every vertex is even and unrestricted: a circuit) any vertex of
it.  Only those starts are searched, depth-first with the used pieces in a bit mask; runs of pieces
through plain two-piece corners are walked as one weighted link, and the search stops as soon as a
route reaches the part's bound: its pieces less (k - 2) / 2 when k > 2 corners have odd degree (a
trail leaves at most two odd corners, and each unused piece mends at most two).  Corners are named
by small ints inside the search (``_vertex_id``: hashing an int is far cheaper than a vertex's four
nested tuples); both tables involved are pure geometry, so equal inputs always give equal answers.
"""

from __future__ import annotations

from functools import lru_cache
from collections.abc import Mapping

from .geometry import Edge, Vertex, edge_vertices

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Iterable


@lru_cache(maxsize=4096)
def memo_longest_route(pieces: frozenset[tuple[Edge, str]], blocked: frozenset[Vertex],
                       own_buildings: frozenset[Vertex]) -> int:
    """:func:`longest_route` remembered by its complete input (the pieces and the buildings on their
    corners).  Not an incremental cache: equal inputs give equal lengths, so it cannot drift; it
    saves the search for players whose pieces an event did not touch.
    """
    return longest_route(dict(pieces), blocked, own_buildings)


def _vertex_id(v: Vertex) -> int:
    """A small int naming a corner: its three hexes' coordinate sums (three times the corner's position,
    so distinct corners differ).  Ints hash in nanoseconds; a vertex, four nested tuples, does not."""
    (q1, r1), (q2, r2), (q3, r3) = v
    return (q1 + q2 + q3) * 1_000_003 + (r1 + r2 + r3)


@lru_cache(maxsize=65536)  # pure geometry: equal edges, equal answers
def _edge_end_ids(e: Edge) -> tuple[int, int]:
    a, b = edge_vertices(e)
    return _vertex_id(a), _vertex_id(b)


def longest_route(pieces: Mapping[Edge, str] | Iterable[Edge],
                  blocked: Iterable[Vertex] = (),
                  own_buildings: Iterable[Vertex] = ()) -> int:
    """Length of the longest route through ``pieces``.

    ``pieces`` maps each of the player's edges to its kind (``"road"``/``"ship"``), or is a plain
    iterable of road edges.  ``blocked`` are vertices with another player's building;
    ``own_buildings`` the vertices with the player's own settlement/city (where road and ship join).

    The pieces fall apart into parts that no route can leave (split at blocked corners, and between
    road and ship where the player has no building); parts are searched largest first, a part whose
    bound is no longer than the best route found is skipped, and a search stops as soon as a route
    reaches its part's bound -- nothing can be longer.  The bound: a trail's pieces leave at most two
    corners of odd degree, so in a part with ``k > 2`` odd corners at least ``(k - 2) / 2`` pieces stay
    unused (each unused piece changes the parity of two corners).
    """
    if not isinstance(pieces, Mapping):
        pieces = dict.fromkeys(pieces, "road")
    if not pieces:
        return 0
    blocked_ids = {_vertex_id(v) for v in blocked}
    own_ids = {_vertex_id(v) for v in own_buildings}
    kinds = list(pieces.values())
    mixed = len(set(kinds)) > 1

    # corner -> [(piece bit, other corner, kind)]
    edge_ends = [_edge_end_ids(e) for e in pieces]
    adjacency: dict[int, list[tuple[int, int, str]]] = {}
    for i, (a, b) in enumerate(edge_ends):
        bit, kind = 1 << i, kinds[i]
        if a in adjacency:
            adjacency[a].append((bit, b, kind))
        else:
            adjacency[a] = [(bit, b, kind)]
        if b in adjacency:
            adjacency[b].append((bit, a, kind))
        else:
            adjacency[b] = [(bit, a, kind)]

    best = 0
    for size, corners, members in _parts(adjacency, edge_ends, kinds, blocked_ids, own_ids, mixed):
        if size <= best:
            break  # no route in this or any smaller part can be longer
        odd = 0
        starts = []
        for v in corners:
            links = adjacency[v]
            # (a corner where parts meet -- blocked, or road meeting ship -- is a start whatever its degree)
            degree = len(links) if members is None else sum(1 for link in links if link[0] & members)
            if degree & 1:
                odd += 1
                starts.append(v)
            elif v in blocked_ids or (mixed and v not in own_ids and len({k for _, _, k in links}) > 1):
                starts.append(v)
        bound = size - max(0, (odd - 2) // 2)
        if bound <= best:
            continue
        starts.sort()
        found = _search_part(adjacency, corners, members, blocked_ids, own_ids, mixed, bound,
                             starts or [min(corners)])
        if found > best:
            best = found
    return best


def _parts(adjacency, edge_ends, kinds, blocked, own, mixed: bool) -> list[tuple[int, list[int], int | None]]:
    """``(pieces, corners, piece bits or None for all)`` of each part no route can leave, largest first.

    Plain roads with no other player's building among them: the connected pieces.  Otherwise pieces
    join only at a corner a route may pass through (not blocked; where the player has no building,
    only pieces of one kind); a corner where a part ends may belong to several parts.
    """
    parts = []
    if not blocked and not mixed:
        seen: set[int] = set()
        for first in adjacency:
            if first in seen:
                continue
            seen.add(first)
            corners = [first]
            todo = [first]
            degrees = 0
            while todo:
                links = adjacency[todo.pop()]
                degrees += len(links)
                for _, w, _ in links:
                    if w not in seen:
                        seen.add(w)
                        corners.append(w)
                        todo.append(w)
            parts.append((degrees // 2, corners, None))
    else:
        part_of = [-1] * len(kinds)
        for first in range(len(kinds)):
            if part_of[first] >= 0:
                continue
            n = len(parts)
            part_of[first] = n
            size = 1
            members = 1 << first
            corners_seen = set(edge_ends[first])
            todo = [first]
            while todo:
                i = todo.pop()
                kind = kinds[i]
                for v in edge_ends[i]:
                    if v in blocked:
                        continue
                    same_kind_only = mixed and v not in own
                    for bit, _, other_kind in adjacency[v]:
                        j = bit.bit_length() - 1
                        if part_of[j] < 0 and (not same_kind_only or other_kind == kind):
                            part_of[j] = n
                            size += 1
                            members |= bit
                            corners_seen.update(edge_ends[j])
                            todo.append(j)
            parts.append((size, sorted(corners_seen), members))
    if len(parts) > 1:
        parts.sort(key=lambda part: part[0], reverse=True)
    return parts


class _Done(Exception):
    """A route as long as its part's bound was found: nothing can be longer."""


def _search_part(adjacency, corners, members, blocked, own, mixed: bool, bound: int, starts) -> int:
    """Depth-first search of one part from the corners where a longest trail can begin (see module
    docstring), with the used pieces in a bit mask, stopping at ``bound``.

    Runs of pieces through corners a route can only pass straight through (two pieces, no building
    in the way, no road-ship change barred) are searched as one weighted link: a route that enters
    such a run goes to its end, so only the corners where routes branch, stop or start are visited.
    """
    anchors = set(starts)
    for v in corners:
        links = adjacency[v]
        if len(links) != 2 or v in blocked or (mixed and v not in own and links[0][2] != links[1][2]):
            anchors.add(v)
    # links between anchors: (bit, other anchor, length, kind leaving this anchor, kind arriving there)
    links_of: dict[int, list[tuple[int, int, int, str, str]]] = {v: [] for v in anchors}
    walked = 0
    n = 0
    if members is not None:  # a corner where parts meet also holds other parts' pieces
        walked = ~members
    for a in sorted(anchors):
        for piece, w, kind in adjacency[a]:
            if walked & piece:
                continue
            walked |= piece
            length, first, last, here = 1, kind, kind, w
            while here not in anchors:  # a pass-through corner: exactly two pieces, one way on
                one, other = adjacency[here]
                piece, w, last = other if walked & one[0] else one
                walked |= piece
                length += 1
                here = w
            bit = 1 << n
            n += 1
            links_of[a].append((bit, here, length, first, last))
            if here != a:
                links_of[here].append((bit, a, length, last, first))
            else:  # a loop back to its own anchor can be run either way round
                links_of[a].append((bit, a, length, last, first))
    best = 0
    switch_anywhere = not mixed
    stop_at = {v for v in links_of if v in blocked}  # a route may end at, never pass, another's building

    def extend(v: int, used: int, last_kind: str, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
            if best >= bound:
                raise _Done
        if v in stop_at:
            return
        switch_ok = switch_anywhere or v in own
        for bit, w, steps, leaving, arriving in links_of[v]:
            if used & bit or (leaving != last_kind and not switch_ok):
                continue
            extend(w, used | bit, arriving, length + steps)

    try:
        for v in starts:
            for bit, w, steps, leaving, arriving in links_of[v]:  # the first link: any kind, even from a blocked corner
                extend(w, bit, arriving, steps)
    except _Done:
        pass
    return best


def longest_route_brute_force(pieces: Mapping[Edge, str] | Iterable[Edge],
                              blocked: Iterable[Vertex] = (),
                              own_buildings: Iterable[Vertex] = ()) -> int:
    """The same answer by trying every start vertex and every order: for cross-checking tests."""
    if not isinstance(pieces, Mapping):
        pieces = {e: "road" for e in pieces}
    blocked = set(blocked)
    own = set(own_buildings)
    mixed = len(set(pieces.values())) > 1
    best = 0

    def walk(v: Vertex, used: frozenset, last: str | None) -> None:
        nonlocal best
        best = max(best, len(used))
        if last is not None and v in blocked:
            return
        for e, kind in pieces.items():
            if e in used or v not in edge_vertices(e):
                continue
            if last is not None and mixed and kind != last and v not in own:
                continue
            a, b = edge_vertices(e)
            walk(b if a == v else a, used | {e}, kind)

    for e in pieces:
        for v in edge_vertices(e):
            walk(v, frozenset(), None)
    return best
