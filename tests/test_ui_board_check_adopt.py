"""Check the board for a table that adopts the app mid-game: it scans its board, starts the game and reads the
board with its pieces (CatanAI's test4_1 with its 54 labelled pieces, tests/data/pieces/catanai_test4.json).
The game has none of them: 55 rows, 52 of them sure -- each a tap on Add before.  "Add the 52 sure ones" records
all 52 in one tap, each as its own Add records it: the set-up first in its own order (each player's settlement,
then its road), then the rest as the umpire records what the table shows; listed as recorded, and taken back by
one tap.  What the rules refuse for where it stands is not recorded and says why on its row."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.ui import driver as d
from labelled_pieces_game import labelled_pieces, record_of_the_labelled_board

pytestmark = pytest.mark.timeout(300)

PHOTOS = Path(__file__).parent / "data" / "boards" / "catanai" / "photos"
SCREENS = Path(__file__).resolve().parents[1] / "docs" / "screens"
ROAD = ((-1, 0), (0, -1))  # red's road on test4_1


def read(check, photo: Path) -> list:
    check.ids.path.text = str(photo)
    d.tap(check.ids.read_file)
    assert d.wait_until(lambda: not check.reading, timeout=120), "the photo is still being read"
    d.settle()
    return list(reversed(check.ids.differences.children))  # as listed, top first


def game_just_started():
    """The labelled board's game as a table starts it on its scanned board: four players, no piece yet."""
    from companion.record import Record

    record, _game = record_of_the_labelled_board()
    return Record("base", record.players, record.board)


