"""What the start screen says when the journal could not be opened (see :mod:`companion.record.rescue`).

The app starts anyway, with a fresh journal; this names the file that was kept aside (untouched), what was wrong
with it, which games were carried over (they are in the resume list below the notice) and which could not be
read.  The texts are English and Japanese like every other; a file's own problem is the journal's message.
"""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.label import Label

from ..record.rescue import Rescue
from . import i18n

TEXT: dict[str, dict[str, str]] = {
    "journal_kept": {
        "en": "The game journal could not be opened, so a fresh one keeps the games from now on. "
              "The old file was kept, untouched, as {kept}.\nWhat is wrong: {problem}",
        "ja": "ゲームの記録ファイルを開けなかったため、これからのゲームは新しい記録ファイルに残します。"
              "古いファイルは手を付けずに {kept} として残しました。\n問題：{problem}"},
    "journal_not_kept": {
        "en": "The game journal could not be opened, and no fresh one could be made: games are NOT kept after "
              "the app closes.\nWhat is wrong: {problem}",
        "ja": "ゲームの記録ファイルを開けず、新しいファイルも作れません。アプリを閉じるとゲームは残りません。\n問題：{problem}"},
    "journal_recovered": {"en": "Carried over from it ({n}): {games}", "ja": "古いファイルから引き継いだゲーム（{n}）：{games}"},
    "journal_lost": {"en": "Could not be read ({n}): {games}", "ja": "読めなかったもの（{n}）：{games}"},
}


def install() -> None:
    """Add these texts to the app's table (the app's own keys win)."""
    for key, entry in TEXT.items():
        i18n.TEXT.setdefault(key, entry)


install()


def notice_text(rescue: Rescue, lang: str) -> str:
    """The notice in ``lang``: what happened, then the games carried over and those lost."""
    if rescue.kept_as is None or rescue.in_memory:
        lines = [i18n.tr("journal_not_kept", lang, problem=rescue.problem)]
    else:
        lines = [i18n.tr("journal_kept", lang, kept=rescue.kept_as.name, problem=rescue.problem)]
    if rescue.recovered:
        lines.append(i18n.tr("journal_recovered", lang, n=len(rescue.recovered), games="; ".join(rescue.recovered)))
    if rescue.lost:
        lines.append(i18n.tr("journal_lost", lang, n=len(rescue.lost), games="; ".join(rescue.lost)))
    return "\n".join(lines)


def notice_label(rescue: Rescue, lang: str) -> Label:
    """The notice as a label that wraps to the list's width and grows to its text (plain text: no markup)."""
    label = Label(text=notice_text(rescue, lang), font_size=sp(17), color=(1, 0.85, 0.4, 1), size_hint_y=None,
                  halign="left", valign="top", padding=(dp(8), dp(6)))
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
               texture_size=lambda w, size: setattr(w, "height", size[1]))
    return label
