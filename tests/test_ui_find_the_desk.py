"""Menu → Tournament table → "Find the desk", by touch under Xvfb, with a real desk server announcing itself by mDNS
on 127.0.0.1 (zeroconf, as ``tournament serve`` does): the desk is listed, one tap fills its address, and the table
joins with only its code typed. Before the desk is up the screen says that none was found (the typed address
stays the way in). Event names are unique per run, so other desks on this machine are never taken for ours; waits
are on the app's state."""

from __future__ import annotations

import uuid

import pytest

import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
from companion.desk_link import request
from companion.tournament.server import DeskServer
from companion.ui.driver import find, settle, start_app, stop_app, tap, wait_until
from companion.ui.tournament_table import TEXTS

from test_desk_discovery import PASSWORD, make_event
from test_ui_tournament_table import type_into

pytestmark = pytest.mark.timeout(180)


def search(screen) -> None:
    tap(find(screen, screen.find_button.text))
    assert screen.find_button.disabled  # looking (a second tap does not start a second search)
    assert wait_until(lambda: not screen.find_button.disabled, timeout=30)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_find_the_desk_lists_it_and_one_tap_fills_its_address(tmp_path, lang):
    event = f"Aoba Open {uuid.uuid4().hex[:6]}"  # (sorted first among desks other runs here announce)
    make_event(tmp_path / "desk.sqlite3", event)
    app = start_app(tmp_path / "tablet")
    try:
        app.lang = lang
        tap(find(app.root, TEXTS[lang]["menu"]))
        screen = app.root.get_screen("tournament_table")
        assert screen.find_button.text == TEXTS[lang]["find"]
        # no desk of ours yet: not offered; with no desk at all on this machine's network, the screen says so
        search(screen)
        assert event not in [d.event for d in screen.found]
        if not screen.found:
            assert screen.info.text == TEXTS[lang]["found_none"]
            assert screen.found_row.height == 0 and screen.address.text == ""
        with DeskServer(event, tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD,
                        announce=True) as desk:
            if not desk.advertisement.registered.wait(15):
                pytest.skip(f"no multicast on this machine's network: {desk.advertisement.error}")
            search(screen)
            ours = [d for d in screen.found if d.event == event]
            assert ours and ours[0].address == f"127.0.0.1:{desk.port}", screen.found
            type_into(screen.address, "")  # (with one desk found its address is filled already: tapped anyway)
            tap(find(screen, f"{event} — 127.0.0.1:{desk.port}"))
            assert screen.address.text == f"127.0.0.1:{desk.port}"
            assert screen.info.text == TEXTS[lang]["chosen"].format(event=event, address=f"127.0.0.1:{desk.port}")
            code = request(desk.url, "POST", "/api/admin/pair", {"table": 1}, token=PASSWORD)["code"]
            type_into(screen.code, code)
            tap(find(screen, TEXTS[lang]["join"]))
            assert wait_until(lambda: screen.assignment is not None, timeout=30)
            assert screen.assignment.event == event and screen.assignment.table == 1
            # the players listed as the language lists them (the Japanese screen said 「佐藤, 中村, …」)
            listed = ("、" if lang == "ja" else ", ").join(screen.assignment.players)
            assert screen.info.text == TEXTS[lang]["joined"].format(event=event, round=1, table=1, players=listed)
            settle()
    finally:
        stop_app(app)
    assert screen._finder is None  # the search's thread was waited for at exit
