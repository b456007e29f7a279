"""Entering the board on the table, by touches: terrain, number and harbors; validation that names
what is wrong and where; JSON export and import (bad files are refused and change nothing); the game
then starts on exactly the board entered.  Also the statistics screen's fairness test."""

from __future__ import annotations

import json
import math

import pytest

from companion.rules.geometry import neighbours
from companion.ui import driver as d
from companion.ui.statistics_screen import EXPECTED, chi2_sf_10, chi_squared

pytestmark = pytest.mark.timeout(120)


def test_enter_board_harbors_json_and_start(tmp_path):
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        ng = app.root.get_screen("new_game")
        view = editor.ids.board
        assert editor.message == "Board is valid."

        # Harbors: a coast side without one gets a 3:1; an existing one is taken away.
        d.tap(editor.ids.mode_harbor)
        assert view.pick == "edge"
        free = next(e for e in sorted(view.legal) if e not in editor.harbors)
        d.tap_at(*view.edge_pos(free))
        assert editor.selected == free
        d.tap(d.find(editor.ids.harbors, "3:1"))
        old = sorted(editor.harbors)[0] if sorted(editor.harbors)[0] != free else sorted(editor.harbors)[1]
        d.tap_at(*view.edge_pos(old))
        d.tap(d.find(editor.ids.harbors, "–"))
        assert editor.harbors.get(free) == "3:1" and old not in editor.harbors

        # Export, then a broken file: named with line and column, the board unchanged.
        path = tmp_path / "board.json"
        editor.ids.path.text = str(path)
        d.tap(d.find(editor, "Export JSON"))
        assert json.loads(path.read_text()) == editor.to_json()
        entered = editor.to_json()
        path.write_text('{"hexes": [')
        d.tap(d.find(editor, "Import JSON"))
        assert str(path) in editor.message and "line 1 column" in editor.message
        assert editor.to_json() == entered

        # A board whose desert carries a number: loaded for fixing, the problem named and ringed, not usable.
        bad = json.loads(json.dumps(entered))
        desert = next(h for h in bad["hexes"] if h["terrain"] == "desert")
        desert["number"] = 6
        path.write_text(json.dumps(bad))
        d.tap(d.find(editor, "Import JSON"))
        at = tuple(desert["at"])
        assert "the 6 desert: a desert carries no number (has 6)" in editor.message, editor.message
        assert at in view.marked and not editor.valid
        d.tap(editor.ids.use)
        assert app.root.current == "board_editor"

        # Fixed by touches, used, and the game starts on it.
        d.tap(d.find(editor, "Terrain / Number"))
        d.tap_at(*view.hex_pos(at))
        d.tap(d.find(editor.ids.numbers, "–"))
        assert editor.message == "Board is valid."
        assert editor.valid and editor.ids.problems.color[1] > editor.ids.problems.color[0]  # success, in green
        d.tap(editor.ids.use)
        assert app.root.current == "new_game"
        d.tap(ng.ids.start)
        assert app.table.game.board.harbors.get(free) == "3:1"
        assert old not in app.table.game.board.harbors
        assert app.table.record.board == editor.to_json()
    finally:
        d.stop_app(app)


def test_fairness_statistic():
    # Rolls exactly as expected: no evidence against the dice.
    chi, p = chi_squared({k: round(3600 * q) for k, q in EXPECTED.items()})
    assert chi == pytest.approx(0, abs=1e-9) and p == pytest.approx(1.0)
    # 100 sevens in a row: the test says so.
    chi, p = chi_squared({7: 100})
    assert chi > 400 and p < 1e-6
    # The closed form agrees with the chi-squared table for 10 d.f. (5% and 1% points).
    assert chi2_sf_10(18.307) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf_10(23.209) == pytest.approx(0.01, abs=1e-4)


