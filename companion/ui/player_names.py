"""Player names typed on the new-game screen: the same rule as the tournament desk's (``companion.plain_text``:
NFC, nothing that does not show), refused in the player's language with the seat and the character named.

Names are shown in labels with Kivy markup (the VP board's ``[b]name[/b]``): there they go through
``kivy.utils.escape_markup``, so a player called ``[color=ff0000]Aki`` is shown as typed."""

from __future__ import annotations

from ..plain_text import MAX_NAME, NameRefused, clean_name, code_point
from . import i18n

TEXT: dict[str, dict[str, str]] = {
    "name_hidden": {"en": "Player {seat}'s name holds a character that does not show ({code}) at position {pos}: "
                          "type the name without it",
                    "ja": "プレイヤー{seat}の名前の{pos}文字目に見えない文字（{code}）があります。その文字を除いて入力してください"},
    "name_long": {"en": "Player {seat}'s name is {n} characters long; at most {max}",
                  "ja": "プレイヤー{seat}の名前が{n}文字あります。{max}文字までです"},
    "name_twice": {"en": "Players {a} and {b} are both called {name}: give one of them another name",
                   "ja": "プレイヤー{a}と{b}の名前がどちらも{name}です。片方を別の名前にしてください"},
}
for _key, _entry in TEXT.items():
    i18n.TEXT.setdefault(_key, _entry)


def typed_name(text: str, seat: int, lang: str) -> str:
    """The name typed for seat ``seat`` (1-based) as stored: NFC, trimmed; "" for a blank field (the player is
    then named by colour).  A name that cannot be used raises ValueError with the reason in ``lang``."""
    if not text.strip():
        return ""
    try:
        return clean_name(text)
    except NameRefused as error:
        if error.char is not None:
            message = i18n.tr("name_hidden", lang, seat=seat, code=code_point(error.char), pos=error.position)
        else:
            message = i18n.tr("name_long", lang, seat=seat, n=len(text.strip()), max=MAX_NAME)
        raise ValueError(message) from None


def names_apart(names: list[str], lang: str) -> None:
    """Every seat's name (as stored: typed, else its colour's word) told apart from the others, letter case aside:
    two players called Ken made "Ken: place a settlement", "Rob Ken" and the voice's "Ken takes ..." say either.
    Two alike raise ValueError naming both seats, in ``lang``."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(names, 1):
        key = name.casefold()
        if key in seen:
            raise ValueError(i18n.tr("name_twice", lang, a=seen[key], b=seat, name=name))
        seen[key] = seat
