"""The desk server's pages: the live display (``/``, read-only, for a projector or a stream) and the desk page
(``/desk``, the organiser's: pairing codes and the round clock).

Every name on a page is written with :func:`html.escape`; the display's script fills in what changes with
``textContent`` (never HTML), so a player named ``<script>`` is shown as those characters.
"""

from __future__ import annotations

import html
import json
from typing import Any

from . import clock as clock_mod, display_text, referee
from .display_script import SCRIPT
from .export import HEADINGS, _cell, standing_columns
from .server_store import Floor


def display_data(floor: Floor, *, tables: bool = True, settle: bool = True) -> dict[str, Any]:
    """What the display shows, as JSON (``/display.json``): standings in the preset's columns, the round clock,
    each table's live VP (``tables=False``: no ``tables``; ``settle=False``: a run-out clock does not end games
    here, :meth:`.Floor.clock`)."""
    ev = floor.event
    cols = standing_columns(ev)
    floor_settings = referee.settings(floor)  # the display's language and the rule at time
    lang = floor_settings.language
    clock = floor.clock(settle=settle)
    words = display_text.words(lang)
    return {"event": ev.name, "preset": ev.preset.title, "round": floor.current_round(), "clock": clock,
            "columns": ["#", words["name"]] + [display_text.column(lang, c, HEADINGS[c]) for c in cols],
            "standings": standings_rows(floor), "tables": floor.live_tables() if tables else [], "lang": lang,
            "byes": _byes(floor, words),
            "clock_note": clock_mod.warning_text(clock, floor_settings.time_rule, lang),
            "labels": {**{k: words[k] for k in ("round", "round_of", "standings", "tables", "table", "paused", "time_up", "vp_of",
                                                "longest_road", "largest_army", "finished", "robber", "terrains")},
                       "clock_none": clock_mod.clock_text(None, lang, floor.current_round())}}



def standings_rows(floor: Floor) -> list[list[str]]:
    """The display's standings, a row per player in the preset's columns (rank, name, then the columns' cells).
    Worked out from the stored results and players each time they changed since (read from the desk file: a
    result entered by another desk or the command line counts too), else the rows worked out last time: the display
    asks often, a result comes rarely. tests/test_desk_standings_push.py checks them against a fresh
    :meth:`.Desk.standings` after every result."""
    desk, ev = floor.desk, floor.event
    key = desk._db.execute(
        "SELECT (SELECT COUNT(*) FROM results WHERE event = :e), (SELECT MAX(id) FROM results WHERE event = :e), "
        "(SELECT COUNT(*) FROM players WHERE event = :e), "
        "(SELECT COUNT(*) FROM players WHERE event = :e AND dropped_after IS NOT NULL)", {"e": ev.id}).fetchone()
    cached = getattr(floor, "display_standings", None)
    if cached is None or cached[0] != key:
        names = desk.names(ev.id)
        cols = standing_columns(ev)
        cached = (key, [[str(r.rank), names[r.player]] + [_cell(r, c) for c in cols] for r in desk.standings(ev.id)])
        floor.display_standings = cached
    return cached[1]


def standings_text(floor: Floor) -> str:
    """What the display stream sends (``event: standings``) when a tablet's game ends: the standings' rows alone,
    as the display's data has them (``standings``). The rest of the display is as it was; the finished table's
    line goes as any table's."""
    return json.dumps({"standings": standings_rows(floor)}, ensure_ascii=False)


def display_recheck(floor: Floor) -> tuple[str, dict[int, tuple], str]:
    """What the display stream's recheck compares (every :data:`.server_push.RECHECK_S`, to see changes made outside
    this server: the command line, another desk on the same file): ``(beyond, games, standings)``. ``beyond`` is
    everything the display shows beyond the tables' games and the standings -- round, seating, the clock but for its
    running seconds (the page counts them down itself), its warning, the language, the columns -- as text; ``games`` is each table's latest game as
    ``(pairing, game, rev)``; ``standings`` is :func:`standings_text` (a game's end changes them, and the stream
    sends them alone then). A few small queries (~0.3 ms): the whole display (~10 ms for 60 tables) is worked out
    only when ``beyond`` changed. A run-out clock ends the round's games here (:meth:`.Floor.clock`), not in the
    rebuild."""
    data = display_data(floor, tables=False)
    standings = json.dumps({"standings": data.pop("standings")}, ensure_ascii=False)
    clock = data["clock"]
    if clock is not None and clock.get("running"):
        clock = {k: v for k, v in clock.items() if k != "left"}
    round_no = data["round"]
    seats = floor.desk._db.execute("SELECT table_no, seat, player FROM seats WHERE event = ? AND round = ? "
                                   "ORDER BY table_no, seat", (floor.event.id, round_no)).fetchall()
    beyond = json.dumps([dict(data, clock=clock), [list(s) for s in seats]], ensure_ascii=False, sort_keys=True)
    games: dict[int, tuple] = {}
    for table_no, pairing_id, game, rev in floor.desk._db.execute(
            "SELECT p.table_no, g.pairing, g.game, g.rev FROM floor_games g JOIN floor_pairings p ON p.id = g.pairing "
            "WHERE p.event = ? AND p.round = ? ORDER BY g.updated", (floor.event.id, round_no)):
        games[table_no] = (pairing_id, game, rev)  # the last updated game wins, as on the display
    return beyond, games, standings


