"""What the desk hands out: standings as CSV and a printable HTML page, table slips, the whole event as JSON."""

from __future__ import annotations

import csv
import html
import io
import re
import time
from typing import Mapping, Sequence

from .scoring import CRITERIA, Standing
from .store import Desk, Event, Round

EXPORT_FORMAT = "catan-tournament/1"


def standing_columns(event: Event) -> list[str]:
    """The columns the preset ranks by, in its order (lot last, when used), after rank and name."""
    cols = ["games"]
    for c in event.preset.order:
        if c == "places":
            cols += ["firsts", "seconds", "thirds"]
        elif c not in cols:
            cols.append(c)
    return cols


def _cell(row: Standing, col: str) -> str:
    if col == "games":
        return str(row.games)
    if col == "wins":
        return str(row.wins)
    if col == "points":
        p = row.points
        return str(p.numerator) if p.denominator == 1 else f"{float(p):.2f}"
    if col == "vp":
        return str(row.vp)
    if col == "share_sum":
        return f"{float(row.share_sum) * 100:.2f}"
    if col == "share_avg":
        return f"{float(row.share_avg) * 100:.2f}"
    if col == "firsts":
        return str(row.place_counts[0])
    if col == "seconds":
        return str(row.place_counts[1])
    if col == "thirds":
        return str(row.place_counts[2])
    if col == "lot":
        return str(row.lot)
    raise KeyError(col)


