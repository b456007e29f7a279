"""A game's own words where its seed names a thing otherwise than the base game's seed.

One table for the screens, their refusals and the voice: a key here is both a text of
``companion.ui.i18n_extra`` and a clip of ``companion.announce.vocabulary``.
"""

from __future__ import annotations

#: By the record's game name: the thing's key -> its own word's key.  Starfarers' seed (003) and the card
#: game's (001) call ore 鉱石; the base game's seed says 鉄.  English says "ore" in every game.
OWN_WORDS: dict[str, dict[str, str]] = {
    "starfarers": {"ore": "ore_koseki"},
    "card-game": {"ore": "ore_koseki"},
}


def own_word(game: str | None, key: str) -> str:
    """The key of ``game``'s own word for ``key`` (``ore`` -> ``ore_koseki`` in the card game), else ``key``."""
    return OWN_WORDS.get(game or "", {}).get(key, key)