def _byes(floor: Floor, words: dict[str, Any]) -> str:
    """The current round's byes as the display says them ("" when everybody plays)."""
    row = floor.desk._db.execute("SELECT cost FROM rounds WHERE event = ? ORDER BY number DESC LIMIT 1",
                                 (floor.event.id,)).fetchone()  # only the last round's (the display asks often)
    byes = json.loads(row[0]).get("byes", ()) if row else ()
    if not byes:
        return ""
    names = floor.desk.names(floor.event.id)
    return f"{words['bye']}: " + ", ".join(names[p] for p in byes)


def clock_text(clock: dict[str, Any] | None, lang: str = "en", round_no: int | None = None) -> str:
    return clock_mod.clock_text(clock, lang, round_no)


def _clock_html(data: dict[str, Any], lang: str) -> str:
    """The display's clock: the time left in large digits, or before the clock is set a line saying so (smaller:
    a sentence at the digits' size would not fit, and "--:--" there looked like bars)."""
    said = html.escape(clock_text(data["clock"], lang, data.get("round")))
    return said if data["clock"] is not None else f'<span class="waiting">{said}</span>'



def _table_lines(table: dict[str, Any], lang: str = "en") -> str:
    return display_text.table_line(table, lang)


def _differs(entered, seated, game) -> bool:
    """Whether a result the standings count (as entered: not corrected, not ended by time) and the table's game as
    its tablet has it now give a seated player other VP: a win taken back at the table after its result was entered
    showed "Gen 9 … finished" beside "Gen 10 … won by Gen" with nothing to tell the referee (session 19's trial)."""
    if entered.reason or entered.ended_by_time or game is None or game.get("pieces") is None:
        return False
    now = [p.get("vp") for p in game.get("players", [])]
    return len(now) == len(seated) and None not in now and any(entered.vp.get(s) != v for s, v in zip(seated, now))




