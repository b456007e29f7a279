"""What the rest of the board says about the hexes a photo cannot show.

A standard 3-4 set holds a known multiset of number tokens and terrain tiles.  A player who sees 17 of the 18
tokens of a standard set knows the 18th -- the one the robber stands on -- by elimination, for certain.  The
reader does the same (``by_elimination``), under the same conditions a player needs:

- the table plays the standard set (the caller says so: ``STANDARD``; the CatanAI photos' set has three 10s and
  one 3, and on it elimination names a 3 where the robber hides the third 10 -- a set the caller calls ``OTHER``
  is never eliminated from);
- the desert is known (one hex read desert, surely, with no token found on it), so the 18 producing hexes are;
- every number used in the elimination was read surely, and together they fit inside the set (a number read more
  often than the set holds is a misreading or another set: nothing is deduced);
- what is left over names each unknown hex: one unknown hex and one token left, or several unknown hexes and as
  many tokens left that are all the same number (two 10s left for two hidden hexes).

Then the unknown hexes' numbers are as sure as the numbers they came from.  Otherwise nothing is deduced and the
unknown hexes stay asked.  The one hex whose terrain colour was unsure is filled the same way from the tiles
(``unsure_terrain``) but stays asked: tile sets differ more (CatanAI's has four hills and two mountains).
"""

from __future__ import annotations

from collections import Counter

Hex = tuple[int, int]

# The 3-4 board's pieces (companion.rules.board.BASE_SPEC).
TOKEN_SET = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1}
TERRAIN_SET = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}

STANDARD = "standard"  # the table's tokens are the standard 18: the hidden one is known by elimination
OTHER = "other"        # another set (or one not known): nothing is eliminated, a hidden token stays asked
TOKEN_SETS = (STANDARD, OTHER)


def left_over(seen: list, full_set: dict):
    """The one piece of ``full_set`` that ``seen`` lacks, or None: ``seen`` must hold one piece fewer than the
    set and never more of a kind than the set has (a surplus means a misreading or another set)."""
    missing = missing_pieces(seen, full_set)
    return missing[0] if missing is not None and len(missing) == 1 else None


def missing_pieces(seen: list, full_set: dict) -> list | None:
    """The pieces of ``full_set`` that ``seen`` lacks (sorted), or None when ``seen`` holds more of a kind than
    the set has, or a kind the set has not."""
    count = Counter(seen)
    if any(count[kind] > n for kind, n in full_set.items()) or set(count) - set(full_set):
        return None
    return [kind for kind, n in full_set.items() for _ in range(n - count[kind])]


def by_elimination(numbers: dict[Hex, int | None], terrains: dict[Hex, str], unsure: set[Hex],
                   desert_sure: bool = True, token_set: str = STANDARD) -> dict[Hex, int]:
    """{hex: number} for the producing hexes whose number the photo does not give surely (``None``, or read but
    in ``unsure``), when the set's tokens left over by the sure ones name each of them; otherwise {}.

    ``numbers`` and ``terrains`` cover the 19 land hexes; ``desert_sure`` says the one desert was read surely
    (no token on it, its colour not in doubt).  Exact: with the standard set and every number it uses read
    right, what it returns is right."""
    if token_set != STANDARD or not desert_sure:
        return {}
    deserts = [h for h, t in terrains.items() if t == "desert"]
    producing = [h for h, t in terrains.items() if t != "desert"]
    if len(deserts) != 1 or len(producing) != sum(TOKEN_SET.values()):
        return {}
    unknown = [h for h in producing if numbers.get(h) is None or h in unsure]
    if not unknown:
        return {}
    missing = missing_pieces([numbers[h] for h in producing if h not in unknown], TOKEN_SET)
    if missing is None or len(missing) != len(unknown) or len(set(missing)) != 1:
        return {}  # a surplus (misread, or another set), or two different tokens for two unknown hexes
    return {h: missing[0] for h in unknown}


def surplus(numbers: dict[Hex, int | None], token_set: dict[int, int] = TOKEN_SET) -> list[tuple[int, int, int]]:
    """(number, hexes holding it, tokens of it in the standard set) for each number held more often than the set
    has it, smallest first: a misreading, or the table's set is not the standard one.  ``token_set``: the 3-4
    board's (default) or the 5-6 board's."""
    count = Counter(n for n in numbers.values() if n is not None)
    return [(n, count[n], token_set.get(n, 0)) for n in sorted(count) if count[n] > token_set.get(n, 0)]


def surplus_note(numbers: dict[Hex, int | None]) -> str | None:
    """Said when the numbers read hold more of one number than the standard set has ("10 read 3 times (the set
    has 2)"): a misreading, or the table's set is not the standard one."""
    over = surplus(numbers)
    if not over:
        return None
    said = ", ".join(f"{n} read {k} times (the set has {has})" for n, k, has in over)
    return f"{said}: a misreading, or not the standard set of tokens"


def unsure_terrain(terrains: dict[Hex, str], unsure_colour: set[Hex]) -> tuple[Hex, str] | None:
    """(hex, terrain) for the one hex whose colour was unsure, when the 18 others, read surely, leave exactly
    one tile of the set over; otherwise None."""
    if len(unsure_colour) != 1:
        return None
    (h,) = unsure_colour
    terrain = left_over([t for x, t in terrains.items() if x != h], TERRAIN_SET)
    return (h, terrain) if terrain is not None else None
