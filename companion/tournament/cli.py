"""``python -m companion tournament COMMAND``: the tournament desk on the command line.

Every command takes ``--db FILE`` (default: tournament.sqlite3 beside the game journal), ``--json`` (print
machine-readable JSON instead of text) and ``--by NAME`` (who is making the change, for the audit trail).
Bad input prints what is wrong and where to stderr, changes nothing, and exits with status 2.  Everything
printed goes through :func:`companion.plain_text.terminal_safe` (no escape sequence in a name reaches the
terminal); JSON escapes every control character.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from pathlib import Path

from ..plain_text import terminal_safe

from .scoring import CRITERIA, PRESETS, ScoringError, custom_preset
from .store import Desk, TournamentError, database_errors


class _Parser(argparse.ArgumentParser):
    """argparse echoes what was typed ("unrecognized arguments: ..."): through terminal_safe like the rest."""

    def _print_message(self, message, file=None):
        super()._print_message(terminal_safe(message) if message else message, file)


def _parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--db", default=None, help="the tournament file (default: beside the game journal)")
    common.add_argument("--dsn", default=None,
                        help="a PostgreSQL database instead of the file, e.g. 'host=desk dbname=league user=desk' "
                             "(desks of a league or a multi-venue event share it; needs catan-companion[postgres])")
    common.add_argument("--json", action="store_true", help="print JSON for machines")
    common.add_argument("--by", default=None, help="who makes this change (audit trail; default $USER)")
    p = _Parser(prog="python -m companion tournament",
                                description="Tournament desk: players, seating, results, standings.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def cmd(name, help_):
        return sub.add_parser(name, parents=[common], help=help_, description=help_)

    c = cmd("new", "create an event")
    c.add_argument("name")
    c.add_argument("--preset", default="catan-studio", choices=[*PRESETS, "custom"])
    c.add_argument("--vp-target", type=int, default=10, help="the game's win target (VP are capped at it)")
    c.add_argument("--seed", default=None, help="seed for seating and lots (default: random, stored)")
    c.add_argument("--points", default=None, help="custom: points per place at a 4-table, e.g. 4,2,1,0")
    c.add_argument("--points3", default=None, help="custom: points per place at a 3-table, e.g. 4,2,0")
    c.add_argument("--order", default=None,
                   help=f"custom: ranking criteria, comma-separated, from {', '.join(CRITERIA)}")
    c.add_argument("--no-cap", action="store_true", help="custom: count VP beyond the win target")
    c.add_argument("--dummy-share", action="store_true", help="custom: 3-tables add an average 4th score to shares")
    c.add_argument("--bye-win", action="store_true",
                   help="a bye counts as a win (a win, a 1st place and its points; no game, no VP)")
    c.add_argument("--weight", action="append", default=[], metavar="NAME=VALUE",
                   help="a seating weight: duty, keep_apart, repeat, recency, seat (see docs/tournament.md)")

    cmd("events", "list events")

    c = cmd("add", "register a player (a late entry once rounds exist)")
    c.add_argument("event")
    c.add_argument("name")
    c.add_argument("--club", default="")
    c.add_argument("--group", action="append", default=[], help="a keep-apart group (repeatable)")

    c = cmd("import-players", "register players from CSV (columns: name, club, groups separated by ;)")
    c.add_argument("event")
    c.add_argument("file")

    c = cmd("groups", "set a player's keep-apart groups")
    c.add_argument("event")
    c.add_argument("player")
    c.add_argument("group", nargs="*")

    c = cmd("drop", "drop a player from the next round on (their games still count)")
    c.add_argument("event")
    c.add_argument("player")

    c = cmd("players", "list players")
    c.add_argument("event")

    c = cmd("seat", "seat the next round and print its tables")
    c.add_argument("event")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--final", action="store_true",
                   help="the final table: the semi-final winners after a --semi round, else the top 4 of the standings")
    g.add_argument("--by-score", action="store_true",
                   help="seat by score (Swiss, スイスドロー): places 1-4 at table 1, 5-8 at table 2, ...")
    g.add_argument("--semi", type=int, default=None, metavar="N", help="the top N seeded into tables by snake order")
    g.add_argument("--table", action="append", default=None, metavar="NAME,NAME,...",
                   help="a seating made by hand: one --table per table, players in seat order")
    c.add_argument("--preview", action="store_true", help="show the seating without storing it")
    c.add_argument("--explain", action="store_true", help="explain the seating's cost item by item")

    c = cmd("unseat", "take back the last round's seating (only while it has no result)")
    c.add_argument("event")

    c = cmd("tables", "print a round's tables")
    c.add_argument("event")
    c.add_argument("round", type=int, nargs="?")
    c.add_argument("--explain", action="store_true")

    c = cmd("result", "enter a table's result: NAME=VP for every player, --winner NAME or --time")
    c.add_argument("event")
    c.add_argument("round", type=int)
    c.add_argument("table", type=int)
    c.add_argument("scores", nargs="+", metavar="NAME=VP")
    c.add_argument("--winner", default=None)
    c.add_argument("--time", action="store_true", help="the time limit ended the game")
    c.add_argument("--correct", action="store_true", help="replace the table's result (the old one stays visible)")
    c.add_argument("--reason", default="", help="why a result is corrected")

    c = cmd("import-result", "fill a table's result from a game record (file or journal game)")
    c.add_argument("event")
    c.add_argument("round", type=int)
    c.add_argument("table", type=int)
    src = c.add_mutually_exclusive_group(required=True)
    src.add_argument("--record", help="a catan-record/1 JSON file")
    src.add_argument("--journal-game", type=int, help="a game id in the journal")
    c.add_argument("--journal", default=None, help="the journal file (default: the companion's)")
    c.add_argument("--time", action="store_true", help="the time limit ended the game (a record without winner)")
    c.add_argument("--correct", action="store_true")
    c.add_argument("--reason", default="")

    c = cmd("standings", "print the standings")
    c.add_argument("event")
    c.add_argument("--through", type=int, default=None, help="only rounds up to this one")
    c.add_argument("--csv", default=None, metavar="FILE", help="write CSV ('-' for stdout)")
    c.add_argument("--html", default=None, metavar="FILE", help="write a printable HTML page")

    c = cmd("league", "one ranking over several events (a league's evenings, a qualifier season), players by name")
    c.add_argument("events", nargs="+", metavar="EVENT")

    c = cmd("slips", "table slips for a round")
    c.add_argument("event")
    c.add_argument("round", type=int)
    c.add_argument("--html", default=None, metavar="FILE")
    c.add_argument("--csv", default=None, metavar="FILE", help="write one row per seat as CSV ('-' for stdout)")

    c = cmd("export", "the whole event as JSON")
    c.add_argument("event")
    c.add_argument("-o", "--output", default=None)

    c = cmd("audit", "who changed what, when")
    c.add_argument("event")

    c = cmd("serve", "the desk server: live display at /, tablets join and send their games (docs/tournament.md)")
    c.add_argument("event")
    c.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every interface)")
    c.add_argument("--port", type=int, default=8731)
    c.add_argument("--password", default=None,
                   help="the organiser's password for /desk (default: $CATAN_DESK_PASSWORD, else a new one, printed)")
    c.add_argument("--no-announce", action="store_true",
                   help="do not announce the desk on the network (mDNS): tablets then type its address")

    c = cmd("pair", "a new pairing code for a table of the current round (the table's earlier tablet is cut off)")
    c.add_argument("event")
    c.add_argument("table", type=int)
    c.add_argument("--round", type=int, default=None, help="another round than the current one")

    c = cmd("floor", "the floor's settings: a tablet's result waits for the referee or not, the rule at time, "
                     "the live display's language (no option: print them)")
    c.add_argument("event")
    c.add_argument("--confirm", choices=("auto", "referee"), default=None,
                   help="referee: a tablet's result waits for the referee's confirm at the desk page")
    c.add_argument("--time-rule", choices=("finish_round", "stop"), default=None,
                   help="when the round clock runs out: finish the round of turns, or stop where it stands")
    c.add_argument("--language", choices=("en", "ja"), default=None, help="the live display's language")
    return p


def _out(args, data, text: str) -> None:
    if args.json:
        print(_json(data))
    else:
        print(terminal_safe(text))


def _json(data) -> str:
    """JSON as printed: ``json`` escapes C0 controls but not C1 (U+0080-U+009F, which a terminal can read as an
    escape), so those are escaped too -- still the same JSON value."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return re.sub(r"[\x7f-\x9f\u2028\u2029]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _tables_text(rnd, names) -> str:
    lines = [f"round {rnd.number} ({rnd.kind})"]
    for t, table in enumerate(rnd.tables, start=1):
        lines.append(f"  table {t}: " + ", ".join(f"{s}. {names[p]}" for s, p in enumerate(table, start=1)))
    byes = (rnd.cost or {}).get("byes", [])
    if byes:
        lines.append("  bye (sits this round out): " + ", ".join(names[p] for p in byes))
    return "\n".join(lines)