HEADINGS = {"games": "Games", "wins": "Wins", "points": "Points", "vp": "VP", "share_sum": "VP share % (sum)",
            "share_avg": "VP share % (avg)", "firsts": "1st", "seconds": "2nd", "thirds": "3rd", "lot": "Lot"}


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV injection"): = + - @, and tab and CR, which
#: some spreadsheets skip before looking for one.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def spreadsheet_safe(cell: object) -> str:
    """A CSV cell a spreadsheet shows as written: text starting with = + - @ tab or CR gets a leading ``'``
    (a player named ``=HYPERLINK(...)`` stays a name, not a link), numbers (``-2``, ``12.50``) stay numbers."""
    text = str(cell)
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _csv(rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerows([[spreadsheet_safe(c) for c in row] for row in rows])
    return out.getvalue()


def standings_csv(event: Event, rows: Sequence[Standing], names: Mapping[int, str]) -> str:
    cols = standing_columns(event)
    return _csv([["rank", "name"] + cols + ["decided_by", "dropped"]] +
                [[r.rank, names[r.player]] + [_cell(r, c) for c in cols] + [r.decided_by or "", "yes" if r.dropped else ""]
                 for r in rows])


def slips_csv(event: Event, rnd: Round, names: Mapping[int, str]) -> str:
    """A round's slips as one sheet: a row per seat, the VP and winner columns left to fill in."""
    return _csv([["event", "round", "table", "seat", "name", "vp", "winner"]] +
                [[event.name, rnd.number, t, s, names[p], "", ""]
                 for t, table in enumerate(rnd.tables, start=1) for s, p in enumerate(table, start=1)])


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border: 1px solid #888; padding: 0.25em 0.5em; text-align: right; }}
th {{ background: #eee; }} td.name, th.name {{ text-align: left; }}
tr.dropped td {{ color: #777; }}
.slip {{ border: 2px solid #000; padding: 0.8em; margin-bottom: 1em; page-break-inside: avoid; }}
.slip td.vp {{ width: 5em; }} .slip td.win {{ width: 4em; }} .slip td.sign {{ width: 12em; }}
p.note {{ font-size: 0.85em; color: #444; }}
@media print {{ body {{ margin: 0; }} .slip {{ page-break-after: always; }} }}
</style></head><body>
{body}
</body></html>
"""


def standings_html(event: Event, rows: Sequence[Standing], names: Mapping[int, str], *,
                   rounds_done: int | None = None) -> str:
    """A printable page: the standings table and how ties are broken."""
    e = html.escape
    cols = standing_columns(event)
    head = "".join(f"<th>{e(HEADINGS[c])}</th>" for c in cols)
    body_rows = []
    for r in rows:
        cls = ' class="dropped"' if r.dropped else ""
        cells = "".join(f"<td>{e(_cell(r, c))}</td>" for c in cols)
        note = e(CRITERIA.get(r.decided_by, "")) if r.decided_by else ""
        body_rows.append(f"<tr{cls}><td>{r.rank}</td><td class=\"name\">{e(names[r.player])}"
                         f"{' (dropped)' if r.dropped else ''}</td>{cells}<td class=\"name\">{note}</td></tr>")
    order = ", then ".join(CRITERIA[c] for c in event.preset.order)
    after = f" after round {rounds_done}" if rounds_done else ""
    body = (f"<h1>{e(event.name)}: standings{e(after)}</h1>\n"
            f"<p class=\"note\">Scoring: {e(event.preset.title)}. Ranked by {e(order)}. "
            f"VP are counted {'up to the win target of ' + str(event.vp_target) if event.preset.cap_vp else 'in full'}."
            f" Printed {e(time.strftime('%Y-%m-%d %H:%M'))}.</p>\n"
            f"<table><thead><tr><th>Rank</th><th class=\"name\">Name</th>{head}"
            f"<th class=\"name\">Placed below the row above by</th></tr></thead>\n<tbody>\n"
            + "\n".join(body_rows) + "\n</tbody></table>")
    return _PAGE.format(title=e(f"{event.name} standings"), body=body)


def slips_text(event: Event, rnd: Round, names: Mapping[int, str]) -> str:
    """Table slips as plain text (one block per table), for a terminal or a receipt printer."""
    out = []
    for t, table in enumerate(rnd.tables, start=1):
        out.append(f"{event.name} — round {rnd.number} — table {t}")
        for s, p in enumerate(table, start=1):
            out.append(f"  seat {s}: {names[p]:<24} VP ____  winner [ ]  signature ____________")
        out.append("  ended by time limit [ ]")
        out.append("")
    return "\n".join(out)


def slips_html(event: Event, rnd: Round, names: Mapping[int, str]) -> str:
    """Table slips, one per printed page: seats in start order, boxes for VP, winner and signatures."""
    e = html.escape
    blocks = []
    for t, table in enumerate(rnd.tables, start=1):
        rows = "".join(f"<tr><td>{s}</td><td class=\"name\">{e(names[p])}</td><td class=\"vp\"></td>"
                       f"<td class=\"win\"></td><td class=\"sign\"></td></tr>" for s, p in enumerate(table, start=1))
        blocks.append(f"<div class=\"slip\"><h2>{e(event.name)} — round {rnd.number} — table {t}</h2>"
                      f"<table><thead><tr><th>Seat</th><th class=\"name\">Player</th><th>VP</th><th>Winner</th>"
                      f"<th>Signature</th></tr></thead><tbody>{rows}</tbody></table>"
                      f"<p>Ended by the time limit: &#9744;</p></div>")
    return _PAGE.format(title=e(f"{event.name} round {rnd.number} slips"), body="\n".join(blocks))


def event_json(desk: Desk, event_ref: int | str) -> dict:
    """The whole event: settings, players, rounds, every result version (corrections included), the audit
    trail and the standings.  Player references are names (unique within an event)."""
    ev = desk.event(event_ref)
    names = desk.names(ev.id)
    rows = desk.standings(ev.id)
    return {
        "format": EXPORT_FORMAT,
        "event": ev.to_json(),
        "players": [p.to_json() for p in desk.players(ev.id)],
        "rounds": [r.to_json(names) for r in desk.rounds(ev.id)],
        "results": [r.to_json(names) for r in desk.results(ev.id, with_history=True)],
        "standings": [s.to_json(names) for s in rows],
        "audit": desk.audit(ev.id),
    }
