"""Harbours in "Scan the board", by touches on the real app: a harbour whose trade or coast edge the reader is
unsure of is ringed as an unsure hex is; a tap on a harbour's badge selects it, a tap on a trade sets it (its
own trade says it is right), "Other coast" moves it to its sea hex's other coast edge; "Use this board" hands on
the harbours as corrected.  Real photos of real boards (CatanAI's, labelled in tests/data/boards/catanai)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kivy.metrics import sp

from companion.ui import driver as d
from vision.board.labels import rotate
from tests.test_ui_board_scan import DATA, as_read, labelled, read, turned_to

pytestmark = pytest.mark.timeout(300)

SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screens"


def labelled_harbours(name: str) -> dict:
    """sea hex -> (trade, [land, sea] or None) as labelled."""
    board = json.loads((DATA / "labels" / f"{name}.json").read_text())["board"]
    return {tuple(h["sea"]): (h["trade"], h.get("edge")) for h in board["harbors"]}


def read_turns(scan, name: str) -> int:
    truth = labelled(name)
    return max(range(6), key=lambda k: sum(truth[rotate(h, k)][0] == t for h, t in scan.terrains.items()))


def tap_harbour(screen, sea) -> None:
    centre, _ = screen.scan.harbour_badge(screen.scan.harbour(sea))
    d.tap_at(*screen.ids.picture.window_pos(*centre))
    assert screen.selected_harbour == sea and screen.selected is None
    assert screen.picking_harbour and not screen.picking


def test_an_unsure_harbour_is_ringed_and_a_tap_puts_it_right(tmp_path):
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        d.tap(editor.ids.scan)
        screen = app.root.get_screen("board_scan")

        # testimg2: the brick harbour (a small orange-brown picture on the sail) is read 3:1, unsure: ringed.
        read(app, screen, DATA / "photos" / "testimg2.jpg")
        scan = screen.scan
        turns = read_turns(scan, "testimg2")
        truth = {rotate(sea, -turns % 6): trade for sea, (trade, _) in labelled_harbours("testimg2").items()}
        wrong = [h.sea for h in scan.harbours if h.trade != truth[h.sea]]
        assert wrong and set(wrong) <= scan.unsure_harbours  # every harbour read wrong is ringed
        assert f"{len(scan.unsure)} hexes to check, and {len(scan.unsure_harbours)} harbours" in screen.message
        brick = wrong[0]
        tap_harbour(screen, brick)
        assert screen.selected_text == "harbour 3:1"
        d.tap(screen.ids.trade_brick)
        assert scan.harbour(brick).trade == "brick" and brick not in scan.unsure_harbours
        # a ringed harbour read right: a tap on its own trade says so, and it is no longer ringed
        for sea in sorted(scan.unsure_harbours):
            tap_harbour(screen, sea)
            d.tap(screen.ids["trade_" + scan.harbour(sea).trade.replace(":", "_")])
            assert sea not in scan.unsure_harbours
        assert {h.sea: h.trade for h in scan.harbours} == {sea: truth[sea] for sea in truth if scan.harbour(sea)}

        # test4_2: a harbour on a side hex of the ring is read at the wrong coast edge, sure (its piers misled
        # the reader): a tap on it, "Other coast", and its trade to say the rest is right.
        read(app, screen, DATA / "photos" / "test4_2.jpg")
        scan = screen.scan
        turns = read_turns(scan, "test4_2")
        edges = {rotate(sea, -turns % 6): [tuple(rotate(tuple(p), -turns % 6)) for p in edge]
                 for sea, (_, edge) in labelled_harbours("test4_2").items() if edge}
        moved = [h for h in scan.harbours if h.sea in edges and h.land != edges[h.sea][0]]
        assert moved, "test4_2 has one harbour at the wrong edge (docs/board-reader.md)"
        harbour = moved[0]
        tap_harbour(screen, harbour.sea)
        d.tap(screen.ids.other_edge)
        assert scan.harbour(harbour.sea).land == edges[harbour.sea][0]
        assert screen.selected_harbour == harbour.sea  # still selected: its trade may follow
        d.tap(screen.ids["trade_" + harbour.trade.replace(":", "_")])
        assert all(h.land == edges[h.sea][0] for h in scan.harbours if h.sea in edges)

        # Used: the board handed on carries the harbours as corrected, in the record's format.
        truth_hexes = turned_to(as_read(scan), labelled("test4_2"))
        d.tap(screen.ids.use)
        board = editor.to_json() if app.root.current == "board_editor" else app.root.get_screen("new_game").board_json
        # the editor may list the sea hex first
        handed = {frozenset(tuple(p) for p in h["edge"]): h["trade"] for h in board["harbors"]}
        want = {frozenset((scan.in_record(h.land), scan.in_record(h.sea))): h.trade for h in scan.harbours}
        assert handed == want and len(handed) == 9, (app.root.current, sorted(handed), sorted(want))
        assert truth_hexes  # the hexes were read from the same photo (test_ui_board_scan corrects them)
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_the_scan_screen_fits_with_a_harbour_being_corrected(tmp_path, size, lang):
    # The trade buttons replace the terrain and number rows: all in the window, a finger's size, no word cut.
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        d.tap(app.root.get_screen("start").ids.new_game)
        d.tap(app.root.get_screen("new_game").ids.edit)
        d.tap(app.root.get_screen("board_editor").ids.scan)
        screen = app.root.get_screen("board_scan")
        read(app, screen, DATA / "photos" / "testimg2.jpg")
        tap_harbour(screen, sorted(screen.scan.unsure_harbours)[0])
        d.settle()
        assert d.layout_problems(app.root) == []
        # the reading's message (testimg2: hexes and harbours to check, 8 of 9 harbours, the robber not found)
        # in letters a table reads at arm's length: lying down it takes the room the rows leave (it held them in
        # ~11 px letters in a 52 dp box with 160 px free below it)
        message = screen.ids.message
        assert "8 of 9" in message.text or "9個中8個" in message.text
        if size[0] > size[1]:
            assert message.font_size >= sp(14), message.font_size
        d.screenshot(SHOTS / f"board-scan-harbour-{'landscape' if size[0] > size[1] else 'portrait'}-{lang}.png")
    finally:
        d.stop_app(app)


def test_a_board_short_of_the_sets_harbours_is_said_before_the_game(tmp_path):
    """A reading with fewer harbours than the set (testimg2: one ship not seen) says how many it read, and
    "Use this board" goes to the editor, which says the board is short of the set's harbours (a table may still
    start so); a board that passed the check went on into the game short of them before."""
    from companion.rules import standard_board

    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        d.tap(editor.ids.scan)
        screen = app.root.get_screen("board_scan")
        read(app, screen, DATA / "photos" / "testimg2.jpg")
        scan = screen.scan
        assert len(scan.harbours) == 8  # of the 9 the photo shows
        assert "8 of 9 harbours read." in screen.message
        d.tap(screen.ids.use)
        assert app.root.current == "board_editor" and len(editor.harbors) == 8

        # The editor says it of any base board short of harbours, the problems first; it still starts.
        board = standard_board(1, separate_red_numbers=True).to_json()
        board["harbors"] = board["harbors"][:7]
        editor.load(board, back="new_game")
        d.settle()
        assert editor.message == "Board is valid, with 7 of the set's 9 harbours: Harbor adds the others."
        assert not editor.valid  # said in the problems' colour, not as a success
        d.tap(editor.ids.use)
        assert app.root.current == "new_game" and len(app.root.get_screen("new_game").board_json["harbors"]) == 7
    finally:
        d.stop_app(app)