# The page fills one 16:9 screen (a projector, a TV, a stream overlay) and never scrolls: the clock and the
# standings in a column on the left, the tables' mini-boards in a grid on the right. Sizes are in vh so the same
# page reads from the back of a room at 1280x720 and at 1920x1080; the script pages through the tables and the
# standings when they do not fit (display_script.py). Dark: a projector's black is its dimmest, so the boards'
# colours carry. The clock's size also follows the width (at most 7.4vw: 13vh at 16:9), so 「時間です」 fits its column
# on a screen less wide than 16:9, a 4:3 projector (it was cut there: session 16's trial).
# A standings heading goes onto a second line only between words (keep-all, no anywhere-wrap: it broke "Game|s",
# 「勝利ポイ|ント」 at 1280x720, session 19's trial); the script makes the type smaller until whole words fit.
STYLE = """@font-face{font-family:"Desk CJK";src:url(display/font.otf) format("opentype");font-display:swap;
unicode-range:U+3000-30FF,U+3400-9FFF,U+FF00-FFEF}
html,body{margin:0;height:100%;overflow:hidden}
body{font-family:"Desk CJK",sans-serif;font-size:2.2vh;line-height:1.25;background:#10141c;color:#f1f1f1}
#screen{display:grid;grid-template-columns:minmax(0,32fr) minmax(0,68fr);gap:2vh;height:100vh;padding:2vh;
box-sizing:border-box}
#side,#floor{display:flex;flex-direction:column;min-height:0;min-width:0}
h1{font-size:3.4vh;margin:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#meta{margin:0.3vh 0 0;color:#c9d1e0;overflow:hidden;max-height:2.5em}
#clock{font-size:min(13vh,7.4vw);font-weight:bold;line-height:1.05;margin:1vh 0 0;font-variant-numeric:tabular-nums;
white-space:nowrap}
#clock .state{display:block;font-size:4vh;font-weight:normal;color:#ffd54f}
#clock .waiting{display:block;font-size:4.4vh;line-height:1.2;font-weight:normal;white-space:normal}
#clock-note{margin:0;color:#ffd54f;min-height:1em}
h2{font-size:3vh;margin:1.5vh 0 0.5vh;display:inline-block}
.heading{display:flex;align-items:baseline;gap:1em}
.page-note{color:#9fb3d1;font-size:2.2vh}
#standings-box{flex:1 1 0;min-height:0;overflow:hidden}
#standings-box table{width:100%;border-collapse:collapse;font-size:2.4vh}
td,th{padding:0.1em 0.35em;text-align:left;white-space:nowrap}
th{color:#9fb3d1;font-weight:normal;border-bottom:1px solid #3a4560;white-space:normal;vertical-align:bottom;
font-size:0.85em;word-break:keep-all;overflow-wrap:normal}
td:nth-child(2){max-width:9em;overflow:hidden;text-overflow:ellipsis}
#standings tr:nth-child(even){background:#182030}
#standings tr[hidden],#tables>li[hidden]{display:none}
#tables{flex:1 1 0;min-height:0;display:grid;gap:1.2vh;list-style:none;padding:0;margin:0}
#tables>li{display:flex;flex-direction:column;min-height:0;min-width:0;overflow:hidden;background:#1a2232;
border-radius:0.8vh;padding:0.6vh 0.8vh;font-size:2vh;container-type:inline-size}
#tables h3{margin:0;font-size:2.4vh;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
svg.board{flex:1 1 0;min-height:0;width:100%}
ul.players{list-style:none;padding:0;margin:0.3vh 0 0;display:grid;grid-template-columns:1fr 1fr;column-gap:0.6em}
ul.players>li{display:flex;align-items:center;white-space:nowrap;min-width:0}
.name{overflow:hidden;text-overflow:ellipsis;min-width:0}
.swatch{flex:none;display:inline-block;width:0.8em;height:0.8em;border:1px solid #888;margin-right:0.3em}
.vp{flex:none;margin-left:0.4em;font-weight:bold;color:#fff}
@container (max-width: 16em){ul.players{grid-template-columns:1fr}}
.awards{margin:0.2vh 0 0;font-size:1.8vh;color:#c9d1e0;min-height:1.25em}
#byes{margin:0.5vh 0 0;color:#c9d1e0}"""


def display_page(data: dict[str, Any]) -> str:
    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in data["columns"])
    rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in data["standings"])
    lang = data.get("lang", "en")
    words = display_text.words(lang)
    colon = "：" if lang == "ja" else ": "
    # "round 2" / 「第2ラウンド」 (it said 「ラウンド 2」: session 17's trial); the number stays in #round alone
    round_before, _, round_after = words["round_of"].partition("{n}")
    tables = "".join(f"<li data-table=\"{int(t['table'])}\">{e(words['table'].format(n=t['table']))}{colon}{e(_table_lines(t, lang))}</li>"
                     for t in data["tables"])
    # What the script needs besides the pushed data (which stays as it is): the paging words and the presets'
    # Japanese titles, both languages, since the organiser may switch while the page is open. "</" cannot occur.
    page_words = json.dumps({"paging": display_text.PAGING, "presets_ja": display_text.PRESET_TITLES_JA},
                            ensure_ascii=False).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="{e(lang)}"><head><meta charset="utf-8"><title>{e(data['event'])}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{STYLE}</style>