def test_one_board_check_for_the_editor_and_start_said_in_the_users_language_with_the_clash_ringed(tmp_path):
    """The editor and Start check a board the same way: a 6 next to an 8 (the table chose "No 6 next to 8")
    is named as players say the hexes and both hexes are ringed, in the editor and, in Japanese, at Start."""
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        ng = app.root.get_screen("new_game")
        assert ng.ids.separate.active
        view = editor.ids.board
        board = editor.board()
        eight = next(h for h, t in sorted(board.tiles.items()) if t.number == 8)
        beside = next(n for n in neighbours(eight) if n in board.tiles and board.tiles[n].number not in (None, 6, 8))
        d.tap_at(*view.hex_pos(beside))
        assert editor.ids.selected.text.startswith(f"the {board.tiles[beside].number} ")  # said, not [q, r]
        d.tap(d.find(editor.ids.numbers, "6"))
        assert not editor.valid and "no 6 or 8 side by side" in editor.message, editor.message
        assert {beside, eight} <= set(view.marked)
        said = editor.message
        # a table's own board may be so: the way on is offered in words (the scan's test takes it), not taken here
        assert editor.as_laid_offered and editor.ids.use.text == "Use it as it is"

        # The same board reaches Start only with the rule off; with it on again Start says what the editor said.
        d.tap(d.find(editor, "Back"))
        ng.board_json = editor.to_json()
        ng.refresh()
        app.lang = "ja"
        d.settle()
        d.tap(ng.ids.start)
        assert app.root.current == "new_game" and app.table is None
        assert "6と8は隣に置きません" in ng.message and "[" not in ng.message, ng.message
        assert d.find(ng.ids.players, "赤")  # the seats' colours in the new language at once
        from companion.ui.board_view import harbor_word
        assert harbor_word("lumber") == "木材"  # the board's 2:1 harbors are labelled in the user's language
        assert {beside, eight} <= set(ng.ids.preview.marked)
        app.lang = "en"
        d.tap(ng.ids.start)
        assert ng.message == said
    finally:
        d.stop_app(app)


def _reading_order(view, hexes):
    """Hexes as a person reads the board on the screen: rows from the top, each from the left."""
    return sorted(hexes, key=lambda h: (-round(view.hex_pos(h)[1]), view.hex_pos(h)[0]))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_board_entered_hex_by_hex_moves_on_by_itself_two_taps_a_hex(tmp_path, lang):
    """Entering the board on the table: the first hex tapped, then per hex its terrain and its number, and the
    editor moves to the next hex in reading order by itself -- 1 + 2 x 18 + 1 (the desert) taps for the 19
    land hexes, none of them on the board after the first.  The board entered is the seeded one turned half
    round (a valid board unlike it in every hex but the middle), and the game starts on it."""
    app = d.start_app(tmp_path)
    try:
        app.lang = lang
        editor = d.open_board_editor(app)
        view = editor.ids.board
        seeded = dict(editor.tiles)
        land = _reading_order(view, [h for h, t in seeded.items() if t.terrain != "sea"])
        turned = {h: seeded[t] for h, t in zip(land, reversed(land))}  # read backwards: turned 180 degrees
        names = {t: app.tr(t) for t in ("forest", "hills", "pasture", "fields", "mountains", "desert")}
        taps = 1
        d.tap_at(*view.hex_pos(land[0]))
        for h in land:
            assert editor.selected == h, (h, editor.selected)  # the editor moved here by itself
            tile = turned[h]
            d.tap(d.find(editor.ids.terrains, names[tile.terrain]))
            taps += 1
            if tile.number is not None:
                d.tap(d.find(editor.ids.numbers, str(tile.number)))
                taps += 1
        assert taps == 1 + 2 * 18 + 1
        assert {h: (editor.tiles[h].terrain, editor.tiles[h].number) for h in land} == \
               {h: (t.terrain, t.number) for h, t in turned.items()}
        assert editor.valid, (editor.message, editor.problems())
        assert editor.robber == next(h for h in land if turned[h].terrain == "desert")
        d.tap(editor.ids.use)
        d.tap(app.root.get_screen("new_game").ids.start)
        assert app.table.game.board.tiles[land[0]] == turned[land[0]]
    finally:
        d.stop_app(app)


