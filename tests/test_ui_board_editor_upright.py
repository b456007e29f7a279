"""The board on the table entered by hand on an upright tablet in Japanese, as a new table's first evening does it:
the robber goes with the desert (a game started on a hand-entered board had it on the old desert's hex, by then a
pasture 10 that gave nothing on a 10), and the editor's panel is laid out below the board, not over it, with its
rows where they were whichever mode is on."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def _japanese_editor(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    d.tap(app.root.get_screen("start").ids.settings)  # as a user switches: Settings → 日本語 → Save
    d.tap(app.root.get_screen("settings").ids.lang_ja)
    d.tap(app.root.get_screen("settings").ids.save)
    assert app.lang == "ja"
    return app, d.open_board_editor(app, players=4)


def test_robber_goes_with_the_desert(tmp_path):
    app, editor = _japanese_editor(tmp_path, (800, 1280))
    try:
        view = editor.ids.board
        old_desert = editor.robber
        assert editor.tiles[old_desert].terrain == "desert"
        # The table's desert is elsewhere: the two hexes swapped, by taps (terrain, then the number it carries).
        table_desert = next(h for h, t in sorted(editor.tiles.items()) if t.terrain == "pasture")
        number = editor.tiles[table_desert].number
        d.tap_at(*view.hex_pos(old_desert))
        d.tap(d.find(editor.ids.terrains, "牧草地"))
        d.tap(d.find(editor.ids.numbers, str(number)))
        d.tap_at(*view.hex_pos(table_desert))
        d.tap(d.find(editor.ids.terrains, "砂漠"))
        assert editor.valid, editor.message
        assert editor.robber == table_desert and view.robber == table_desert
        d.tap(editor.ids.use)
        d.tap(app.root.get_screen("new_game").ids.start)
        assert app.table.game.board.robber == table_desert
        assert app.table.game.board.tiles[old_desert].number == number  # the pasture is not robbed: it produces
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)], ids=["upright", "landscape"])
def test_editor_panel_beside_the_board_and_steady(tmp_path, size):
    app, editor = _japanese_editor(tmp_path, size)
    try:
        board, ids = editor.ids.board, editor.ids
        panel = ids.help.parent

        def rows():
            return {name: round(ids[name].y) for name in ("mode_hex", "problems", "path", "use")}

        in_hex_mode = rows()
        if size[1] > size[0]:  # upright: the panel under the board, the help inside the panel
            assert panel.top <= board.y + 1, (panel.top, board.y)
            assert ids.help.top <= board.y + 1, "the help is drawn over the board"
            # a hex at least 97 px across its flats, read from across the table (81 with the buttons in two rows)
            assert board.fitted_hex_size() * 3 ** 0.5 >= 97, board.fitted_hex_size()
        assert d.layout_problems(app.root) == []
        for child in panel.children:  # nothing stands out of the panel
            assert child.y >= panel.y - 1 and child.top <= panel.top + 1, (child, child.y, child.top, panel.top)
        d.tap(ids.mode_harbor)
        assert editor.mode == "harbor"
        assert rows() == in_hex_mode, "the rows moved when the mode changed"
        d.tap(ids.mode_hex)
        assert rows() == in_hex_mode
    finally:
        d.stop_app(app)


def assert_every_problem_read(editor, app, problems) -> None:
    """Every problem is in the list under the buttons (no "…"), in 13 sp letters or more, its box between the
    numbers' row and the file's path; a list longer than the box scrolls, and scrolled to its end its last line
    is in the box."""
    from kivy.metrics import sp

    ids = editor.ids
    shown, box = ids.problems, ids.problems_box
    lines = shown.text.split("\n")
    assert shown.text == editor.message and "…" not in lines
    assert len([line for line in lines if line.startswith("• ")]) == len(problems), lines
    assert shown.font_size >= sp(13) - 0.01, f"{shown.font_size / sp(1):.0f} sp"
    assert shown.texture_size[1] <= shown.height + 1, (shown.texture_size, shown.height)
    assert box.y >= ids.path.top - 1 and box.top <= ids.numbers.y + 1
    if shown.height > box.height + 1:  # scrolled: the end of the list comes into the box
        box.scroll_y = 0
        d.settle()
        assert shown.to_window(0, shown.y)[1] >= box.to_window(0, box.y)[1] - 1
    box.scroll_y = 1
    d.settle()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)], ids=["upright", "landscape"])
def test_a_long_problem_list_is_read_in_body_letters_within_its_box(tmp_path, size, lang):
    """Six hexes made 6s by taps: eleven problems.  The list under the buttons shows its count and every problem
    in letters of 13 sp or more, scrolled in its box, the board and the buttons where they were.  Upright it was
    the count, four problems and "…" in 9 sp letters; lying down 11 sp running 42 px past the box (its first
    line over the numbers' row, "…" under the file name); then the count and two to four problems, "…"."""
    from kivy.metrics import sp

    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        editor = d.open_board_editor(app, players=4)
        ids, view = editor.ids, editor.ids.board
        rows = {name: round(ids[name].y) for name in ("mode_hex", "numbers", "path", "use")}
        hex_size = view.fitted_hex_size()
        land = sorted(h for h, t in editor.tiles.items() if t.terrain not in ("sea", "desert"))
        # a short list stays whole: a second desert is three problems, all three said
        d.tap_at(*view.hex_pos(land[-1]))
        d.tap(d.find(ids.terrains, app.tr("desert")))
        d.settle()
        assert len(editor.problems()) == 3
        assert ids.problems.text == editor.message and ids.problems.font_size >= sp(12) - 0.01
        for h in land[:6]:
            d.tap_at(*view.hex_pos(h))
            d.tap(d.find(ids.numbers, "6"))
        d.settle()
        problems = editor.problems()
        assert len(problems) >= 6 and not editor.valid
        assert_every_problem_read(editor, app, problems)
        assert {name: round(ids[name].y) for name in rows} == rows, "the buttons moved"
        assert view.fitted_hex_size() == hex_size
        assert d.layout_problems(app.root) == []
        # Harbor mode selects the first harbor: its name ("the coast of the 10 fields — Harbor: 2:1 wool", at
        # 20 sp 242 px wider than the panel lying down) fits the row above the buttons.
        d.tap(ids.mode_harbor)
        d.settle()
        name = ids.selected
        assert editor.selected in editor.harbors and app.tr("harbor") in name.text
        assert name.font_size >= sp(11) - 0.01 and name.texture_size[0] <= name.width + 2 and \
            name.texture_size[1] <= name.height + 1, (name.text, name.texture_size, name.size)
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_a_scanned_boards_six_differences_are_all_read_upright(tmp_path):
    """CatanAI's testimg2 scanned upright in Japanese (session 16's trial): the editor listed 2 of its 6
    differences from a standard board, then "…".  Now all six, scrolled in the box under the buttons."""
    from tests.test_ui_board_scan import DATA, as_read, correct, labelled, read, turned_to

    app, editor = _japanese_editor(tmp_path, (800, 1280))
    try:
        hex_size = editor.ids.board.fitted_hex_size()
        d.tap(editor.ids.scan)
        scan_screen = app.root.get_screen("board_scan")
        read(app, scan_screen, DATA / "photos" / "testimg2.jpg")
        correct(scan_screen, turned_to(as_read(scan_screen.scan), labelled("testimg2")))
        d.tap(scan_screen.ids.use)
        assert app.root.current == "board_editor" and editor.as_laid_offered
        problems = editor.problems()
        assert len(problems) == 6
        assert editor.ids.problems.text.startswith("港は9個中8個です。「港」で残りを追加できます。\n標準の盤面と違う点が6件")
        assert_every_problem_read(editor, app, problems)
        assert editor.ids.board.fitted_hex_size() * 3 ** 0.5 >= 97 and editor.ids.board.fitted_hex_size() >= hex_size - 0.01
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
