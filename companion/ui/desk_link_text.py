"""What the tournament desk and the tablet's link to it say, in the app's language (the Tournament table screen).

The link (:mod:`companion.desk_link`, :mod:`companion.desk_push`) and the desk server speak English: their
sentences are also the command line's and the log's, and the desk is one machine for tablets in any language. A
Japanese screen reads them back by their fixed wording (as :mod:`.desk_refusals` reads the desk's warnings) and
says each in Japanese with its facts (addresses, rounds, tables, names) kept. A sentence not listed here -- a
newer desk's -- is said as "the desk refused" with the desk's own sentence in brackets, never as nothing.
"""

from __future__ import annotations

import re
from typing import Any

from .desk_refusals import sentence_by_pattern

#: (the English sentence as a pattern, the Japanese with the pattern's groups).
SENTENCES_JA: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(pattern), words) for pattern, words in (
    # the link's own (companion.desk_link, companion.desk_push)
    (r"type the desk's address \(shown where the desk server was started\)",
     "本部のアドレスを入力してください（本部のサーバーを起動した画面に表示されています）"),
    (r"(?P<address>.*) is not a desk address: write it as host or host:port",
     "{address} は本部のアドレスではありません。ホスト名、またはホスト名:ポート番号で入力してください"),
    (r"(?P<address>.*): the port must be a number", "{address}：ポート番号は数字で入力してください"),
    (r"the desk at (?P<desk>\S+) does not answer \((?P<why>.*)\)",
     "{desk} の本部が応答しません（{why}）。アドレスとネットワークを確かめてください"),
    (r"the desk at (?P<desk>\S+) stopped answering \((?P<why>.*)\)", "{desk} の本部からの応答が途切れました（{why}）"),
    (r"the desk at (?P<desk>\S+) answered something that is not JSON \(HTTP (?P<status>\d+)\)",
     "{desk} の答えが本部のものではありません（HTTP {status}）。アドレスを確かめてください"),
    (r"the desk at (?P<desk>\S+) answered an unexpected shape",
     "{desk} の答えが本部のものではありません。アドレスを確かめてください"),
    (r"the desk at (?P<desk>\S+) sent a line longer than (?P<n>\d+) bytes",
     "{desk} から長すぎる行（{n}バイト超）が届きました"),
    (r"type the table's pairing code \(shown at the desk\)", "卓のペアリングコードを入力してください（本部に表示されています）"),
    (r"the desk's answer is not a table assignment \((?P<why>.*)\)", "本部の答えが卓の割り当てになっていません（{why}）"),
    (r"the journal cannot be read: (?P<why>.*)", "ゲームの記録（ジャーナル）が読めません：{why}"),
    (r"HTTP (?P<status>\d+)", "本部が受け付けませんでした（HTTP {status}）"),
    # the desk server's, to a tablet (companion.tournament.server_app, server_store)
    (r"that pairing code is not open at this desk \(wrong, already used, or replaced by a newer code\): ask the "
     r"desk for the table's code",
     "このペアリングコードは本部で使えません（間違い、使用済み、または新しいコードに置き換え済み）。本部で卓のコードを確かめてください"),
    (r"too many wrong pairing codes from this address: wait a minute",
     "間違ったペアリングコードが続きました。1分待ってからもう一度入力してください"),
    (r"code must be the table's pairing code \(a few letters and digits\)",
     "ペアリングコードは数文字の英字と数字です"),
    (r"this request needs the table's token \(Authorization: Bearer \.\.\.\)",
     "この卓の参加情報がありません。ペアリングコードで参加してください"),
    (r"unknown token: join the table again with a pairing code",
     "本部がこのタブレットを知りません。ペアリングコードでもう一度参加してください"),
    (r"this tablet's pairing was replaced \(the table was paired again\): join with the new code",
     "この卓は本部でペアリングし直されました。新しいコードで参加してください"),
    (r"this tablet is paired with round (?P<round>\d+) table (?P<table>\d+), not round (?P<r2>\d+) table (?P<t2>\d+)",
     "このタブレットは第{round}ラウンド{table}卓の参加です（第{r2}ラウンド{t2}卓ではありません）"),
    (r"round (?P<round>\d+) has tables 1 to (?P<n>\d+), not (?P<table>\d+)",
     "第{round}ラウンドの卓は1から{n}までです（{table}卓はありません）"),
    (r"no round has been seated yet: seat a round before pairing tablets",
     "まだ席決めされたラウンドがありません。本部で席決めしてからペアリングしてください"),
    (r"the desk seated round (?P<round>\d+) again: table (?P<table>\d+) now has (?P<names>.*); start the table's "
     r"new game", "本部が第{round}ラウンドの組み合わせをやり直しました。{table}卓は {names}。新しいゲームを始めてください"),
    (r"game (?P<game>\d+) is not table (?P<table>\d+)'s game of round (?P<round>\d+) \(its players, board or options "
     r"differ from what the desk issued\)",
     "ゲーム{game}は第{round}ラウンド{table}卓のゲームではありません（プレイヤー、盤面、オプションが本部の指定と違います）"),
    (r"game (?P<game>\d+) is new to the desk: send its header with the first batch",
     "ゲーム{game}は本部にとって新しいゲームです。最初から送り直します"),
    (r"game (?P<game>\d+): the desk has events up to (?P<have>\d+), this batch starts at (?P<start>\d+); send from "
     r"(?P<from>\d+)", "ゲーム{game}：本部にはイベント{have}件までしかありません。そこから送り直します"),
    (r"event (?P<i>\d+): the game was ended by the round's time limit; nothing of this batch was kept",
     "イベント{i}：ラウンドの制限時間でゲームは終了しています。この送信分は保存されていません"),
    (r"event (?P<i>\d+): (?P<why>.*); nothing of this batch was kept",
     "本部がイベント{i}を受け付けませんでした（{why}）。この送信分は保存されていません"),
    (r"the request body is larger than (?P<n>\d+) bytes", "送信が大きすぎます（{n}バイト超）"),
))