def test_a_single_correction_stays_on_its_hex_and_a_number_first_still_lands_on_its_hex(tmp_path):
    """Only a hex given both its terrain and its number moves on: a number put right alone keeps the hex
    selected (the next tap is still about it), and a number chosen before the terrain goes to the hex it was
    chosen for, not to the next."""
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        view = editor.ids.board
        land = _reading_order(view, [h for h, t in editor.tiles.items() if t.terrain != "sea"])
        first, second = land[0], land[1]
        d.tap_at(*view.hex_pos(first))
        d.tap(d.find(editor.ids.numbers, "11"))
        assert editor.selected == first and editor.tiles[first].number == 11
        d.tap(d.find(editor.ids.numbers, "12"))  # changed again: still the same hex
        assert editor.selected == first and editor.tiles[first].number == 12
        d.tap(d.find(editor.ids.terrains, app.tr("mountains")))  # now both: on to the next
        assert editor.tiles[first].terrain == "mountains" and editor.tiles[first].number == 12
        assert editor.selected == second
        d.tap(d.find(editor.ids.terrains, app.tr("pasture")))  # a terrain alone stays
        assert editor.selected == second and editor.tiles[second].terrain == "pasture"
        # the last hex: entered, and the selection stays on it (nothing after it)
        d.tap_at(*view.hex_pos(land[-1]))
        d.tap(d.find(editor.ids.terrains, app.tr("forest")))
        d.tap(d.find(editor.ids.numbers, "9"))
        assert editor.selected == land[-1] and editor.tiles[land[-1]].number == 9
    finally:
        d.stop_app(app)


def test_the_hex_being_entered_is_outlined_white_and_a_problem_ringed_red(tmp_path):
    """The editor moves on by itself, so the hex being entered must be told from the hexes a problem names at a
    glance: it is outlined white along its edge, problems keep their red circle (both were red circles)."""
    from kivy.core.image import Image as CoreImage

    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        view = editor.ids.board
        land = _reading_order(view, [h for h, t in editor.tiles.items() if t.terrain != "sea"])
        # a hex beside an 8 made a 6 (its terrain kept): "no 6 or 8 side by side", the 8 ringed; the next hex is next
        at = next(i for i, h in enumerate(land[:-1]) if editor.tiles[h].number not in (6, 8)
                  and any(editor.tiles.get(n) and editor.tiles[n].number == 8 for n in neighbours(h)))
        made_six, second = land[at], land[at + 1]
        eight = next(n for n in neighbours(made_six) if editor.tiles.get(n) and editor.tiles[n].number == 8)
        d.tap_at(*view.hex_pos(made_six))
        d.tap(d.find(editor.ids.terrains, app.tr(editor.tiles[made_six].terrain)))
        d.tap(d.find(editor.ids.numbers, "6"))
        assert editor.selected == second and view.selected == second and not editor.valid
        problem = eight
        assert problem in {tuple(s) for s in view.marked}
        image = CoreImage(str(d.screenshot(tmp_path / "editor.png")), keep_data=True)
        size = view._transform()[0]

        def colours_round(h, radius):
            x, y = view.hex_pos(h)
            return [d.pixel_at(image, x + radius * size * math.cos(math.radians(a)),
                               y + radius * size * math.sin(math.radians(a))) for a in range(0, 360, 15)]

        white = [c for c in colours_round(second, 0.86 * math.cos(math.radians(30))) if min(c) > 0.9]
        assert len(white) >= 12, "the hex being entered is not outlined white along its edge"
        red = [c for c in colours_round(problem, 0.75) if c[0] > 0.8 and c[1] < 0.35 and c[2] < 0.35]
        assert len(red) >= 12, "the problem's hex lost its red circle"
    finally:
        d.stop_app(app)


