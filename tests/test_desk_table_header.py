"""A table's header (its players in seat order, the desk's board) as the desk gives it to a tablet is the one built
from the seating as it is now: the desk keeps the header it built for a seating (every tablet asks for its table
every 10 s, and building it cost 2.4 ms under the desk's lock), so a re-seat, a swap or a changed table must give
the new header, never the kept one. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from companion.tournament.server_store import Floor
from companion.tournament.store import Desk

from test_desk_server import NAMES


@pytest.fixture(params=["sqlite", "postgresql"])
def desk(request, tmp_path):
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    with (Desk(dsn=dsn) if dsn else Desk(tmp_path / "desk.sqlite3")) as d:
        ev = d.create_event("Kobe Open", seed=7)
        for name in NAMES:
            d.add_player(ev.id, name)
        d.seat_round(ev.id)
        yield d


def fresh(desk, round_no, table):
    """The header built from scratch by a desk that never built it before."""
    return Floor(desk, "Kobe Open").table_header(round_no, table)


@pytest.mark.parametrize("change", ["swap two tables' players", "swap seats at a table", "seat a second round",
                                    "seat the same again"])
def test_the_header_a_tablet_is_given_follows_the_seating(desk, change):
    floor = Floor(desk, "Kobe Open")
    ev = floor.event.id
    before = [floor.table_header(1, t) for t in (1, 2, 3)]
    assert before == [fresh(desk, 1, t) for t in (1, 2, 3)]
    names = desk.names(ev)
    tables = [[names[p] for p in t] for t in desk.round(ev, 1).tables]
    if change == "seat a second round":
        desk.seat_round(ev)
        round_no = 2
    else:
        if change == "swap two tables' players":
            tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
        elif change == "swap seats at a table":
            tables[0][0], tables[0][1] = tables[0][1], tables[0][0]
        desk.unseat_last_round(ev)
        desk.seat_round(ev, tables=tables)
        round_no = 1
    after = [floor.table_header(round_no, t) for t in (1, 2, 3)]
    assert after == [fresh(desk, round_no, t) for t in (1, 2, 3)]
    if change != "seat the same again" and round_no == 1:
        assert after[0]["players"] != before[0]["players"]
        assert after[0]["board"] == before[0]["board"]  # the table's board is the table's, whoever sits there
    # a header given out is the tablet's: changing it changes nothing the desk gives next
    after[0]["players"][0]["name"] = "someone else"
    assert floor.table_header(round_no, 1) == fresh(desk, round_no, 1)
