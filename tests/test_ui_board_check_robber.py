"""Check the board with the robber on another hex than the game's: CatanAI's test4_3 shows the robber on the 10
pasture (the label's [-1, -1]); the game on the labelled board has it on the desert -- a table that adopted the
app mid-game, or a knight nobody told the app of.  The next roll would pay the blocked hex.  The robber is read
surely on test4_3, so its row is listed as sure ("The robber stands on ... on the photo; the game has it on the
desert — move it?"); Move records the umpire's move (``move_robber``, forced: outside a 7 the rules want none)
and the row goes.  test4_1, whose robber stands on the desert as the game's does, lists no robber row."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.ui import driver as d
from labelled_pieces_game import record_of_the_labelled_board

pytestmark = pytest.mark.timeout(300)

PHOTOS = Path(__file__).parent / "data" / "boards" / "catanai" / "photos"
SCREENS = Path(__file__).resolve().parents[1] / "docs" / "screens"
ON_THE_PHOTO = (-1, -1)  # test4_3's robber, in the label's (and the game's) coordinates


def read(check, photo: Path) -> list:
    if not check.choosing:  # a photo read is on the screen: Pictures, then the path typed under their list
        d.tap(check.ids.pictures)
    check.ids.path.text = str(photo)
    d.tap(check.ids.read_file)
    assert d.wait_until(lambda: not check.reading, timeout=120), "the photo is still being read"
    d.settle()
    return [row for row in reversed(check.ids.differences.children) if hasattr(row, "difference")]


@pytest.mark.parametrize("size, lang, screen, words", [
    ((1280, 800), "en", "en", ("The robber stands on ", " on the photo; the game has it on the desert")),
    ((800, 1280), "ja", "portrait-ja", ("写真では盗賊が", "にいます（ゲームでは砂漠）")),
])
def test_the_robber_on_another_hex_is_listed_and_moved_by_a_tap(tmp_path, size, lang, screen, words):
    record, _game = record_of_the_labelled_board()
    app, check = d.open_board_check(tmp_path, record, size=size, lang=lang)
    try:
        game = app.table.game
        desert = game.state.robber
        assert game.board.tiles[desert].terrain == "desert"
        assert not [row for row in read(check, PHOTOS / "test4_1.jpg") if row.difference.what == "robber"]

        rows = read(check, PHOTOS / "test4_3.jpg")
        robber = [row for row in rows if row.difference.what == "robber"]
        assert len(robber) == 1 and robber[0].sure, [(r.difference, r.sure) for r in rows]
        row = robber[0]
        said = row.children[-1].text
        assert said.startswith(words[0]) and words[1] in said, said
        assert row.difference.at == (ON_THE_PHOTO,)
        assert row.action.text == app.tr("check_move_robber")
        assert d.layout_problems(app.root) == []
        d.screenshot(SCREENS / f"board-check-robber-{screen}.png")
        events = len(app.table.record.events)
        assert app.table.game.state.robber == desert, "moved without a tap"

        done = app.tr("check_as_umpire", what=check.describe(row.difference, done=True).rstrip("."))
        d.tap(row.action)
        assert app.table.record.events[events:] == [
            {"type": "move_robber", "to": list(ON_THE_PHOTO), "forced": True}]
        assert app.table.game.state.robber == ON_THE_PHOTO
        assert app.table.game.state.phase == "main", "an umpire's move asks for no steal"
        assert check.message == done, check.message
        assert not [r for r in read(check, PHOTOS / "test4_3.jpg") if r.difference.what == "robber"]
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
