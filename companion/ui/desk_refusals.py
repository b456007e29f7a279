"""The tournament desk's refusals in the app's language.

The desk (``companion.tournament``) refuses in English -- its CLI and server speak English -- and names each
refusal a screen can reach by a key with its facts (``TournamentError.key`` / ``.values``).  The tournament
screen shows those here, in its user's language; English keeps the desk's own sentence, which says the same.
A refusal without a key (the CLI's, the server's) has no words here: a Japanese screen then says that the desk
refused and, in brackets, the desk's own sentence, rather than nothing.
"""

from __future__ import annotations

import re

#: Japanese, by the desk's key; ``{round}``/``{table}`` as the screen's own texts say them (第1ラウンド2卓).
JAPANESE: dict[str, str] = {
    "event_name_empty": "大会名を入力してください",
    "event_exists": "「{name}」という大会はすでにあります",
    "player_name_empty": "参加者の名前を入力してください",
    "player_exists": "「{name}」はすでに「{existing}」として登録されています（大文字と小文字は区別しません）",
    "cannot_seat": "第{round}ラウンド：{n}人では4人卓と3人卓に分けられません（3人、4人、6人以上なら組めます）",
    "no_players": "席決めできる参加者がいません",
    "playoff_needs_round": "{kind}は順位で組みます：先に1ラウンド行ってください",
    "playoff_too_few": "{size}人の{kind}には参加中のプレイヤーが{size}人必要です（現在{n}人）",
    "round_incomplete": "第{round}ラウンドの{tables}卓の結果がまだ入っていません",
    "seated_meanwhile": "第{round}ラウンドは別のデスクで席決めされました。何も保存していません",
    "vp_range": "第{round}ラウンド{table}卓：{name}の勝利点は0から{max}までの整数です（入力：{got}）",
    "no_vp": "第{round}ラウンド{table}卓：{names}の勝利点が入っていません",
    "no_winner": "第{round}ラウンド{table}卓：勝者を選ぶか、「時間切れ」にしてください",
    # (who entered it is a login name, often "desk" or "tablet": left to the English sentence)
    "has_result": "第{round}ラウンド{table}卓にはすでに結果があります。変えるには理由を書いて訂正してください",
    "needs_reason": "第{round}ラウンド{table}卓：訂正には理由が必要です（「訂正の理由」に書いてください）",
    "nothing_to_correct": "第{round}ラウンド{table}卓には訂正する結果がまだありません",
    "nothing_to_confirm": "第{round}ラウンド{table}卓には確認を待つ結果がありません",
    "bad_setting": "{what}は{known}のいずれかです（入力：{got}）",
    # the tournament file itself (DeskFileError): what is wrong with it, inside the notice that it was kept aside
    "file_not_sqlite": "SQLiteのファイルではありません",
    "file_foreign": "別のプログラムのSQLiteデータベースです",
    "file_damaged": "壊れているか、データベースではありません",
    "file_unopenable": "開けません（{error}）",
    "file_newer": "新しい版のコンパニオンで書かれています（形式{version}）",
}

#: The playoff kinds as the Japanese texts name them.
KINDS_JA = {"final": "決勝卓", "semi": "準決勝"}

#: A refusal with no words here, on a Japanese screen.
UNKNOWN_JA = "大会デスクが受け付けませんでした（{message}）"


def refusal_text(error: Exception, lang: str) -> str:
    """What the screen says for the desk's refusal ``error``, in ``lang`` ("en": the desk's own sentence)."""
    message = str(error)
    if lang != "ja":
        return message
    template = JAPANESE.get(getattr(error, "key", "") or "")
    if template is None:
        return UNKNOWN_JA.format(message=message)
    values = dict(getattr(error, "values", {}) or {})
    if "kind" in values:
        values["kind"] = KINDS_JA.get(values["kind"], values["kind"])
    for name in ("names", "tables"):
        if isinstance(values.get(name), (list, tuple)):
            values[name] = "、".join(map(str, values[name]))
    try:
        return template.format(**values)
    except (KeyError, IndexError):  # a refusal raised without a fact its words need: the desk's sentence
        return UNKNOWN_JA.format(message=message)


#: The desk's warnings on a saved result, kept with it in English (the desk's file, its exports): the same
#: sentences in Japanese, read back by their fixed wording.  A warning not listed is shown as it is.
WARNINGS_JA: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"the winner (?P<name>.+) has (?P<vp>\d+) VP, below the target (?P<target>\d+)"),
     "勝者{name}は{vp}点で、目標の{target}点に届いていません"),
    (re.compile(r"(?P<names>.+) scored as many VP as the winner or more"), "{names}は勝者と同点以上です"),
    (re.compile(r"CATAN Studio's rules: organizers may not place time limits on the games"),
     "世界選手権の規定：主催者はゲームに制限時間を設けられません"),
    (re.compile(r"(?P<name>.+) reached the target \((?P<vp>\d+) VP\) but is not the winner"),
     "{name}は目標点（{vp}点）に達していますが勝者ではありません"),
)


def sentence_by_pattern(sentence: str, patterns) -> str | None:
    """``sentence`` in the words of the first of ``patterns`` ((regex, words) pairs) it matches whole, its parts
    put in ("names": a list joined with 、), or None when none matches."""
    for pattern, words in patterns:
        found = pattern.fullmatch(sentence)
        if found:
            values = found.groupdict()
            if "names" in values:
                values["names"] = values["names"].replace(", ", "、")
            return words.format(**values)
    return None


def warning_text(warning: str, lang: str) -> str:
    """A warning the desk kept with a result, in ``lang``."""
    if lang == "ja":
        return sentence_by_pattern(warning, WARNINGS_JA) or warning
    return warning
