"""Play's "Check the board", by touches on the real app: a real photo of a board (CatanAI's testimg3) with the
game's pieces painted where the game has them -- and one road more, the one the table built without telling the
app.  Check board lists "a red road on the side between ... that the game does not have — add it?"; nothing is
recorded until the Add button is tapped, which records the road as a tap on the board does; a difference the
rules refuse (a road of a player not to play) is refused with the rules' reason and records nothing."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.ui import driver as d
from vision.board.piece_paint import draw_pieces, in_lattice
from vision.board.piece_check import best_turn
from vision.board.reader import board_object

pytestmark = pytest.mark.timeout(300)

PHOTO = Path(__file__).parent / "data" / "boards" / "catanai" / "photos" / "testimg3.jpg"
LABEL = PHOTO.parent.parent / "labels" / "testimg3.json"


def record_on_the_photos_board():
    """A 3-player base game on the board the photo shows (its label), red's first settlement placed."""
    from companion.record import Record, new_game

    label = json.loads(LABEL.read_text())["board"]
    terrains = {tuple(h["at"]): h["terrain"] for h in label["hexes"]}
    numbers = {tuple(h["at"]): h.get("number") for h in label["hexes"]}
    board = board_object(terrains, numbers, tuple(label["robber"]), 0)
    record = Record("base", [{"name": n, "color": c} for n, c in (("Aki", "red"), ("Ben", "blue"), ("Chie", "white"))],
                    board)
    game = new_game(record)
    spot = sorted(v for v in game.legal_settlement_spots_setup() if len(game.board.vertex_land[v]) == 3)[10]
    event = {"type": "build", "player": 0, "piece": "settlement", "at": [list(h) for h in spot]}
    game.push(event)
    record.events.append(event)
    return record, game, spot


def test_check_the_board_then_add_the_missing_road(tmp_path):
    from vision.board.scan import BoardScan

    record, game, settlement = record_on_the_photos_board()
    road = sorted(e for p, e in game.legal_setup_links() if p == "road")[0]
    far = sorted(e for e in game.board.edges if game.board.edge_is_land(e)
                 and not set(e) & {h for h in settlement})[0]
    # The photo: the table's board with red's settlement, red's road and a blue road (blue is not to play)
    scan = BoardScan.of_file(PHOTO)
    turns, agree = best_turn(scan.terrains, scan.numbers, game.board)
    assert agree >= 17
    painted = draw_pieces(scan.photo, scan.reading.lattice.homography, [
        ("settlement", "red", in_lattice(settlement, turns)), ("road", "red", in_lattice(road, turns)),
        ("road", "blue", in_lattice(far, turns))])
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), painted)

    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        assert app.table.game.waiting_for() == 0 and app.table.game.state.phase == "setup_road"
        d.tap(play.ids.check_board)
        assert app.root.current == "board_check"
        check = app.root.get_screen("board_check")
        events = len(app.table.record.events)

        # A photo of another board: said, nothing listed, nothing recorded.
        check.ids.path.text = str(PHOTO.parent / "test4_2.jpg")
        d.tap(check.ids.read_file)
        assert d.wait_until(lambda: not check.reading, timeout=120), "the photo is still being read"
        assert check.message.startswith("This photo's board is not the game's board: only "), check.message
        assert not check.ids.differences.children and len(app.table.record.events) == events

        check.ids.path.text = str(photo)
        d.tap(check.ids.read_file)
        assert d.wait_until(lambda: not check.reading, timeout=120), "the photo is still being read"
        d.settle()
        rows = {row.difference.at: row for row in check.ids.differences.children}
        assert road in rows, (check.message, [r.children[-1].text for r in rows.values()])
        said = rows[road].children[-1].text
        assert said.startswith("A red road on the side between the ") and said.endswith(
            "that the game does not have — add it?"), said
        assert "[" not in said and "(" not in said  # named as players say it, no coordinates
        assert len(app.table.record.events) == events, "something was recorded without a tap"
        assert settlement not in rows, "the settlement on the photo and in the game was listed"
        d.screenshot(Path(__file__).resolve().parents[1] / "docs" / "screens" / "board-check-en.png")
        assert d.layout_problems(app.root) == []  # every row's button a finger's size, no sentence cut

        # Blue's road: the rules refuse it (not blue's turn), their reason is said, nothing is recorded.
        if far in rows:
            d.tap(rows[far].children[0])
            assert len(app.table.record.events) == events
            assert check.message, "a refusal said nothing"
            assert app.table.game.state.pieces.get(far) is None

        # Red's road: one tap records it, as a tap on that side of the board would have.
        rows = {row.difference.at: row for row in check.ids.differences.children}
        d.tap(rows[road].children[0])
        assert app.table.game.state.pieces.get(road) == (0, "road"), check.message
        assert app.table.record.events[-1] == {"type": "build", "player": 0, "piece": "road",
                                               "at": [list(h) for h in road]}
        assert check.message.startswith("Recorded: A red road")
        assert road not in {row.difference.at for row in check.ids.differences.children}

        d.tap(check.ids.back)
        assert app.root.current == "play"
    finally:
        d.stop_app(app)


def test_the_check_screen_fits_upright_in_japanese(tmp_path):
    # The photo above the list, every row's button a finger's size, no sentence cut (driver.layout_problems),
    # the differences said in Japanese, on an upright tablet.
    from vision.board.scan import BoardScan

    record, game, settlement = record_on_the_photos_board()
    road = sorted(e for p, e in game.legal_setup_links() if p == "road")[0]
    scan = BoardScan.of_file(PHOTO)
    turns, _ = best_turn(scan.terrains, scan.numbers, game.board)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), draw_pieces(scan.photo, scan.reading.lattice.homography, [
        ("settlement", "red", in_lattice(settlement, turns)), ("road", "red", in_lattice(road, turns))]))
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.lang = "ja"
        d.settle()
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        d.tap(app.root.get_screen("play").ids.check_board)
        check = app.root.get_screen("board_check")
        check.ids.path.text = str(photo)
        d.tap(check.ids.read_file)
        assert d.wait_until(lambda: not check.reading, timeout=120), "the photo is still being read"
        d.settle()
        rows = {row.difference.at: row for row in check.ids.differences.children}
        assert road in rows, check.message
        assert rows[road].children[-1].text.startswith("ゲームにない赤の道（"), rows[road].children[-1].text
        d.screenshot(Path(__file__).resolve().parents[1] / "docs" / "screens" / "board-check-portrait-ja.png")
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