def spoken_batch(lang: str, recorded: int, refused: int) -> str:
    """The batch's line as a person says it (the counts follow the pieces' reader: 40 to 55 here)."""
    en = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
         "seventeen eighteen nineteen".split()
    tens = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty"}

    def english(n):
        return en[n] if n < 20 else tens[n // 10] + ("" if n % 10 == 0 else "-" + en[n % 10])

    if lang == "en":
        line = f"{english(recorded).capitalize()} pieces recorded."
        return line + (f" {english(refused).capitalize()} not recorded." if refused else "")
    return f"{recorded}件を記録しました。" + (f"{refused}件は記録していません。" if refused else "")


def rows_now(check) -> list:
    return [row for row in reversed(check.ids.differences.children) if getattr(row, "difference", None) is not None]


@pytest.mark.parametrize("size, lang, screen", [((1280, 800), "en", "en"), ((800, 1280), "ja", "portrait-ja")])
def test_a_board_adopted_mid_game_goes_in_with_one_tap(tmp_path, size, lang, screen):
    # (the counts follow the pieces' reader: at this session's start 55 rows, 52 sure: 48 recorded by the tap, 4
    # red roads refused until red's third settlement, unsure, is added -- 53 pieces in 3 taps)
    app, check = d.open_board_check(tmp_path, game_just_started(), size=size, lang=lang)
    try:
        app.announcer.language = lang  # (the driver sets the screen's language alone; Settings sets both)
        record = app.table.record
        rows = read(check, PHOTOS / "test4_1.jpg")
        sure = [row.difference for row in rows if row.sure]
        assert len(rows) >= 50 and len(sure) >= 45, (len(rows), len(sure))
        assert check.ids.add_sure.text == app.tr("check_add_sure", n=len(sure))
        assert record.events == [], "something was recorded without a tap"
        assert d.layout_problems(app.root) == []
        labelled = {(color, piece, at) for piece, color, at in labelled_pieces()}
        assert {(x.color, x.piece, x.at) for x in sure} <= labelled  # (the photo is right about each sure one)

        d.tap(check.ids.add_sure)  # one tap (each row's Add: one tap each, and after the set-up all refused)
        events = record.events
        refused = [row for row in rows_now(check) if row.sure]
        assert len(events) + len(refused) == len(sure) and len(events) >= 40, check.message
        # the set-up in its own order, each player's settlement then its road, as taps on the board record it
        setup = events[:16]
        assert [e["player"] for e in setup] == [p for p in (0, 1, 2, 3, 3, 2, 1, 0) for _ in "sr"]
        assert [e["piece"] for e in setup] == ["settlement", "road"] * 8 and not any("forced" in e for e in setup)
        # the rest as the umpire records what the table shows: each its row's event, forced
        assert all(e.get("forced") is True for e in events[16:])
        by_row = {(x.player, x.piece, x.at): x.event for x in sure}
        for e in events:
            assert by_row[(e["player"], e["piece"], tuple(tuple(h) for h in e["at"]))] == {
                k: v for k, v in e.items() if k != "forced"}
        assert app.table.game.state.phase == "roll"  # past its set-up: the table rolls next
        # a piece whose network's settlement the photo is unsure of joins nothing of its player's yet: not
        # recorded, and its row says why
        for row in refused:
            said = row.children[-1].text
            assert (": not recorded, " if lang == "en" else "：記録できません（") in said, said
        counts = {"n": len(sure), "setup": 16, "umpire": len(events) - 16}
        assert check.message == (app.tr("check_sure_some", done=len(events), refused=len(refused), **counts)
                                 if refused else app.tr("check_sure_done", **counts)), check.message
        # one line under the board says what the tap did (not the last piece's "Recorded against the rules."),
        # and the voice says the batch's one line, nothing of its pieces one by one (it said nothing at all before
        # session 18: "Forty eight pieces recorded. Four not recorded." / 「48件を記録しました。4件は記録していません。」)
        assert app.caption == check.message, app.caption
        left = [a for a in app.announcer.captions if a.status in ("queued", "playing") and a.event_index is not None]
        assert all(a.source == "batch" for a in left), [a.caption for a in left]
        (batch_line,) = [a for a in app.announcer.captions if a.source == "batch"]
        assert batch_line.caption == spoken_batch(lang, len(events), len(refused))
        assert batch_line.status in ("queued", "playing", "played", "silent")  # said (no sound card here: silent)
        # each listed as recorded under the rows that are left
        listed = [w.text for w in reversed(check.ids.differences.children) if not hasattr(w, "difference")]
        assert listed[0] == app.tr("check_recorded_heading", n=len(events)) and len(listed) == len(events) + 1
        assert check.ids.add_sure.text == app.tr("check_take_back", n=len(events))
        d.screenshot(SCREENS / f"board-check-sure-{screen}.png")
        assert d.layout_problems(app.root) == []

        batch = len(events)
        d.tap(check.ids.add_sure)  # taken back: the game as it was, the rows as they were
        assert record.events == [] and app.table.game.state.phase == "setup_settlement"
        assert len(rows_now(check)) == len(rows)
        assert check.ids.add_sure.text == app.tr("check_add_sure", n=len(sure))
        assert check.message == app.tr("check_taken_back", n=batch)

        # Again; then the unsure rows looked at on the table (the labels are the table): each piece there added,
        # and the sure ones again -- every sure one and every true unsure one is then in the game.
        taps = 1
        d.tap(check.ids.add_sure)
        true_unsure = [row.difference for row in rows_now(check) if not row.sure
                       and (row.difference.color, row.difference.piece, row.difference.at) in labelled]
        for difference in true_unsure:
            row = next(r for r in rows_now(check) if r.difference == difference)
            d.tap(row.action)
            taps += 1
        if check.ids.add_sure.text.startswith(app.tr("check_add_sure", n=0).split("0")[0]):
            d.tap(check.ids.add_sure)
            taps += 1
        state = app.table.game.state
        held = {(("red", "blue", "white", "orange")[p], k, at) for at, (p, k) in
                list(state.buildings.items()) + list(state.pieces.items())}
        assert held <= labelled and {(x.color, x.piece, x.at) for x in sure} <= held, check.message
        assert not [row for row in rows_now(check) if row.sure], check.message
        assert taps <= 2 + len(true_unsure)  # (test4_1 at this session's start: 53 pieces in 3 taps)
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_a_sure_one_the_rules_refuse_is_named_and_the_rest_go_in(tmp_path):
    # The game holds every labelled piece but red's road and two of blue's, and a blue road (recorded anyway)
    # where the photo shows red's: red's road is refused (the side is taken), blue's two recorded, as blue's
    # own Adds record them (not blue's turn: the umpire's).
    blue = sorted(at for piece, color, at in labelled_pieces() if (piece, color) == ("road", "blue"))
    record, _game = record_of_the_labelled_board(without=ROAD)
    # the two blue roads the game misses: the last ones built (not the set-up's), at the end of blue's lines
    missing = [e for e in record.events if e.get("forced") and e["player"] == 1 and e["piece"] == "road"][-2:]
    for e in missing:
        record.events.remove(e)
    record.events.append({"type": "build", "player": 1, "piece": "road", "at": [list(h) for h in ROAD],
                          "forced": True})
    assert len(blue) > 2
    app, check = d.open_board_check(tmp_path, record)
    try:
        record = app.table.record
        events = len(record.events)
        rows = read(check, PHOTOS / "test4_1.jpg")
        sure = {row.difference.at: row for row in rows if row.sure}
        gone = {tuple(tuple(h) for h in e["at"]) for e in missing}
        assert set(sure) == gone | {ROAD}, [(r.difference, r.sure) for r in rows]
        d.tap(check.ids.add_sure)
        added = record.events[events:]
        assert {tuple(tuple(h) for h in e["at"]) for e in added} == gone
        assert all(e["player"] == 1 and e.get("forced") for e in added)
        row = next(r for r in check.ids.differences.children if getattr(r, "difference", None)
                   and r.difference.at == ROAD and r.difference.color == "red")
        said = row.children[-1].text
        assert said.startswith("A red road on the side between the ") and said.endswith(
            ": not recorded, Ben's road is already there."), said
        assert check.message == app.tr("check_sure_some", n=3, done=2, refused=1, setup=0, umpire=2), check.message
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_a_set_up_short_of_a_sure_settlement_says_whose_it_waits_for(tmp_path):
    # Red's sure settlements but one said "Not there": the photo is sure of one red settlement only, so the set-up
    # stops at red's second placement (the last of the eight) and says so; the rows it waits on stand first.
    # Undo on the play screen, then Check board again: the rows as the game now stands, no batch to take back (a
    # tap on the old "Take back" would have added them again).  The photo read again (the rows said not there
    # come back): the set-up ends and the rest goes in.
    app, check = d.open_board_check(tmp_path, game_just_started())
    try:
        record = app.table.record
        rows = read(check, PHOTOS / "test4_1.jpg")
        def reds() -> list:
            return [row for row in rows_now(check)
                    if row.sure and (row.difference.color, row.difference.piece) == ("red", "settlement")]

        assert len(reds()) >= 2
        while len(reds()) > 1:  # (each dismissal makes the rows again)
            d.tap(reds()[-1].dismiss)
        n = len([row for row in rows_now(check) if row.sure])
        d.tap(check.ids.add_sure)
        game = app.table.game
        assert len(record.events) == 14 and game.state.phase == "setup_settlement" and game.waiting_for() == 0
        assert check.message == app.tr("check_setup_waits", n=n, done=14, player="Aki", piece="settlement"), \
            check.message
        listed = rows_now(check)
        refused = [row for row in listed if row.sure]
        unsure = [row for row in listed if not row.sure]
        assert refused and all(listed.index(u) < listed.index(refused[0]) for u in unsure)
        assert d.layout_problems(app.root) == []

        d.tap(check.ids.back)
        play = app.root.get_screen("play")
        d.tap(play.ids.undo)
        d.tap(play.ids.check_board)
        assert len(record.events) == 13
        assert check.ids.add_sure.text == app.tr("check_add_sure", n=n - 13), check.ids.add_sure.text

        d.tap(check.ids.pictures)  # the path is still typed under the pictures: read again
        d.tap(check.ids.read_file)
        assert d.wait_until(lambda: not check.reading, timeout=120)
        d.settle()
        d.tap(check.ids.add_sure)
        assert app.table.game.state.phase == "roll", check.message
        assert len(record.events) > 40 and not any(e.get("forced") for e in record.events[:16])
    finally:
        d.stop_app(app)