</head><body>
<main id="screen">
<section id="side">
<h1>{e(data['event'])}</h1>
<p id="meta"><span id="preset">{e(display_text.preset_title(lang, data['preset']))}</span> &middot; <span id="round-word">{e(round_before)}</span><span id="round">{data['round']}</span><span id="round-after">{e(round_after)}</span></p>
<div id="clock">{_clock_html(data, lang)}</div>
<p id="clock-note">{e(data.get('clock_note', ''))}</p>
<div class="heading"><h2>{e(words['standings'])}</h2><span class="page-note" id="standings-page"></span></div>
<div id="standings-box"><table><thead><tr id="columns">{head}</tr></thead><tbody id="standings">{rows}</tbody></table></div>
</section>
<section id="floor">
<div class="heading"><h2>{e(words['tables'])}</h2><span class="page-note" id="tables-page"></span></div>
<ul id="tables">{tables}</ul>
<p id="byes">{e(data.get('byes', ''))}</p>
</section>
</main>
<script>const PAGE_WORDS = {page_words};</script>
{SCRIPT}
</body></html>
"""


def display_json(data: dict[str, Any]) -> str:
    lang = data.get("lang", "en")
    out = dict(data, clock_text=clock_text(data["clock"], lang),
               tables=[dict(t, text=_table_lines(t, lang)) for t in data["tables"]])
    return json.dumps(out, ensure_ascii=False)


def referee_section(floor: Floor, csrf: str, open_tables=(), time_up: bool = False) -> str:
    from .referee_routes import desk_section  # results waiting for a confirm, tables to type in, the floor settings
    return desk_section(floor, csrf, open_tables, time_up)


#: The desk page's refusal page, by language: its title and the way back.
REFUSAL_WORDS = {"en": ("The desk refused", "Back to the desk page"),
                 "ja": ("本部が受け付けませんでした", "本部のページに戻る")}

#: The desk page's own form refusals in Japanese, by key (server_app, referee_routes); the desk's refusals (a result,
#: a correction, a setting) are said by the app's words for them (companion/ui/desk_refusals.py).
FORM_REFUSALS_JA = {
    "form_not_ours": "このフォームは本部のページから送られたものではありません。本部のページを開き直してください",
    "form_not_utf8": "フォームの文字がUTF-8ではありません",
    "table_number": "卓は番号で指定してください",
    "minutes_number": "分は数字で入力してください",
    "clock_form": "時計の操作は開始・一時停止・リセットのいずれか、分は1から600までです",
    "clock_already_run": "第{round}ラウンドの時計はすでに動いています（{minutes}分）。長さを変えるにはリセットしてください",
    "round_table_numbers": "ラウンドと卓は番号で指定してください",
    "vp_whole": "勝利点は整数で入力してください（入力：{got}）",
    "vp_every": "全員の勝利点を入力してください",
    # the Seat button names its round: a page left open from before (or a second press) asks for another
    "already_seated": "第{round}ラウンドはもう席決めされています。何も保存していません",
    "not_next_round": "第{round}ラウンドは次に席決めするラウンドではありません（席決め済み：第{current}ラウンドまで）",
    "not_current_round": "第{round}ラウンドは今のラウンドではありません（今は第{current}ラウンド）",
    "seat_form": "席決めの種類（スイス式か決勝卓）とラウンドの番号が必要です",
    # a Pair / New code pressed on a page from before the table was paired (left open, the browser's Back)
    "paired_meanwhile": "{table}卓はこのページを表示した後にペアリングされました（コード {code}）。何も保存していません。"
                        "そのコードを置き換えるには、今のページで「新しいコード」を押してください",
    # a result typed in on a page from before the table's tablet started (left open, the browser's Back)
    "result_from_tablet": "第{round}ラウンド{table}卓はタブレットがゲームを本部に送っています（{events}件）。結果はその"
                          "ゲームから入ります（入った結果は理由を付けて訂正します）。何も保存していません",
}


#: Refusals whose sentence ends "nothing was stored" / 「何も保存していません」.
SAYS_NOTHING_STORED = {"already_seated", "seated_meanwhile", "result_from_tablet", "paired_meanwhile"}


def refusal_page(error: Exception, lang: str) -> str:
    """What the desk page's form answers when the desk refuses it: the refusal in the event's language (by its key:
    companion/ui/desk_refusals.py; English is the desk's own sentence) and the way back, not JSON."""
    from ..ui.desk_refusals import refusal_text  # (plain words, no Kivy)

    e = html.escape
    lang = lang if lang in REFUSAL_WORDS else "en"
    title, back = REFUSAL_WORDS[lang]
    said = refusal_text(error, lang)
    own = FORM_REFUSALS_JA.get(getattr(error, "key", "")) if lang == "ja" else None
    if own is not None:
        try:
            said = own.format(**getattr(error, "values", {}))
        except (KeyError, IndexError):
            pass
    # (a refusal that says itself that nothing was stored is not followed by "Nothing was changed.": said twice)
    nothing = ("" if getattr(error, "key", "") in SAYS_NOTHING_STORED else
               f'<p>{e("何も変更していません。" if lang == "ja" else "Nothing was changed.")}</p>\n')
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>body{{font-family:sans-serif;margin:2em}}</style></head><body>
<h1>{e(title)}</h1>
<p id="refusal">{e(said)}</p>
{nothing}<p><a href="../desk">{e(back)}</a></p>
</body></html>
"""


def desk_page(floor: Floor, csrf: str) -> str:
    """The organiser's page, in the event's language (floor setting ``language``: it was English whatever the event's
    language, session 16's trial): each table of the current round with its open pairing code, a button for a new
    one and its game as the display shows it, the round clock's buttons, the results waiting for the referee and
    the floor settings. The page follows the floor by itself (:data:`.desk_script.SCRIPT`: the display's stream
    wakes it, and it reads this page again), keeping whatever the organiser is typing; each part that changes has
    an ``id``."""
    from . import desk_text
    from .desk_script import SCRIPT

    e = html.escape
    lang = referee.settings(floor).language
    w = desk_text.words(lang)
    round_no = floor.current_round()
    codes = {p.table: p for p in floor.open_codes() if p.round == round_no}
    rows = []
    without = []  # (table, seated, whether a tablet sent its game): tables with no result
    if round_no:
        rnd = floor.desk.round(floor.event.id, round_no)
        names = floor.desk.names(floor.event.id)
        games = {t["table"]: t for t in floor.live_tables()}
        results = {r.table: r for r in floor.desk.results(floor.event.id) if r.round == round_no}
        for t, seated in enumerate(rnd.tables, start=1):
            p = codes.get(t)
            state = w["no_code"] if p is None else (w["paired"] if p.joined else w["code"]).format(code=p.code)
            game = games.get(t)
            line = _table_lines(game, lang) if game is not None and game.get("pieces") is not None else ""
            if game is not None and game.get("finished") and not line:
                line = display_text.words(lang)["finished"]
            entered = results.get(t)  # what the standings count (after a correction, not the tablet's game)
            if entered is None:
                without.append((t, list(seated), game is not None and game.get("pieces") is not None))
            result = "" if entered is None else w["joiner"].join(
                [w["sep"].join(w["score"].format(name=names[s], vp=entered.vp[s]) for s in seated if s in entered.vp)]
                + ([w["ended_by_time"]] if entered.ended_by_time else [])
                + ([w["won_by"].format(name=names[entered.winner])] if entered.winner is not None else [])
                + ([w["corrected"].format(reason=entered.reason)] if entered.reason else [])
                + ([w["differs"]] if _differs(entered, seated, game) else []))
            rows.append(f"<tr id=table-{t}><td>{t}</td><td>{e(w['sep'].join(names[s] for s in seated))}</td>"
                        f"<td class={'code' if p is not None and not p.joined else 'pairing'}>{e(state)}</td>"
                        f"<td><form method=post action=desk/pair>"
                        f"<input type=hidden name=csrf value={e(csrf)}><input type=hidden name=table value={t}>"
                        f"<input type=hidden name=round value={round_no}>"
                        f"<input type=hidden name=replaces value={e(p.code) if p else '-'}>"  # ('-': none shown)
                        f"<button>{e(w['new_code'] if p else w['pair'])}</button></form></td>"
                        f"<td class=game id=game-{t}>{e(line)}</td><td class=result id=result-{t}>{e(result)}</td></tr>")
    # The round's length is typed where the round is started (it was only beside Reset, and Start ran whatever length
    # the clock last had: session 15's trial); once it has run, Start resumes and Reset changes the length. A clock
    # that has run out offers Reset alone (it offered Pause: session 16's trial).
    row = floor.desk._db.execute("SELECT round, duration, started_at, elapsed FROM floor_clock WHERE event = ?",
                                 (floor.event.id,)).fetchone()
    last = f"{row[1] / 60:g}" if row else "60"
    fresh = row is None or row[0] != round_no or (row[2] is None and not row[3])
    running = row is not None and row[0] == round_no and row[2] is not None
    now = floor.clock()
    time_up = now is not None and now.get("time_up")
    if time_up or not round_no:  # (a fresh event: no round to time; the clock is offered once round 1 is seated)
        forms = []
    elif running:
        forms = [("pause", w["pause"], False)]
    else:  # a new round's clock: its length and Start; a paused one: Resume (from where it stopped)
        forms = [("start", w["start"] if fresh else w["resume"], fresh)]
    if not fresh and round_no:  # (before the round's clock has run there is nothing to reset: its length is Start's box)
        forms.append(("reset", w["reset"], True))
    clock = "".join(f"<form method=post action=desk/clock id=clock-{a} style='display:inline'><input type=hidden "
                    f"name=csrf value={e(csrf)}><input type=hidden name=action value={a}>"
                    + (f"<input name=minutes value={last} size=3 aria-label='{e(w['minutes'])}'> {e(w['min'])} "
                       if minutes else "")
                    + f"<button>{e(label)}</button></form> " for a, label, minutes in forms)
    note = f"<span id=clock-note>{e(w['time_up'])}</span>" if time_up else "<span id=clock-note></span>"
    # a table whose tablet sent nothing has its result typed in here (it took the command line: session 17's
    # trial); a tablet's game is proposed or entered from the desk's copy, and corrected as such
    open_tables = [(round_no, t, seated) for t, seated, sent in without if not sent]
    # The next round is seated here once every table has its result (it took the command line or the app's desk
    # screen); the form names the round it seats, so a second press is refused (Floor.seat_next). A round just
    # seated has its tables paired by one press (it took a press per table).
    hidden = f"<input type=hidden name=csrf value={e(csrf)}><input type=hidden name=round value={round_no + 1}>"
    if round_no and without:
        seat = f"<p>{e(w['seat_waits'].format(next=round_no + 1, round=round_no, n=len(without)))}</p>"
    else:
        kinds = [("swiss", w["seat"].format(round=round_no + 1))] + ([("final", w["seat_final"])] if round_no else [])
        seat = "".join(f"<form method=post action=desk/seat id=seat-{k} style='display:inline'>{hidden}"
                       f"<input type=hidden name=kind value={k}><button>{e(label)}</button></form> "
                       for k, label in kinds) + f"<p>{e(w['seat_note'])}</p>"
    unpaired = len([t for t, _seated, _sent in without if t not in codes])  # (a table with a result needs none)
    pair_all = "" if not round_no or unpaired <= 0 else (
        f"<form method=post action=desk/pair-all><input type=hidden name=csrf value={e(csrf)}>"
        f"<input type=hidden name=round value={round_no}><button>{e(w['pair_all'].format(n=unpaired))}</button></form>")
    # before round 1 is seated the page said "round 0" and offered Start (session 19's floor trial)
    said = clock_text(now, lang, round_no) if round_no else w["clock_fresh"]
    heading = w["heading"].format(event=floor.event.name, round=round_no) if round_no else \
        w["heading_fresh"].format(event=floor.event.name)
    shown = display_text.words(lang)  # the page counts the clock down itself, saying it as the display does
    clock_data = html.escape(json.dumps({"clock": now, "round": round_no, "lang": lang, "paused": shown["paused"],
                                         "time_up": shown["time_up"]}, ensure_ascii=False), quote=True)
    return f"""<!DOCTYPE html>
<html lang="{e(lang)}"><head><meta charset="utf-8"><title>{e(w['title'].format(event=floor.event.name))}</title>
<style>@font-face{{font-family:"Desk CJK";src:url(display/font.otf) format("opentype");font-display:swap;
unicode-range:U+3000-30FF,U+3400-9FFF,U+FF00-FFEF}}
body{{font-family:"Desk CJK",sans-serif;margin:2em}} .code{{font-family:monospace;font-size:1.5em}}
button,th,td.how{{white-space:nowrap}} .game{{color:#333}} #clock-note{{color:#b35c00;margin-left:0.5em}} #desk-clock{{margin:1em 0}}</style></head><body>
<h1 id=desk-heading>{e(heading)}</h1>
<div id=desk-clock>{e(w['clock'])} <span id=clock-text data-clock="{clock_data}">{e(said)}</span> <span id=clock-forms>{clock}</span>{note}</div>
<table id=desk-table-list><thead><tr><th>{e(w['table'])}</th><th>{e(w['players'])}</th><th>{e(w['pairing'])}</th><th></th><th>{e(w['game'])}</th><th>{e(w['result'])}</th></tr></thead><tbody id=desk-tables>{''.join(rows)}</tbody></table>
<div id=desk-pair-all>{pair_all}</div>
<p id=desk-joins>{e(w['joins'])}</p>
{referee_section(floor, csrf, open_tables, bool(time_up))}
<div id=desk-next><h2>{e(w['next_heading'])}</h2>{seat}</div>
{SCRIPT}
</body></html>
"""
