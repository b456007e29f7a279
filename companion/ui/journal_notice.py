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

#: What is wrong with the file, in Japanese, by the journal's key (its English message names SQLite's own words).
JA_PROBLEMS = {
    "file_not_sqlite": "このアプリの記録ファイルではありません",
    "file_foreign": "別のプログラムのファイルです",
    "file_damaged": "ファイルが壊れています",
    "file_unopenable": "ファイルを開けません（読み書きの権限がないか、ディスクに空きがありません）",
    "journal_newer": "新しいバージョンのアプリで書かれたファイルです（記録の版{version}）",
}


def install() -> None:
    """Add these texts to the app's table (the app's own keys win)."""
    for key, entry in TEXT.items():
        i18n.TEXT.setdefault(key, entry)


install()


def notice_text(rescue: Rescue, lang: str) -> str:
    """The notice in ``lang``: what happened, then the games carried over and those lost.  In Japanese every part
    is said from the rescue's facts (the journal's own messages are English, SQLite's words in them)."""
    ja = lang == "ja"
    problem = ja_problem(rescue) if ja else rescue.problem
    if rescue.kept_as is None or rescue.in_memory:
        lines = [i18n.tr("journal_not_kept", lang, problem=problem)]
    else:
        lines = [i18n.tr("journal_kept", lang, kept=rescue.kept_as.name, problem=problem)]
    recovered = [ja_carried(c) for c in rescue.carried] if ja and rescue.carried else rescue.recovered
    lost = [ja_lost(f) for f in rescue.lost_facts] if ja and rescue.lost_facts else rescue.lost
    if recovered:
        lines.append(i18n.tr("journal_recovered", lang, n=len(recovered), games=("、" if ja else "; ").join(recovered)))
    if lost:
        lines.append(i18n.tr("journal_lost", lang, n=len(lost), games=("、" if ja else "; ").join(lost)))
    return "\n".join(lines)


def ja_problem(rescue: Rescue) -> str:
    template = JA_PROBLEMS.get(rescue.problem_key)
    if template is None:  # a key the notice does not know: the journal's own words rather than nothing
        return rescue.problem
    return template.format(**{"version": "?", **rescue.problem_facts})


def ja_carried(game: dict) -> str:
    parts = [f"{game['events']}件の記録"]
    if game["photos"]:
        parts.append(f"写真{game['photos']}枚")
    if game["voices"]:
        parts.append(f"録音した名前{game['voices']}件")
    return f"{game['title']}（{'、'.join(parts)}" + ("；それ以降は読めませんでした）" if game["cut"] else "）")


def ja_lost(loss: dict) -> str:
    if loss["what"] == "journal":
        return "古い記録ファイル全体"
    if loss["what"] == "list":
        return "ゲームの一覧"
    return f"ゲーム{loss['game']}（{loss['title']}）"


def notice_label(rescue: Rescue, lang: str) -> Label:
    """The notice as a label that wraps to the list's width and grows to its text (plain text: no markup)."""
    label = Label(text=notice_text(rescue, lang), font_size=sp(17), color=(1, 0.85, 0.4, 1), size_hint_y=None,
                  halign="left", valign="top", padding=(dp(8), dp(6)))
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
               texture_size=lambda w, size: setattr(w, "height", size[1]))
    return label
