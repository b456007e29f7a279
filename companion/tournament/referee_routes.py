"""The referee's requests to the desk server (the desk's password, as every admin request):

- ``GET /api/admin/proposals`` -- the results tablets proposed that wait for a confirm;
- ``POST /api/admin/confirm`` ``{"round", "table"}`` -- the one tap: the proposal becomes the table's result;
- ``POST /api/admin/correct`` ``{"round", "table", "vp": {name: VP}, "winner"?, "ended_by_time"?, "reason"}`` --
  other numbers than proposed (or a correction of an entered result), with the reason kept in the audit trail;
- ``POST /api/admin/settings`` ``{"confirm"?, "time_rule"?, "language"?}`` -- the event's floor settings.

Bodies are checked as strictly as the tablets' (unknown fields, wrong types: 422 naming the field).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import referee


def routes(app) -> list[Route]:
    """The referee's routes over a :class:`.server_app.DeskApp` (its checks, lock and push)."""
    from .server_app import Refused, _deeper_than, _int, _only

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

    return [Route("/api/admin/proposals", proposals, methods=["GET"]),
            Route("/api/admin/confirm", confirm, methods=["POST"]),
            Route("/api/admin/correct", correct, methods=["POST"]),
            Route("/api/admin/settings", settings, methods=["POST"])]