def _standings_text(event, rows, names) -> str:
    from .export import _cell, HEADINGS, standing_columns

    cols = standing_columns(event)
    width = max([len(n) for n in names.values()] + [4])
    lines = [f"{event.name} — {event.preset.title}",
             f"{'#':>3}  {'Name':<{width}}  " + "  ".join(f"{HEADINGS[c]:>7}" for c in cols)]
    for r in rows:
        lines.append(f"{r.rank:>3}  {names[r.player]:<{width}}  " + "  ".join(f"{_cell(r, c):>7}" for c in cols)
                     + (f"  (by {r.decided_by})" if r.decided_by else "") + ("  dropped" if r.dropped else ""))
    return "\n".join(lines)


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(terminal_safe(text))
    else:
        Path(path).write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        from .server_cli import serve_main
        return serve_main(args)
    if args.dsn and args.db:
        print(f"tournament {args.command}: give --db FILE or --dsn DSN, not both", file=sys.stderr)
        return 2
    try:
        with (Desk(dsn=args.dsn) if args.dsn else Desk(args.db)) as desk:
            return _run(desk, args)
    except (TournamentError, ScoringError) as error:
        print(terminal_safe(f"tournament {args.command}: {error}"), file=sys.stderr)
        return 2
    except database_errors() as error:  # another desk held the file longer than the wait; the database went away
        print(terminal_safe(f"tournament {args.command}: {args.db or ('the database' if args.dsn else 'the tournament file')} is busy or cannot be "
                            f"written ({error}); nothing was changed, try again"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head`: the change (if any) is committed; stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(desk: Desk, args) -> int:
    from . import export

    c = args.command
    if c == "new":
        preset = args.preset
        if preset == "custom":
            if not (args.points and args.points3 and args.order):
                raise TournamentError("a custom preset needs --points, --points3 and --order")
            preset = custom_preset(args.points.split(","), args.points3.split(","),
                                   [x.strip() for x in args.order.split(",")], cap_vp=not args.no_cap,
                                   dummy_share=args.dummy_share)
        if args.bye_win:
            import dataclasses

            preset = dataclasses.replace(PRESETS[preset] if isinstance(preset, str) else preset, bye_win=True)
        from .seating import SeatingError, Weights
        weights = {}
        for item in args.weight:
            name, sep, value = item.partition("=")
            try:
                weights[name.strip()] = float(value)
            except ValueError:
                raise TournamentError(f"--weight {item!r}: write NAME=NUMBER, e.g. keep_apart=50") from None
        try:
            w = Weights.from_json(weights)
        except SeatingError as error:
            raise TournamentError(str(error)) from None
        ev = desk.create_event(args.name, preset, vp_target=args.vp_target, seed=args.seed, weights=w, who=args.by)
        _out(args, ev.to_json(), f"event {ev.id}: {ev.name} ({ev.preset.title}, seed {ev.seed})")
        return 0
    if c == "events":
        evs = desk.events()
        _out(args, [e.to_json() for e in evs], "\n".join(f"{e.id}: {e.name} ({e.preset.title})" for e in evs)
             or "no events")
        return 0
    if c == "league":
        from .formats import league_standings
        from .seating import SeatingError
        try:
            rows, names = league_standings(desk, args.events)
        except SeatingError as error:
            raise TournamentError(str(error)) from None
        first = desk.event(args.events[0])
        _out(args, {"events": [desk.event(e).name for e in args.events], "preset": first.preset.key,
                    "standings": [s.to_json(names) for s in rows]},
             _standings_text(first, rows, names).replace(first.name, " + ".join(desk.event(e).name
                                                                                for e in args.events), 1))
        return 0
    ev = desk.event(args.event)
    names = desk.names(ev.id)
    if c == "add":
        p = desk.add_player(ev.id, args.name, club=args.club, groups=args.group, who=args.by)
        _out(args, p.to_json(), f"player {p.id}: {p.name} (from round {p.entered_round})")
    elif c == "import-players":
        try:
            text = Path(args.file).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise TournamentError(f"cannot read {args.file}: {error}") from None
        try:
            players = desk.import_players_csv(ev.id, text, who=args.by)
        except TournamentError as error:
            raise TournamentError(f"{args.file}: {error}") from None
        _out(args, [p.to_json() for p in players], f"{len(players)} players registered")
    elif c == "groups":
        p = desk.set_groups(ev.id, args.player, args.group, who=args.by)
        _out(args, p.to_json(), f"{p.name}: keep apart within {', '.join(p.groups) or 'no group'}")
    elif c == "drop":
        p = desk.drop_player(ev.id, args.player, who=args.by)
        _out(args, p.to_json(), f"{p.name} dropped after round {p.dropped_after}")
    elif c == "players":
        ps = desk.players(ev.id)
        _out(args, [p.to_json() for p in ps], "\n".join(
            f"{p.id}: {p.name}" + (f" [{p.club}]" if p.club else "") + (f" groups {', '.join(p.groups)}" if p.groups else "")
            + (f" from round {p.entered_round}" if p.entered_round > 1 else "")
            + (f" dropped after round {p.dropped_after}" if p.dropped_after is not None else "") for p in ps)
            or "no players")
    elif c == "seat":
        kind = "final" if args.final else "semi" if args.semi else "score" if args.by_score else "swiss"
        if args.table:
            if args.preview:
                raise TournamentError("--preview and --table: a hand-made seating is already known")
            rnd = desk.seat_round(ev.id, tables=[[n.strip() for n in t.split(",") if n.strip()] for t in args.table],
                                  who=args.by)
            cost = None
        elif args.preview:
            plan = desk.plan_round(ev.id, kind=kind, size=args.semi)
            from .store import Round
            rnd = Round(plan.round, kind, plan.tables,
                        dict(plan.cost.to_json(names), **({"byes": list(plan.byes)} if plan.byes else {})))
            cost = plan.cost
        else:
            rnd = desk.seat_round(ev.id, kind=kind, size=args.semi, who=args.by)
            cost = None
        data = rnd.to_json(names)
        text = _tables_text(rnd, names)
        if args.explain:
            if cost is None:
                cost = _recost(desk, ev, rnd)
            text += "\n" + "\n".join(cost.explain(names))
        _out(args, data, text)
    elif c == "unseat":
        desk.unseat_last_round(ev.id, who=args.by)
        _out(args, {"ok": True}, "last round's seating taken back")
    elif c == "tables":
        rounds = desk.rounds(ev.id)
        if not rounds:
            raise TournamentError("no round has been seated")
        rnd = desk.round(ev.id, args.round) if args.round else rounds[-1]
        text = _tables_text(rnd, names)
        if args.explain:
            text += "\n" + "\n".join(_recost(desk, ev, rnd).explain(names))
        _out(args, rnd.to_json(names), text)
    elif c == "result":
        vp = {}
        for item in args.scores:
            name, sep, value = item.rpartition("=")
            if not sep or not name:
                raise TournamentError(f"{item!r}: write each score as NAME=VP")
            try:
                vp[name] = int(value)
            except ValueError:
                raise TournamentError(f"{item!r}: VP must be a whole number") from None
        r = desk.enter_result(ev.id, args.round, args.table, vp, args.winner, ended_by_time=args.time,
                              correct=args.correct, reason=args.reason, who=args.by)
        _out(args, r.to_json(names), _result_text(r, names))
    elif c == "import-result":
        from ..record import RecordError, load_record
        from ..record.untrusted import one_line

        # A record comes from anywhere: what a message quotes of it (its players' names, an event's type, the
        # file's name) is one short line, never a planted second line or a 100 kB echo (docs/record-format.md).
        try:
            if args.record:
                record = load_record(args.record)
                source = f"record: {args.record}"
            else:
                from ..record.journal import Journal, JournalError
                try:
                    with Journal(args.journal) as journal:
                        record = journal.load(args.journal_game)
                        source = f"journal: {journal.path} game {args.journal_game}"
                except JournalError as error:
                    raise TournamentError(str(error)) from None
            r = desk.enter_record(ev.id, args.round, args.table, record, ended_by_time=args.time, source=source,
                                  correct=args.correct, reason=args.reason, who=args.by)
        except RecordError as error:
            raise TournamentError(one_line(f"{args.record}: {error}")) from None
        except TournamentError as error:
            raise TournamentError(one_line(str(error))) from None
        _out(args, r.to_json(names), _result_text(r, names))
    elif c == "standings":
        rows = desk.standings(ev.id, through_round=args.through)
        if args.csv:
            _write(args.csv, export.standings_csv(ev, rows, names))
        if args.html:
            _write(args.html, export.standings_html(ev, rows, names, rounds_done=args.through))
        if not (args.csv == "-" or args.html == "-"):
            _out(args, {"event": ev.name, "preset": ev.preset.key, "order": list(ev.preset.order),
                        "standings": [s.to_json(names) for s in rows]}, _standings_text(ev, rows, names))
    elif c == "slips":
        rnd = desk.round(ev.id, args.round)
        if args.html:
            _write(args.html, export.slips_html(ev, rnd, names))
        if args.csv:
            _write(args.csv, export.slips_csv(ev, rnd, names))
        if not (args.html == "-" or args.csv == "-"):
            _out(args, rnd.to_json(names), export.slips_text(ev, rnd, names))
    elif c == "export":
        data = export.event_json(desk, ev.id)
        text = _json(data) + "\n"
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
    elif c == "floor":
        from . import referee
        from .server_store import Floor
        floor = Floor(desk, ev.id)
        if args.confirm or args.time_rule or args.language:
            referee.set_settings(floor, confirm=args.confirm, time_rule=args.time_rule, language=args.language,
                                 who=args.by)
        now = referee.settings(floor)
        _out(args, now.to_json(), f"{ev.name}: results from tablets {now.confirm}, at time {now.time_rule}, "
                                  f"display language {now.language}")
    elif c == "pair":
        from .server_store import Floor
        p = Floor(desk, ev.id).issue_code(args.table, args.round, who=args.by)
        _out(args, {"round": p.round, "table": p.table, "code": p.code},
             f"round {p.round} table {p.table}: pairing code {p.code}")
    elif c == "audit":
        rows = desk.audit(ev.id)
        import time as _time
        _out(args, rows, "\n".join(
            f"{_time.strftime('%Y-%m-%d %H:%M:%S', _time.localtime(a['at']))}  {a['who']}: {a['action']} "
            f"{json.dumps(a['details'], ensure_ascii=False)}" for a in rows))
    return 0


def _recost(desk, ev, rnd):
    from . import seating

    return seating.seating_cost(rnd.tables, rnd.number, desk.history(ev.id, before=rnd.number),
                                groups={p.id: p.groups for p in desk.players(ev.id)}, weights=ev.weights)


def _result_text(r, names) -> str:
    parts = ", ".join(f"{names[p]} {v}" for p, v in r.vp.items())
    how = f"winner {names[r.winner]}" if r.winner is not None else "no winner"
    if r.ended_by_time:
        how += ", ended by the time limit"
    text = f"round {r.round} table {r.table}: {parts}; {how}"
    for w in r.warnings:
        text += f"\n  warning: {w}"
    return text
