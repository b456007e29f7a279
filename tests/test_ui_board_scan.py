"""The board editor's "Scan the board", by touches on the real app: a real photo of a board read, the reading
drawn over it with the unsure hexes ringed, every hex the reader got wrong put right by a tap on the photo and a
tap on its terrain or number, the board used and the game started on exactly that board.  A photo with no board
and a missing file are said and change nothing; a board the standard set cannot make goes to the editor, which
names why; the camera named in Settings (here a video file, as Settings allows) gives the photo too."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from companion.ui import driver as d
from vision.board.labels import rotate
from vision.board.lattice import LAND
from tests.test_board_reader import dice_photo

pytestmark = pytest.mark.timeout(300)

DATA = Path(__file__).parent / "data" / "boards" / "catanai"


def labelled(name: str) -> dict:
    """The label's land hexes: hex -> (terrain, number or None); the robber's hex under the key "robber"."""
    board = json.loads((DATA / "labels" / f"{name}.json").read_text())["board"]
    out = {tuple(h["at"]): (h["terrain"], h.get("number")) for h in board["hexes"]}
    out["robber"] = tuple(board["robber"]) if board["robber"] else None
    return out


def as_read(scan) -> dict:
    return {h: (scan.terrains[h], None if scan.terrains[h] == "desert" else scan.numbers[h]) for h in LAND}


def turned_to(reading: dict, label: dict) -> dict:
    """The label turned the way the reader turned the board (the turn agreeing on most terrains)."""
    turns = [{(k if k == "robber" else rotate(k, t)): (rotate(v, t) if k == "robber" and v else v)
              for k, v in label.items()} for t in range(6)]
    return max(turns, key=lambda lab: sum(lab[h][0] == reading[h][0] for h in LAND))


def read(app, screen, photo: Path) -> None:
    """The photo's path typed under the pictures' list (shown first when a board read is on the screen)."""
    if not screen.choosing:
        d.tap(screen.ids.pictures)
    screen.ids.path.text = str(photo)
    d.tap(screen.ids.read_file)
    assert d.wait_until(lambda: not screen.reading, timeout=120), "the photo is still being read"
    d.settle()


def tap_hex(screen, h) -> None:
    picture = screen.ids.picture
    d.tap_at(*picture.window_pos(*screen.scan.centre(h)))
    assert screen.selected == h


def correct(screen, truth: dict) -> int:
    """Put right every hex read wrong, by touches; the taps it took."""
    taps = 0
    for h in LAND:
        terrain, number = truth[h]
        if (screen.scan.terrains[h], screen.scan.numbers[h] if terrain != "desert" else None) == (terrain, number):
            continue
        if screen.selected != h:  # the next hex to check is already selected after a correction
            tap_hex(screen, h)
            taps += 1
        if screen.scan.terrains[h] != terrain:
            d.tap(d.find(screen.ids.terrains, screen_word(terrain)))
            taps += 1
        if terrain != "desert" and screen.scan.numbers[h] != number:
            d.tap(d.find(screen.ids.numbers, str(number)))
            taps += 1
    if screen.scan.robber != truth["robber"]:
        tap_hex(screen, truth["robber"])
        d.tap(screen.ids.robber_here)
        taps += 2
    return taps


def screen_word(key: str) -> str:
    from kivy.app import App

    return App.get_running_app().tr(key)


def test_scan_correct_and_use_a_board_photo(tmp_path):
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        ng = app.root.get_screen("new_game")
        generated = editor.to_json()
        d.tap(editor.ids.scan)
        assert app.root.current == "board_scan"
        scan_screen = app.root.get_screen("board_scan")

        # Nothing to use yet, a missing file and a photo of dice: each said, nothing read, nothing changed.
        d.tap(scan_screen.ids.use)
        assert scan_screen.message == "Read a photo first." and app.root.current == "board_scan"
        scan_screen.ids.path.text = str(tmp_path / "nowhere.jpg")
        d.tap(scan_screen.ids.read_file)
        assert scan_screen.message == f"{tmp_path / 'nowhere.jpg'}: no such file."
        dice = tmp_path / "dice.png"
        cv2.imwrite(str(dice), dice_photo())
        read(app, scan_screen, dice)
        assert scan_screen.message.startswith("No board found in dice.png")
        assert scan_screen.scan is None and scan_screen.ids.picture.texture is None
        assert editor.to_json() == generated

        # A real photo (this set's board has four hills and three 10s): read, its unsure hexes ringed and
        # counted; used as it is, the editor takes it and names what the standard set cannot make.
        read(app, scan_screen, DATA / "photos" / "testimg3.jpg")
        scan = scan_screen.scan
        assert scan is not None and scan_screen.ids.picture.texture is not None
        assert f"{len(scan.unsure)} hexes to check" in scan_screen.message
        truth = turned_to(as_read(scan), labelled("testimg3"))
        d.tap(scan_screen.ids.use)
        assert app.root.current == "board_editor"
        assert "hills: 4 hexes, the standard set has 3" in editor.message, editor.message
        assert ng.board_json == generated  # the new game still has its own board: nothing used yet

        # Another photo of another board: every hex read wrong put right by touches, then used.
        d.tap(editor.ids.scan)
        read(app, scan_screen, DATA / "photos" / "test4_2.jpg")
        scan = scan_screen.scan
        assert scan.unsure and scan_screen.selected == min(scan.unsure)  # the first to check, selected at once
        truth = turned_to(as_read(scan), labelled("test4_2"))
        wrong_before = sum(as_read(scan)[h] != truth[h] for h in LAND) + (scan.robber != truth["robber"])
        # The board as read shows more 10s than the standard set has (this set has three; a fourth is read
        # through the robber on the 8): said to the player, in words, with the count shown
        tens = sum(as_read(scan)[h][1] == 10 for h in LAND)
        assert tens > 2 and scan_screen.ids.set_note.text == (
            f"10 is on {tens} hexes; the standard set has 2: one is misread, or your tokens are not the standard set.")
        taps = correct(scan_screen, truth)
        assert as_read(scan) == {h: truth[h] for h in LAND} and scan.robber == truth["robber"]
        assert scan_screen.ids.set_note.text.startswith("10 is on 3 hexes")  # the set's own third 10
        assert (taps == 0) == (wrong_before == 0)
        # The tap on a hex names it as players do, never by coordinates (conftest checks the screen too).
        ten = next(h for h in LAND if truth[h][1] == 10)
        tap_hex(scan_screen, ten)
        assert "10" in scan_screen.selected_text
        # This set holds a third 10 where the standard set has a 3: the board is played as it lies (the app
        # once led the table to make it a 3 -- and then paid a 3 where the table has a 10).
        # The photo is of a game under way: its robber on the 8 fields.  A game starts with the robber on the
        # desert, so the editor says so and rings both hexes, and offers no way past it; the desert tapped, then
        # Desert, puts it there, and what is left is the set's own: Use it as it is.
        d.tap(scan_screen.ids.use)
        robbed = scan.in_record(truth["robber"])
        desert = scan.in_record(next(h for h in LAND if truth[h][0] == "desert"))
        assert app.root.current == "board_editor"
        assert "the robber starts on the desert, not on the 8 fields: select the desert, then tap Desert" \
            in editor.message, editor.message
        assert {robbed, desert} <= set(editor.ids.board.marked)
        assert not editor.as_laid_offered and editor.ids.use.text == "Use this board"
        d.tap(editor.ids.use)
        assert app.root.current == "board_editor"  # refused: a robber off the desert is no table's set
        d.tap_at(*editor.ids.board.hex_pos(desert))
        d.tap(d.find(editor.ids.terrains, "desert"))
        assert editor.robber == desert and editor.as_laid_offered, editor.message
        assert "number tokens beyond the standard set: 10" in editor.message, editor.message
        d.tap(editor.ids.use)
        assert app.root.current == "new_game" and ng.board_as_laid, editor.message
        used = {tuple(h["at"]): (h["terrain"], h.get("number")) for h in ng.board_json["hexes"]
                if h["terrain"] != "sea"}
        assert used == {scan.in_record(h): truth[h] for h in LAND}  # turned as the photo shows it
        d.tap(ng.ids.start)
        assert app.root.current == "play"
        board = app.table.game.board
        assert {h: (board.tiles[scan.in_record(h)].terrain, board.tiles[scan.in_record(h)].number)
                for h in LAND} == {h: truth[h] for h in LAND}
        assert board.robber == desert  # the game starts with it there, and the 8 fields produce
    finally:
        d.stop_app(app)


def test_the_camera_named_in_settings_gives_the_photo(tmp_path):
    # Settings' camera may be a video file (to try the app without a table): here, frames of a board photo.
    photo = cv2.imread(str(DATA / "photos" / "testimg2.jpg"), cv2.IMREAD_REDUCED_COLOR_4)
    video = tmp_path / "board.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (photo.shape[1], photo.shape[0]))
    for _ in range(8):
        writer.write(photo)
    writer.release()
    app = d.start_app(tmp_path)
    try:
        app.settings.camera = str(video)
        d.tap(app.root.get_screen("start").ids.new_game)
        d.tap(app.root.get_screen("new_game").ids.edit)
        d.tap(app.root.get_screen("board_editor").ids.scan)
        screen = app.root.get_screen("board_scan")
        d.tap(screen.ids.camera)
        assert d.wait_until(lambda: not screen.reading, timeout=120)
        d.settle()
        assert screen.scan is not None, screen.message
        truth = turned_to(as_read(screen.scan), labelled("testimg2"))
        assert sum(as_read(screen.scan)[h][0] == truth[h][0] for h in LAND) >= 18
        # a camera that gives no picture is said, the board read before kept
        app.settings.camera = str(tmp_path / "no-such-video.avi")
        kept = screen.scan
        d.tap(screen.ids.camera)
        assert d.wait_until(lambda: not screen.reading, timeout=60)
        assert screen.scan is kept and "no-such-video.avi" in screen.message, screen.message
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_the_scan_screen_fits_with_a_hex_being_corrected(tmp_path, size, lang):
    # The photo, the correction rows and the buttons all in the window, every target a finger's size, no
    # word cut (driver.layout_problems), in the tablet's two orientations and both languages.
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        d.tap(app.root.get_screen("start").ids.new_game)
        d.tap(app.root.get_screen("new_game").ids.edit)
        editor = app.root.get_screen("board_editor")
        assert d.layout_problems(app.root) == []  # the editor's mode row with its third button
        d.tap(editor.ids.scan)
        screen = app.root.get_screen("board_scan")
        read(app, screen, DATA / "photos" / "test4_2.jpg")  # with the set note shown (three 10s and more)
        assert screen.set_note and screen.ids.set_note.height > 0
        tap_hex(screen, sorted(screen.scan.unsure)[0] if screen.scan.unsure else LAND[0])
        d.settle()
        assert screen.picking and d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_a_tables_own_set_with_a_6_beside_an_8_is_played_as_it_lies(tmp_path):
    """CatanAI's testimg2 is a real table's board: its set has three 10s and one 3, four hills and two mountains,
    and a 6 lies beside an 8.  Read right, it was refused for all of that ("No 6 next to 8" is on by default),
    and the only way on was to put tokens the table does not have on the screen (a 10 made a 3: then the app
    paid a 3 where the table has a 10).  Now the editor lists the differences and offers "Use it as it is", and
    the game starts on exactly the board on the table."""
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        ng = app.root.get_screen("new_game")
        assert ng.ids.separate.active  # the default
        d.tap(editor.ids.scan)
        scan_screen = app.root.get_screen("board_scan")
        read(app, scan_screen, DATA / "photos" / "testimg2.jpg")
        scan = scan_screen.scan
        truth = turned_to(as_read(scan), labelled("testimg2"))
        correct(scan_screen, truth)
        assert as_read(scan) == {h: truth[h] for h in LAND}
        assert sum(truth[h][1] == 10 for h in LAND) == 3

        d.tap(scan_screen.ids.use)
        assert app.root.current == "board_editor"
        desert = scan.in_record(next(h for h in LAND if truth[h][0] == "desert"))
        assert editor.robber == desert  # (no robber on the photo: the game starts it on the desert)
        message = editor.message
        # the photo shows 8 of the 9 harbours: said first (the list below is cut to its box)
        assert message.startswith("8 of the set's 9 harbours: Harbor adds the others.\n"
                                  "6 differences from a standard board (if yours is so: Use it as it is):"), message
        assert editor.ids.problems.text.startswith("8 of the set's 9 harbours"), editor.ids.problems.text
        assert "no 6 or 8 side by side" in message
        assert editor.as_laid_offered and not editor.valid and editor.ids.use.text == "Use it as it is"
        app.lang = "ja"
        d.settle()
        assert editor.ids.use.text == "このまま使う" and "「このまま使う」" in editor.ids.problems.text
        assert d.layout_problems(editor) == []
        app.lang = "en"
        d.settle()

        d.tap(editor.ids.use)
        assert app.root.current == "new_game" and ng.board_as_laid
        assert ng.ids.separate.disabled  # the option is for dealt boards
        d.tap(ng.ids.start)
        assert app.root.current == "play", ng.message
        board = app.table.game.board
        assert {h: (board.tiles[scan.in_record(h)].terrain, board.tiles[scan.in_record(h)].number)
                for h in LAND} == {h: truth[h] for h in LAND}  # the three 10s, the 6 beside the 8
        assert "separate_red_numbers" not in (app.table.journal.load(app.table.game_id).options or {})
    finally:
        d.stop_app(app)
