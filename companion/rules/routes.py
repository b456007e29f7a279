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
route uses a whole part.
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

    The pieces fall apart into parts that no route can leave (split at blocked corners, and between
    road and ship where the player has no building); parts are searched largest first, a part no
    longer than the best route found is skipped, and a search stops as soon as a route uses every
    piece of its part -- nothing can be longer.
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

    # vertex -> list of (edge index, other vertex, kind)
    adjacency: dict[Vertex, list[tuple[int, Vertex, str]]] = {}
    for i, e in enumerate(edges):
        a, b = ends[e] if ends is not None and e in ends else edge_vertices(e)
        adjacency.setdefault(a, []).append((i, b, kinds[i]))
        adjacency.setdefault(b, []).append((i, a, kinds[i]))

    # Parts: edges joined at a vertex a route may pass through (same kind only, where changing is barred).
    parent = list(range(len(edges)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for v, links in adjacency.items():
        if v in blocked or len(links) < 2:
            continue
        switch_ok = not mixed or v in own
        for j in range(1, len(links)):
            for k in range(j):
                if switch_ok or links[j][2] == links[k][2]:
                    parent[find(links[j][0])] = find(links[k][0])
    parts: dict[int, list[int]] = {}
    for i in range(len(edges)):
        parts.setdefault(find(i), []).append(i)

    def restricted(v: Vertex) -> bool:
        if v in blocked:
            return True
        if mixed and v not in own:
            return len({k for _, _, k in adjacency[v]}) > 1
        return False

    best = 0
    for members in sorted(parts.values(), key=len, reverse=True):
        size = len(members)
        if size <= best:
            break  # no route in this or any smaller part can be longer
        bit = {i: 1 << n for n, i in enumerate(members)}
        corners = {v for i in members for v in (ends[edges[i]] if ends is not None and edges[i] in ends
                                                 else edge_vertices(edges[i]))}
        local = {v: [(bit[i], w, kind) for i, w, kind in adjacency[v] if i in bit] for v in corners}
        found = _search_part(local, blocked, own, mixed, size,
                             [v for v in sorted(corners) if len(local[v]) % 2 == 1 or restricted(v)]
                             or [min(corners)])
        best = max(best, found)
    return best


class _Done(Exception):
    """A route through every piece of a part was found: nothing can be longer."""


def _search_part(adjacency, blocked, own, mixed: bool, size: int, starts) -> int:
    """Depth-first search of one part from the vertices where a longest trail can begin (see module
    docstring), with the used pieces in a bit mask.

    Runs of pieces through corners a route can only pass straight through (two pieces, no building
    in the way, no road-ship change barred) are searched as one weighted link: a route that enters
    such a run goes to its end, so only the corners where routes branch, stop or start are visited.
    """
    anchors = set(starts)
    for v, links in adjacency.items():
        if len(links) != 2 or v in blocked or (mixed and v not in own and links[0][2] != links[1][2]):
            anchors.add(v)
    # links between anchors: (bit, other anchor, length, kind leaving this anchor, kind arriving there)
    links_of: dict[Vertex, list[tuple[int, Vertex, int, str, str]]] = {v: [] for v in anchors}
    walked = 0
    n = 0
    for a in sorted(anchors):
        for piece, w, kind in adjacency[a]:
            if walked & piece:
                continue
            walked |= piece
            length, first, last, here = 1, kind, kind, w
            while here not in anchors:  # a pass-through corner: exactly one way on
                piece, w, last = next(link for link in adjacency[here] if not walked & link[0])
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

    def extend(v: Vertex, used: int, last_kind: str | None, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
            if best == size:
                raise _Done
        if last_kind is not None and v in blocked:
            return
        switch_ok = not mixed or v in own
        for bit, w, steps, leaving, arriving in links_of[v]:
            if used & bit:
                continue
            if last_kind is not None and leaving != last_kind and not switch_ok:
                continue
            extend(w, used | bit, arriving, length + steps)

    try:
        for v in starts:
            extend(v, 0, None, 0)
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
