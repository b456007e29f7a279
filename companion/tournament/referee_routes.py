"""The referee's requests to the desk server (the desk's password, as every admin request):

- ``GET /api/admin/proposals`` -- the results tablets proposed that wait for a confirm;
- ``POST /api/admin/confirm`` ``{"round", "table"}`` -- the one tap: the proposal becomes the table's result;
- ``POST /api/admin/correct`` ``{"round", "table", "vp": {name: VP}, "winner"?, "ended_by_time"?, "reason"}`` --
  other numbers than proposed (or a correction of an entered result), with the reason kept in the audit trail;
- ``POST /api/admin/settings`` ``{"confirm"?, "time_rule"?, "language"?}`` -- the event's floor settings;
- ``POST /desk/confirm``, ``POST /desk/correct`` and ``POST /desk/settings`` -- the same from the desk page's
  buttons and forms (its form key).

Bodies are checked as strictly as the tablets' (unknown fields, wrong types: 422 naming the field).
"""

from __future__ import annotations

from starlette.requests import Request
import html

from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from . import referee


def routes(app) -> list[Route]:
    """The referee's routes over a :class:`.server_app.DeskApp` (its checks, lock and push)."""
    from .server_app import Refused, _deeper_than, _form_number, _int, _only

    def changed() -> None:
        push = getattr(app, "push", None)
        if push is not None:
            push.changed()

    async def proposals(request: Request) -> Response:
        app._check_admin(request)

        def look():
            names = app.floor.desk.names(app.floor.event.id)
            return {"proposals": [p.to_json(names) for p in referee.proposals(app.floor)],
                    "settings": referee.settings(app.floor).to_json()}
        return JSONResponse(await app._call(look))

    async def confirm(request: Request) -> Response:
        app._check_admin(request)
        data = _only(await app._json(request), {"round", "table"}, {"round", "table"}, "the confirm request")
        entry = await app._call(referee.confirm, app.floor, _int(data, "round", 1, 1000), _int(data, "table", 1, 1000),
                                who="referee (desk server)")
        changed()
        names = await app._call(app.floor.desk.names, app.floor.event.id)
        return JSONResponse(entry.to_json(names))

    async def correct(request: Request) -> Response:
        app._check_admin(request)
        data = _only(await app._json(request), {"round", "table", "vp", "winner", "ended_by_time", "reason"},
                     {"round", "table", "vp", "reason"}, "the correct request")
        vp = data["vp"]
        if not isinstance(vp, dict) or not vp or len(vp) > 4 or _deeper_than(vp, 1) or \
                not all(isinstance(k, str) and len(k) <= 80 for k in vp):
            raise Refused(422, "vp must be an object of each seated player's name and VP")
        winner = data.get("winner")
        if winner is not None and (not isinstance(winner, str) or len(winner) > 80):
            raise Refused(422, "winner must be a seated player's name or null")
        by_time = data.get("ended_by_time", False)
        if not isinstance(by_time, bool):
            raise Refused(422, "ended_by_time must be true or false")
        reason = data["reason"]
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
            raise Refused(422, "reason must say why (at most 500 characters)")
        entry = await app._call(referee.correct, app.floor, _int(data, "round", 1, 1000),
                                _int(data, "table", 1, 1000), vp, winner, ended_by_time=by_time, reason=reason,
                                who="referee (desk server)")
        changed()
        names = await app._call(app.floor.desk.names, app.floor.event.id)
        return JSONResponse(entry.to_json(names))

    async def settings(request: Request) -> Response:
        app._check_admin(request)
        data = _only(await app._json(request), {"confirm", "time_rule", "language"}, set(), "the settings request")
        for key, value in data.items():
            if not isinstance(value, str):
                raise Refused(422, f"{key} must be a string")
        new = await app._call(referee.set_settings, app.floor, who="desk server", **data)
        changed()
        return JSONResponse(new.to_json())

    async def desk_confirm(request: Request) -> Response:
        form = await app._form(request)
        round_no, table = _form_number(form.get("round")), _form_number(form.get("table"))
        if round_no is None or table is None:
            raise Refused(422, "round and table must be numbers", "round_table_numbers")
        await app._call(referee.confirm, app.floor, round_no, table, who="referee (desk page)")
        changed()
        return RedirectResponse("../desk", status_code=303)

    def form_result(form: dict[str, str]) -> tuple[int, int, dict[int, int], int | None]:
        """A desk-page form's round, table, each player's VP (``vp:PLAYER``) and winner, checked."""
        round_no, table = _form_number(form.get("round")), _form_number(form.get("table"))
        if round_no is None or table is None:
            raise Refused(422, "round and table must be numbers", "round_table_numbers")
        vp = {}
        for key, value in form.items():
            if key.startswith("vp:"):
                points, player = _form_number(value.strip()), _form_number(key[3:])
                if points is None or player is None:
                    raise Refused(422, f"VP must be whole numbers (got {value[:20]!r})", "vp_whole", got=value[:20])
                vp[player] = points
        if not vp:
            raise Refused(422, "give every player's VP", "vp_every")
        return round_no, table, vp, _form_number(form.get("winner"))

    async def desk_result(request: Request) -> Response:
        """A table without a tablet's game or proposal (a tablet that sent nothing, a paper slip): its result typed
        in on the desk page (it took the command line)."""
        form = await app._form(request)
        round_no, table, vp, winner = form_result(form)

        def enter():
            # The page offers this form only for tables whose tablet sent nothing; a page from before the tablet
            # started (left open, or the browser's Back) still had it, and a result typed there for table 2 -- a
            # slip of the wrong table -- was stored while table 2's tablet played on, and its win was then kept out
            # of the standings by it (session 19's floor trial). Checked under the desk's lock, as the entry.
            sent = app.floor.tablet_game_count(round_no, table)
            if sent is not None:
                raise Refused(409, f"round {round_no} table {table}: its tablet sent its game to the desk ({sent} "
                                   "events), so its result comes from that game (one entered is corrected with a "
                                   "reason): nothing was stored", "result_from_tablet",
                              round=round_no, table=table, events=sent)
            return app.floor.desk.enter_result(app.floor.event.id, round_no, table, vp, winner,
                                               ended_by_time=form.get("ended_by_time") == "on", source="referee",
                                               who="referee (desk page)")

        await app._call(enter)
        changed()
        return RedirectResponse("../desk", status_code=303)

    async def desk_correct(request: Request) -> Response:
        form = await app._form(request)
        round_no, table, vp, winner = form_result(form)
        await app._call(referee.correct, app.floor, round_no, table, vp, winner,
                        ended_by_time=form.get("ended_by_time") == "on", reason=form.get("reason", ""),
                        who="referee (desk page)")
        changed()
        return RedirectResponse("../desk", status_code=303)

    async def desk_settings(request: Request) -> Response:
        form = await app._form(request)
        values = {k: form[k] for k in ("confirm", "time_rule", "language") if form.get(k)}
        await app._call(referee.set_settings, app.floor, who="desk page", **values)
        changed()
        return RedirectResponse("../desk", status_code=303)

    return [Route("/desk/confirm", desk_confirm, methods=["POST"]),
            Route("/desk/result", desk_result, methods=["POST"]),
            Route("/desk/correct", desk_correct, methods=["POST"]),
            Route("/desk/settings", desk_settings, methods=["POST"]),
            Route("/api/admin/proposals", proposals, methods=["GET"]),
            Route("/api/admin/confirm", confirm, methods=["POST"]),
            Route("/api/admin/correct", correct, methods=["POST"]),
            Route("/api/admin/settings", settings, methods=["POST"])]


