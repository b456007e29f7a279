"""What the rest of the board says about the one hex a photo cannot show.

A standard 3-4 set holds a known multiset of number tokens and terrain tiles.  When the photo shows all but
one of them surely, the missing one is the set's only piece left over: the token under the robber, or the
terrain of the one hex whose colour was unsure.  That is a deduction from the set, not a reading of the
photo -- and sets differ in the wild: the only labelled token photos we have (CatanAI's three layouts) hold
three 10s and one 3, and two of them four hills and two mountains.  On those, the token deduced under the
robber is wrong on 2 of the 4 photos where it can be made.  So a deduced value fills the hex (one tap fewer
when it is right) but the hex stays unsure, to be confirmed, and the reading lists it as deduced.
"""

from __future__ import annotations

from collections import Counter

Hex = tuple[int, int]

# The 3-4 board's pieces (companion.rules.board.BASE_SPEC).
TOKEN_SET = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
TERRAIN_SET = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}


def left_over(seen: list, full_set: dict):
    """The one piece of ``full_set`` that ``seen`` lacks, or None: ``seen`` must hold one piece fewer than the
    set and never more of a kind than the set has (a surplus means a misreading or another set)."""
    count = Counter(seen)
    if any(count[kind] > n for kind, n in full_set.items()) or set(count) - set(full_set):
        return None
    missing = [kind for kind, n in full_set.items() for _ in range(n - count[kind])]
    return missing[0] if len(missing) == 1 else None


def hidden_number(numbers: dict[Hex, int | None], terrains: dict[Hex, str], robber: Hex | None,
                  unsure: set[Hex]) -> tuple[Hex, int] | None:
    """(hex, number) for the token under the robber, when every other producing hex's number was read
    surely and they leave exactly one token of the set over; otherwise None (keep asking)."""
    if robber is None or terrains.get(robber) in (None, "desert") or numbers.get(robber) is not None:
        return None
    others = [h for h, t in terrains.items() if t != "desert" and h != robber]
    if any(numbers.get(h) is None or h in unsure for h in others):
        return None
    number = left_over([numbers[h] for h in others], TOKEN_SET)
    return (robber, number) if number is not None else None


def unsure_terrain(terrains: dict[Hex, str], unsure_colour: set[Hex]) -> tuple[Hex, str] | None:
    """(hex, terrain) for the one hex whose colour was unsure, when the 18 others, read surely, leave exactly
    one tile of the set over; otherwise None."""
    if len(unsure_colour) != 1:
        return None
    (h,) = unsure_colour
    terrain = left_over([t for x, t in terrains.items() if x != h], TERRAIN_SET)
    return (h, terrain) if terrain is not None else None