def _clockwise(view, edges):
    """Coast sides as a person reads the frame round: clockwise on the screen from twelve o'clock."""
    xs = [view.edge_pos(e) for e in edges]
    cx, cy = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
    return sorted(edges, key=lambda e: (math.pi / 2 - math.atan2(view.edge_pos(e)[1] - cy,
                                                                  view.edge_pos(e)[0] - cx)) % (2 * math.pi))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_harbors_are_entered_round_the_frame_one_tap_each(tmp_path, lang):
    """Harbor mode selects the first harbor clockwise from the top, and a kind chosen for a harbor hands the
    selection to the next harbor round the coast: the frame's 9 kinds are 1 + 9 taps, none on the board (they
    were a tap on each side and one on its kind, 1 + 18).  A table whose frame has its harbors elsewhere takes
    them all off in one tap and puts each on its side (2 taps each); a harbor put on a free side stays selected.
    The game starts with the harbors entered."""
    app = d.start_app(tmp_path)
    try:
        app.lang = lang
        editor = d.open_board_editor(app)
        view = editor.ids.board
        ring = _clockwise(view, list(editor.harbors))
        assert len(ring) == 9
        kinds = [editor.harbors[e] for e in ring]
        wanted = kinds[1:] + kinds[:1]  # the kinds read one harbor on: every harbor changes where kinds differ
        button = {k: d.find(editor.ids.harbors, k if k == "3:1" else app.tr(k)) for k in set(kinds)}
        taps = 1
        d.tap(editor.ids.mode_harbor)
        for edge, kind in zip(ring, wanted):
            assert editor.selected == edge, (edge, editor.selected)  # moved here by itself
            d.tap(button[kind])
            taps += 1
        assert taps == 1 + 9
        assert {e: editor.harbors[e] for e in ring} == dict(zip(ring, wanted))
        assert editor.selected == ring[0]  # round the frame and back to the first

        # Another frame: the harbors a side further round each.  All off, then a side and a kind per harbor.
        coast = _clockwise(view, list(view.legal))
        moved = {coast[(coast.index(e) + 1) % len(coast)]: k for e, k in zip(ring, wanted)}
        entered = dict(editor.harbors)
        d.tap(editor.ids.remove_all_harbors)
        assert editor.harbors == {} and editor.selected is None
        # a mistaken tap loses nothing: until a harbor is put on, the same button puts the nine back
        assert editor.ids.remove_all_harbors.text == {"en": "Put them back", "ja": "元に戻す"}[lang]
        d.tap(editor.ids.remove_all_harbors)
        assert editor.harbors == entered
        assert editor.ids.remove_all_harbors.text == {"en": "Remove all", "ja": "全部外す"}[lang]
        d.tap(editor.ids.remove_all_harbors)
        assert editor.harbors == {}
        for edge in _clockwise(view, list(moved)):
            d.tap_at(*view.edge_pos(edge))
            assert editor.selected == edge
            d.tap(button[moved[edge]])
            assert editor.selected == edge  # a harbor on a free side stays selected
            assert editor.ids.remove_all_harbors.text == {"en": "Remove all", "ja": "全部外す"}[lang]
        assert editor.harbors == moved and editor.valid, editor.message
        d.tap(editor.ids.use)
        d.tap(app.root.get_screen("new_game").ids.start)
        assert app.table.game.board.harbors == moved
    finally:
        d.stop_app(app)


def test_the_harbor_being_entered_is_drawn_white_along_its_side_clear_of_its_word(tmp_path):
    """Harbor mode selects a harbor by itself, and the kind asked for is the one its disc shows: the side is drawn
    white along itself, not ringed round its middle -- the ring lay over the disc and hid half of its word."""
    from kivy.core.image import Image as CoreImage

    from companion.rules import geometry as geo

    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.lang = "ja"
        editor = d.open_board_editor(app)
        view = editor.ids.board
        d.tap(editor.ids.mode_harbor)
        side = editor.selected
        assert side in editor.harbors and view.selected == side
        image = CoreImage(str(d.screenshot(tmp_path / "harbor.png")), keep_data=True)
        (x1, y1), (x2, y2) = (view.to_window(*view.to_widget(geo.vertex_point(v))) for v in geo.edge_vertices(side))
        along = [d.pixel_at(image, x1 + (x2 - x1) * t, y1 + (y2 - y1) * t) for t in (0.25, 0.4, 0.6, 0.75)]
        assert all(min(c) > 0.9 for c in along), f"the side is not white along itself: {along}"
        # the ring ran 0.22 of a hex round the side's middle: over the disc out at sea, and into the land hex
        land = next(h for h in side if editor.tiles[h].terrain != "sea")
        size = view._transform()[0]
        mx, my = view.edge_pos(side)
        lx, ly = view.hex_pos(land)
        ux, uy = (mx - lx) / math.hypot(mx - lx, my - ly), (my - ly) / math.hypot(mx - lx, my - ly)
        land_side = d.pixel_at(image, mx - 0.22 * size * ux, my - 0.22 * size * uy)
        assert min(land_side) < 0.9, f"a white ring round the side's middle ({land_side} inside the land hex)"
    finally:
        d.stop_app(app)