def desk_section(floor, csrf: str, open_tables: list[tuple[int, int, list[int]]] = (), time_up: bool = False) -> str:
    """The desk page's part for the referee, in the event's language: each result waiting with its Confirm button
    and a form for other numbers (a row each, ``id=proposal-ROUND-TABLE``: the page, following the floor, keeps a
    row the organiser is typing in); ``open_tables`` (``(round, table, seated player ids)``: tables with no result,
    no proposal and no tablet's game) each with a form for its result, folded away until time is up
    (``id=enter-ROUND-TABLE``); and the floor settings."""
    from .desk_text import words

    e = html.escape
    names = floor.desk.names(floor.event.id)
    now = referee.settings(floor)
    w = words(now.language)
    key = f"<input type=hidden name=csrf value={e(csrf)}>"
    rows = []
    for p in referee.proposals(floor):
        scores = w["sep"].join(w["score"].format(name=names[q], vp=v) for q, v in p.vp.items())
        how = w["ended_by_time"] if p.ended_by_time else \
            w["won_by"].format(name=names[p.winner]) if p.winner is not None else ""
        winner = "" if p.winner is None else names[p.winner]
        where = f"<input type=hidden name=round value={p.round}><input type=hidden name=table value={p.table}>"
        fields = "".join(f"{e(names[q])} <input name=vp:{q} value={v} size=2> " for q, v in p.vp.items())
        winners = f"<select name=winner><option value=''>{e(w['no_winner'])}</option>" + "".join(
            f"<option value={q}{' selected' if q == p.winner else ''}>{e(names[q])}</option>" for q in p.vp) + \
            "</select>"
        rows.append(f"<tr id=proposal-{p.round}-{p.table}><td>{p.round}</td><td>{p.table}</td><td>{e(scores)}</td>"
                    f"<td class=how>{e(how or winner)}</td><td><form method=post action=desk/confirm>{key}{where}<button>"
                    f"{e(w['confirm'])}</button></form></td>"
                    f"<td><form method=post action=desk/correct>{key}{where}{fields}{winners} <label><input "
                    f"type=checkbox name=ended_by_time{' checked' if p.ended_by_time else ''}> "
                    f"{e(w['ended_by_time'])}</label> {e(w['reason'])} <input name=reason size=16> <button>"
                    f"{e(w['enter_instead'])}</button></form></td></tr>")
    waiting = (f"<table id=proposals-table><thead><tr><th>{e(w['round'])}</th><th>{e(w['table'])}</th><th>{e(w['vp'])}</th><th></th>"
               f"<th></th><th>{e(w['correct'])}</th></tr></thead><tbody id=proposals>{''.join(rows)}</tbody></table>"
               ) if rows else f"<p id=none-waiting>{e(w['none_waiting'])}</p>"

    waiting_ids = {(p.round, p.table) for p in referee.proposals(floor)}
    entries = []
    for round_no, table, seated in open_tables:
        if (round_no, table) in waiting_ids:
            continue
        where = f"<input type=hidden name=round value={round_no}><input type=hidden name=table value={table}>"
        fields = "".join(f"{e(names[q])} <input name=vp:{q} value='' size=2> " for q in seated)
        winners = f"<select name=winner><option value=''>{e(w['no_winner'])}</option>" + "".join(
            f"<option value={q}>{e(names[q])}</option>" for q in seated) + "</select>"
        entries.append(f"<tr id=enter-{round_no}-{table}><td>{round_no}</td><td>{table}</td><td><form method=post "
                       f"action=desk/result>{key}{where}{fields}{winners} <label><input type=checkbox "
                       f"name=ended_by_time{' checked' if time_up else ''}> {e(w['ended_by_time'])}</label> <button>"
                       f"{e(w['enter'])}</button></form></td></tr>")
    # folded away until time is up (at a round's start every table is without a result; the page stays short)
    enter = (f"<details id=desk-enter{' open' if time_up else ''}><summary id=enter-summary>"
             f"{e(w['enter_heading'].format(n=len(entries)))}</summary><table id=enter-table><thead><tr><th>{e(w['round'])}</th>"
             f"<th>{e(w['table'])}</th><th>{e(w['vp'])}</th></tr></thead><tbody id=enter-rows>{''.join(entries)}"
             "</tbody></table></details>") if entries else "<div id=desk-enter></div>"

    def choice(name, options):
        said = w["options"][name]
        return f"<select name={name}>" + "".join(
            f"<option value={e(o)}{' selected' if o == getattr(now, name) else ''}>{e(said.get(o, o))}</option>"
            for o in options) + "</select>"
    from .clock import TIME_RULES
    return (f"<div id=desk-waiting><h2>{e(w['waiting'])}</h2>{waiting}</div>{enter}"
            f"<p id=desk-correct-note>{w['correct_note']}</p>"
            f"<h2 id=settings-heading>{e(w['settings'])}</h2><form method=post action=desk/settings id=desk-settings>{key}"
            f"{e(w['confirm_mode'])} {choice('confirm', referee.CONFIRM_MODES)} "
            f"{e(w['time_rule'])} {choice('time_rule', TIME_RULES)} "
            f"{e(w['language'])} {choice('language', referee.LANGUAGES)} "
            f"<button>{e(w['save'])}</button></form>")
