"""Hex geometry in axial coordinates, pointy-top.

A hex is ``(q, r)``.  A vertex (corner) is named by the three hexes that meet there and an edge
(side) by the two hexes either side of it, each as a sorted tuple.  These names need no corner
numbering and no knowledge of which hexes a board uses, so a person or another tool can write them
down directly; hexes off the board are simply positions no tile occupies.

Everything here is pure arithmetic; the per-board tables are built in :mod:`companion.rules.board`.
"""

from __future__ import annotations

from functools import lru_cache

Hex = tuple[int, int]
Vertex = tuple[Hex, Hex, Hex]
Edge = tuple[Hex, Hex]

# Neighbour directions in order around a hex, so that consecutive directions share a corner.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes around ``h``, in direction order."""
    return tuple(add(h, d) for d in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def make_vertex(a: Hex, b: Hex, c: Hex) -> Vertex:
    """The vertex where three mutually adjacent hexes meet (validated)."""
    hexes = tuple(sorted((tuple(a), tuple(b), tuple(c))))
    x, y, z = hexes
    if not (distance(x, y) == distance(y, z) == distance(x, z) == 1):
        raise ValueError(f"hexes {list(map(list, hexes))} do not meet at one corner")
    return hexes  # type: ignore[return-value]


def make_edge(a: Hex, b: Hex) -> Edge:
    """The edge between two adjacent hexes (validated)."""
    x, y = sorted((tuple(a), tuple(b)))
    if distance(x, y) != 1:
        raise ValueError(f"hexes {list(x)} and {list(y)} are not neighbours, so they share no edge")
    return (x, y)  # type: ignore[return-value]


def hex_vertices(h: Hex) -> tuple[Vertex, ...]:
    """The six corners of ``h``, in order around it."""
    ns = neighbours(h)
    return tuple(tuple(sorted((h, ns[i], ns[(i + 1) % 6]))) for i in range(6))  # type: ignore[misc]


def hex_edges(h: Hex) -> tuple[Edge, ...]:
    """The six sides of ``h``, in direction order."""
    return tuple(tuple(sorted((h, n))) for n in neighbours(h))  # type: ignore[misc]


@lru_cache(maxsize=65536)  # pure and asked for again and again by the route search
def edge_vertices(e: Edge) -> tuple[Vertex, Vertex]:
    """The two end points of an edge: the corners shared by both of its hexes."""
    a, b = e
    common = [n for n in neighbours(a) if distance(n, b) == 1]
    return tuple(tuple(sorted((a, b, c))) for c in common)  # type: ignore[return-value]


def vertex_edges(v: Vertex) -> tuple[Edge, Edge, Edge]:
    """The three edges that meet at a vertex."""
    a, b, c = v
    return ((a, b), (a, c), (b, c))  # already sorted, since v is


def vertex_neighbours(v: Vertex) -> tuple[Vertex, Vertex, Vertex]:
    """The three vertices one edge away."""
    out = []
    for e in vertex_edges(v):
        p, q = edge_vertices(e)
        out.append(q if p == v else p)
    return tuple(out)  # type: ignore[return-value]


# --- symmetries (used by tests: Longest Road must not depend on how the board is turned) ---

def rotate(h: Hex, steps: int = 1) -> Hex:
    """Rotate ``h`` by 60° × steps about the origin."""
    q, r = h
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def reflect(h: Hex) -> Hex:
    """Mirror ``h`` across the q = r·… axis that swaps r and s (s = -q - r)."""
    q, r = h
    return (q, -q - r)


def map_vertex(v: Vertex, f) -> Vertex:
    return tuple(sorted(f(h) for h in v))  # type: ignore[return-value]


def map_edge(e: Edge, f) -> Edge:
    return tuple(sorted(f(h) for h in e))  # type: ignore[return-value]


def pixel_center(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex in a y-up plane (for drawing)."""
    q, r = h
    x = size * 3 ** 0.5 * (q + r / 2)
    y = -size * 1.5 * r
    return (x, y)


def vertex_point(v: Vertex, size: float = 1.0) -> tuple[float, float]:
    xs, ys = zip(*(pixel_center(h, size) for h in v))
    return (sum(xs) / 3, sum(ys) / 3)


def edge_point(e: Edge, size: float = 1.0) -> tuple[float, float]:
    (x1, y1), (x2, y2) = (pixel_center(h, size) for h in e)
    return ((x1 + x2) / 2, (y1 + y2) / 2)
