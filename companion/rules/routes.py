"""The one longest-route search, for roads (base game) and roads + ships (Seafarers).

Always computed from the pieces, never cached incrementally: the open-source engines that kept
running road components got Longest Road wrong when a settlement cut a road.  A route is a trail
(each piece used once, vertices may repeat) through the player's pieces; it may end at, but not
pass through, a vertex holding another player's building; and it may change between a road and a
ship only at a vertex holding the player's own settlement or city.

Search: a longest trail can always be taken to start at a vertex where it cannot be extended
backwards -- a vertex of odd degree, a vertex where passing is restricted, or (for a component in
which every vertex is even and unrestricted: a circuit) any vertex of it.  Only those starts are
searched, depth-first with the used pieces in a bit mask.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping

from .geometry import Edge, Vertex, edge_vertices


@lru_cache(maxsize=4096)
def memo_longest_route(pieces: frozenset[tuple[Edge, str]], blocked: frozenset[Vertex],
                       own_buildings: frozenset[Vertex]) -> int:
    """:func:`longest_route` remembered by its complete input (the pieces and the buildings on their
    corners).  Not an incremental cache: equal inputs give equal lengths, so it cannot drift; it
    saves the search for players whose pieces an event did not touch.
    """
    return longest_route(dict(pieces), blocked, own_buildings)


def longest_route(pieces: Mapping[Edge, str] | Iterable[Edge],
                  blocked: Iterable[Vertex] = (),
                  own_buildings: Iterable[Vertex] = (),
                  ends: Mapping[Edge, tuple[Vertex, Vertex]] | None = None) -> int:
    """Length of the longest route through ``pieces``.

    ``pieces`` maps each of the player's edges to its kind (``"road"``/``"ship"``), or is a plain
    iterable of road edges.  ``blocked`` are vertices with another player's building;
    ``own_buildings`` the vertices with the player's own settlement/city (where road and ship join);
    ``ends`` an optional precomputed edge -> end vertices table (a board's).
    """
    if not isinstance(pieces, Mapping):
        pieces = {e: "road" for e in pieces}
    if not pieces:
        return 0
    blocked = set(blocked)
    own = set(own_buildings)
    edges = list(pieces)
    kinds = [pieces[e] for e in edges]
    mixed = len(set(kinds)) > 1

    # vertex -> list of (edge bit, other vertex, kind)
    adjacency: dict[Vertex, list[tuple[int, Vertex, str]]] = {}
    for i, e in enumerate(edges):
        a, b = ends[e] if ends is not None and e in ends else edge_vertices(e)
        adjacency.setdefault(a, []).append((1 << i, b, kinds[i]))
        adjacency.setdefault(b, []).append((1 << i, a, kinds[i]))

    def restricted(v: Vertex) -> bool:
        if v in blocked:
            return True
        if mixed and v not in own:
            links = {k for _, _, k in adjacency[v]}
            return len(links) > 1
        return False

    def extend(v: Vertex, used: int, last_kind: str | None) -> int:
        best = 0
        if last_kind is not None and v in blocked:
            return 0
        switch_ok = not mixed or v in own
        for bit, w, kind in adjacency[v]:
            if used & bit:
                continue
            if last_kind is not None and kind != last_kind and not switch_ok:
                continue
            length = 1 + extend(w, used | bit, kind)
            if length > best:
                best = length
        return best

    starts = [v for v, links in adjacency.items() if len(links) % 2 == 1 or restricted(v)]
    # one start in each component that has none of the above (a circuit)
    seen: set[Vertex] = set()
    for v in starts:
        _flood(v, adjacency, seen)
    for v in adjacency:
        if v not in seen:
            starts.append(v)
            _flood(v, adjacency, seen)
    return max(extend(v, 0, None) for v in starts)


def _flood(start: Vertex, adjacency, seen: set) -> None:
    stack = [start]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        stack.extend(w for _, w, _ in adjacency[v] if w not in seen)


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