#: A sentence with no words here, on a Japanese screen.
UNKNOWN_JA = "本部が受け付けませんでした（{message}）"


#: The desk's refusals said by their key (the desk sends ``key`` and ``values`` with its sentence), where the
#: sentence carries words of its own that no pattern can put in Japanese: the rules' reason for refusing an event.
KEYED_JA = {
    "event_refused": "本部がイベント{event}を受け付けませんでした（{reason}）。この送信分は保存されていません",
    "event_not_understood": "本部がイベント{event}を読み取れませんでした。この送信分は保存されていません",
}


def _keyed(key: str, values: dict[str, Any]) -> str | None:
    template = KEYED_JA.get(key)
    if template is None:
        return None
    facts = dict(values)
    if key == "event_refused":  # the rules' own refusal (code and facts), said as the play screen says it
        from ..rules.refusals import Refusal
        from .refusals_text import describe

        given = values.get("refusal")
        if not isinstance(given, dict) or not isinstance(given.get("code"), str):
            return None
        try:
            names = [str(n) for n in values.get("players") or []]
            facts["reason"] = describe(Refusal(given["code"], **dict(given.get("params") or {})), "ja",
                                       lambda seat: names[seat] if 0 <= seat < len(names) else f"{seat + 1}")
        except Exception:  # noqa: BLE001 -- a newer desk's code or facts: the sentence by its pattern instead
            return None
    try:
        return template.format(**facts)
    except (KeyError, IndexError):
        return None


def link_text(message: str, lang: str, key: str = "", values: dict[str, Any] | None = None) -> str:
    """What the screen says for the link's or the desk's sentence ``message``, in ``lang`` ("en": as it is);
    ``key`` and ``values``: the desk's refusal by its key and facts (:class:`companion.desk_link.DeskLinkError`)."""
    if lang != "ja" or not message:
        return message
    said = _keyed(key, values or {}) if key else None
    return said or sentence_by_pattern(message, SENTENCES_JA) or UNKNOWN_JA.format(message=message)
