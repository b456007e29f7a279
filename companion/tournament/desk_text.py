"""The desk page's words (``/desk``, the organiser's page) in the event's language (the floor setting ``language``,
as the live display and the desk page's refusals: ``en`` or ``ja``).

Only words: names, codes and numbers are as entered. The Japanese follows the app's own words for the same things:
本部 and 大会の卓 / 本部を探す / 参加 (the tablet's buttons, companion/ui/tournament_table.py), 第N ラウンド, N卓,
時間切れ, 訂正の理由 (the app's tournament screen), 確認を待つ結果 (companion/ui/desk_refusals.py), and the clock's
一時停止 / 時間です (companion/tournament/clock.py).
"""

from __future__ import annotations

from typing import Any

WORDS: dict[str, dict[str, Any]] = {
    "en": {"title": "Desk: {event}", "heading": "Desk: {event} · round {round}", "clock": "Round clock:",
           "heading_fresh": "Desk: {event} · no round seated yet",
           "clock_fresh": "none yet: the clock is offered once round 1 is seated (Next round, below).",
           "start": "Start", "resume": "Resume", "pause": "Pause", "reset": "Reset", "min": "min",
           "minutes": "minutes", "table": "Table", "players": "Players", "pairing": "Pairing", "game": "Game", "result": "Result",
           "corrected": "corrected: {reason}", "joiner": "; ",
           "differs": "the tablet's game differs now",
           "no_code": "no code yet", "paired": "paired (code {code} used)", "code": "code {code}",
           "pair": "Pair", "new_code": "New code", "sep": ", ",
           "joins": "A tablet joins from the app's start screen: Tournament table, Find the desk (or type this desk's "
                    "address), then its table's code and Join. A new code replaces the table's tablet (its token "
                    "stops working).",
           "time_up": "The round's time is up. To run the clock again: Reset with a length, then Start.",
           "waiting": "Results waiting for the referee", "round": "Round", "vp": "VP", "correct": "Correct",
           "ended_by_time": "ended by time", "won_by": "won by {name}", "no_winner": "no winner",
           "confirm": "Confirm", "reason": "reason", "enter_instead": "Enter these instead",
           "none_waiting": "No result is waiting.", "score": "{name} {vp}",
           "enter_heading": "Tables without a result ({n})", "enter": "Enter result",
           "correct_note": "A result already entered is corrected with <code>POST /api/admin/correct</code> or "
                           "<code>tournament result ... --correct --reason</code>.",
           "next_heading": "Next round", "seat": "Seat round {round}", "seat_final": "Seat the final table",
           "seat_waits": "Round {next} can be seated once every table of round {round} has its result ({n} without).",
           "seat_note": "The seating is stored at once and shown on the display; then each table needs its code.",
           "pair_all": "Pair every table without a code ({n})",
           "settings": "Floor settings", "confirm_mode": "results from tablets:", "time_rule": "at time:",
           "language": "language (display and this page):", "save": "Save",
           "options": {"confirm": {"auto": "auto", "referee": "referee"},
                       "time_rule": {"finish_round": "finish_round", "stop": "stop"},
                       "language": {"en": "en", "ja": "ja"}}},
    "ja": {"title": "本部：{event}", "heading": "本部：{event}・第{round}ラウンド", "clock": "ラウンドの時計：",
           "heading_fresh": "本部：{event}・まだ席決めしたラウンドはありません",
           "clock_fresh": "まだありません。第1ラウンドの席決め（下の「次のラウンド」）のあとで時計を使えます。",
           "start": "開始", "resume": "再開", "pause": "一時停止", "reset": "リセット", "min": "分",
           "minutes": "分", "table": "卓", "players": "プレイヤー", "pairing": "ペアリング", "game": "ゲーム", "result": "結果",
           "corrected": "訂正：{reason}", "joiner": "；",
           "differs": "タブレットのゲームと食い違っています",
           "no_code": "コード未発行", "paired": "参加済み（コード {code} 使用）", "code": "コード {code}",
           "pair": "ペアリング", "new_code": "新しいコード", "sep": "、",
           "joins": "タブレットはアプリのスタート画面から参加します：「大会の卓」、「本部を探す」（またはこの本部のアドレスを"
                    "入力）、卓のコード、「参加」。新しいコードを出すと、その卓の前のタブレットは使えなくなります。",
           "time_up": "ラウンドの時間が終わりました。時計をもう一度動かすには、長さを決めて「リセット」、それから「開始」。",
           "waiting": "審判の確認を待つ結果", "round": "ラウンド", "vp": "勝利点", "correct": "訂正",
           "ended_by_time": "時間切れ", "won_by": "勝者 {name}", "no_winner": "勝者なし",
           "confirm": "確認", "reason": "訂正の理由", "enter_instead": "この点数で入力",
           "none_waiting": "確認を待つ結果はありません。", "score": "{name} {vp}点",
           "enter_heading": "結果のない卓（{n}）", "enter": "結果を入力",
           "correct_note": "入力済みの結果は <code>POST /api/admin/correct</code> または "
                           "<code>tournament result ... --correct --reason</code> で訂正します。",
           "next_heading": "次のラウンド", "seat": "第{round}ラウンドの席決め", "seat_final": "決勝卓の席決め",
           "seat_waits": "第{round}ラウンドの全卓の結果が入ると、第{next}ラウンドの席決めができます（結果のない卓：{n}）。",
           "seat_note": "席決めはすぐに保存され、表示に出ます。そのあと各卓にコードを出してください。",
           "pair_all": "コードのない卓すべてにコードを出す（{n}卓）",
           "settings": "運営の設定", "confirm_mode": "タブレットからの結果：", "time_rule": "時間になったら：",
           "language": "言語（表示とこのページ）：", "save": "保存",
           "options": {"confirm": {"auto": "そのまま入力", "referee": "審判が確認"},
                       "time_rule": {"finish_round": "一巡を終えて終了", "stop": "その場で終了"},
                       "language": {"en": "English", "ja": "日本語"}}},
}


def words(lang: str) -> dict[str, Any]:
    return WORDS.get(lang, WORDS["en"])
