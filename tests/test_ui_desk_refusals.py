"""The tournament desk's refusals, on the app's tournament screen, in the user's language.

The desk refuses in English (its CLI and server keep that); each refusal the screen can reach names itself by a
key with its facts, and the screen says it in Japanese on a Japanese screen ("a correction needs a reason" and
"2 players cannot be seated" were shown in English there).  First every such refusal, raised by a real desk
over a real SQLite file; then by touch on the screen."""

from __future__ import annotations

import re

import pytest

from companion.tournament import Desk, TournamentError
from companion.ui import driver as d
from companion.ui.desk_refusals import JAPANESE, UNKNOWN_JA, refusal_text, warning_text
from tournament_screens import enter_result, make_screen, type_into  # noqa: F401  (make_screen: a fixture)

pytestmark = pytest.mark.timeout(120)

FOUR = ["Aki", "Ben", "Chie", "Dan"]


def english_words(text: str, names=()) -> list[str]:
    for name in names:
        text = text.replace(name, "")
    return re.findall(r"[A-Za-z]{2,}", text)


def seated_event(desk, players=FOUR, name="Club night"):
    ev = desk.create_event(name, "catan-studio")
    for p in players:
        desk.add_player(ev.id, p)
    return ev


def refusals(desk):
    """Each refusal the tournament screen can meet, as the action that meets it."""
    ev = seated_event(desk)

    def scored(vp, winner=0, **kw):
        ids = desk.round(ev.id, 1).tables[0]
        return desk.enter_result(ev.id, 1, 1, {p: v for p, v in zip(ids, vp)},
                                 ids[winner] if winner is not None else None, **kw)

    small = seated_event(desk, ["Eri", "Fumi"], name="Two")
    return {
        "event_name_empty": lambda: desk.create_event("  "),
        "event_exists": lambda: desk.create_event("Club night"),
        "player_name_empty": lambda: desk.add_player(ev.id, " "),
        "player_exists": lambda: desk.add_player(ev.id, "aki"),
        "cannot_seat": lambda: desk.seat_round(small.id),
        "playoff_needs_round": lambda: desk.seat_round(ev.id, kind="final"),
        "seat": lambda: desk.seat_round(ev.id),
        "vp_range": lambda: scored([10, 99, 5, 4]),
        "no_vp": lambda: desk.enter_result(ev.id, 1, 1, {desk.round(ev.id, 1).tables[0][0]: 10}, None),
        "round_incomplete": lambda: desk.seat_round(ev.id, kind="final"),
        "no_winner": lambda: scored([10, 6, 5, 4], winner=None),
        "nothing_to_correct": lambda: scored([10, 6, 5, 4], correct=True, reason="typo"),
        "saved": lambda: scored([10, 6, 5, 4]),
        "has_result": lambda: scored([10, 7, 5, 4]),
        "needs_reason": lambda: scored([10, 7, 5, 4], correct=True, reason=" "),
        "playoff_too_few": lambda: desk.seat_round(ev.id, kind="semi", size=8),
    }


def test_every_refusal_the_screen_meets_is_said_in_japanese_and_the_desk_keeps_its_english(tmp_path):
    met = {}
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        for key, action in refusals(desk).items():
            if key in ("seat", "saved"):  # steps on the way (they must succeed)
                action()
                continue
            with pytest.raises(TournamentError) as caught:
                action()
            met[key] = caught.value
    assert {key: error.key for key, error in met.items()} == {key: key for key in met}
    # (two need a race or no one; the file's problems and the referee's have tests of their own below)
    elsewhere = {k for k in JAPANESE if k.startswith("file_")} | {"bad_setting", "nothing_to_confirm"}
    assert set(met) == set(JAPANESE) - {"no_players", "seated_meanwhile"} - elsewhere
    for key, error in met.items():
        japanese = refusal_text(error, "ja")
        assert english_words(japanese, FOUR + ["aki", "Club", "night"]) == [], (key, japanese)
        assert "{" not in japanese and japanese != str(error)
        assert refusal_text(error, "en") == str(error)  # the CLI's sentence, unchanged
    assert refusal_text(met["needs_reason"], "ja") == \
        "第1ラウンド1卓：訂正には理由が必要です（「訂正の理由」に書いてください）"
    assert refusal_text(met["cannot_seat"], "ja").startswith("第1ラウンド：2人では")
    assert str(met["needs_reason"]) == "round 1 table 1: a correction needs a reason"


def test_the_warnings_kept_with_a_result_are_said_in_japanese(tmp_path):
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        ev = seated_event(desk)
        desk.seat_round(ev.id)
        seats = desk.round(ev.id, 1).tables[0]
        names = desk.names(ev.id)
        low = desk.enter_result(ev.id, 1, 1, dict(zip(seats, [8, 10, 5, 4])), seats[0])
        timed = desk.enter_result(ev.id, 1, 1, dict(zip(seats, [8, 7, 5, 4])), seats[0], ended_by_time=True,
                                  correct=True, reason="clock")
    warnings = list(low.warnings) + list(timed.warnings)
    assert len(warnings) == 4, warnings  # below the target, level, reached it, the world rules' time limit
    for warning in warnings:
        japanese = warning_text(warning, "ja")
        assert english_words(japanese, FOUR) == [], (warning, japanese)
        assert warning_text(warning, "en") == warning
    assert warning_text(low.warnings[0], "ja") == f"勝者{names[seats[0]]}は8点で、目標の10点に届いていません"


def test_a_refusal_without_japanese_words_still_says_in_japanese_that_the_desk_refused():
    text = refusal_text(TournamentError("--weight x: write NAME=NUMBER"), "ja")
    assert text.startswith("大会デスクが受け付けませんでした")


def test_the_desks_refusals_on_a_japanese_screen_by_touch(make_screen):
    screen = make_screen(lang="ja")
    type_into(screen.ids.event_input, "神戸オープン")
    d.tap(screen.ids.create_event)
    for name in ("青木", "伊藤"):
        type_into(screen.ids.player_input, name)
        d.tap(screen.ids.add_player)
    d.tap(screen.ids.seat)
    assert screen.message.startswith("第1ラウンド：2人では4人卓と3人卓に分けられません"), screen.message
    type_into(screen.ids.player_input, "青木")
    d.tap(screen.ids.add_player)
    assert screen.message.startswith("「青木」はすでに「青木」として登録されています"), screen.message
    for name in ("上田", "江口"):
        type_into(screen.ids.player_input, name)
        d.tap(screen.ids.add_player)
    d.tap(screen.ids.seat)
    assert screen.message == "", screen.message
    seats = enter_result(screen.ids.tables.children[0], [8, 6, 5, 4])
    card = screen.ids.tables.children[0]
    assert card.status.startswith("保存しました — 勝者") and "目標の10点に届いていません" in card.status, card.status
    type_into(card.vp_inputs[seats[1]], "8")
    d.tap(card.ids.save)  # a correction without its reason
    assert screen.message == "第1ラウンド1卓：訂正には理由が必要です（「訂正の理由」に書いてください）"
    assert card.status == screen.message  # said on the card too
    english = [t for t in d.screen_texts(screen) if english_words(t)]
    assert english == [], english


def _sqlite_file(path, *, application_id=0, user_version=0, table="t(x)"):
    import sqlite3

    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id={application_id}")
    db.execute(f"PRAGMA user_version={user_version}")
    db.execute(f"CREATE TABLE {table}")
    db.commit()
    db.close()


def test_a_tournament_file_the_desk_cannot_use_is_said_in_japanese(tmp_path):
    """Not SQLite, another program's, written by a newer companion: the notice on a Japanese screen said what
    was wrong in English ('… is an SQLite database of another program (application id …)')."""
    from companion.tournament.store import APPLICATION_ID, SCHEMA_VERSION, DeskFileError

    (tmp_path / "text.sqlite3").write_bytes(b"round 1: Aki 10, Ben 7\n" * 40)
    _sqlite_file(tmp_path / "foreign.sqlite3", application_id=0x1234)
    _sqlite_file(tmp_path / "newer.sqlite3", application_id=APPLICATION_ID, user_version=SCHEMA_VERSION + 1)
    for name, key in (("text", "file_not_sqlite"), ("foreign", "file_foreign"), ("newer", "file_newer")):
        with pytest.raises(DeskFileError) as caught:
            Desk(tmp_path / f"{name}.sqlite3")
        assert caught.value.key == key
        japanese = refusal_text(caught.value, "ja")
        assert japanese == JAPANESE[key].format(**caught.value.values)
        assert english_words(japanese, ["SQLite"]) == [], japanese
        assert refusal_text(caught.value, "en") == str(caught.value)  # the desk's own sentence, kept


def test_the_referees_refusals_are_said_in_japanese(tmp_path):
    """The referee's confirm with nothing waiting, a correction without a reason, a floor setting not known:
    keyed like the desk's other refusals (they had no key, so a Japanese screen could only quote the English)."""
    from companion.tournament import referee
    from companion.tournament.server_store import Floor

    with Desk(tmp_path / "tournament.sqlite3") as desk:
        ev = seated_event(desk)
        desk.seat_round(ev.id)
        floor = Floor(desk, ev.id)
        ids = desk.round(ev.id, 1).tables[0]
        for key, action in (
                ("nothing_to_confirm", lambda: referee.confirm(floor, 1, 1)),
                ("needs_reason", lambda: referee.correct(floor, 1, 1, {p: 5 for p in ids}, ids[0], reason=" ")),
                ("bad_setting", lambda: referee.set_settings(floor, confirm="sometimes"))):
            with pytest.raises(TournamentError) as caught:
                action()
            assert caught.value.key == key, caught.value
            japanese = refusal_text(caught.value, "ja")
            assert not japanese.startswith(UNKNOWN_JA.split("（")[0]), japanese
            assert english_words(japanese, ["sometimes", "confirm", "auto", "referee"]) == [], japanese


def test_a_message_on_screen_follows_the_language(make_screen):
    """A refusal, a saved correction, the damaged file's notice: on screen when the language changes, said again
    in the new language (they stayed in the old one)."""
    screen = make_screen(lang="en")
    d.tap(screen.ids.create_event)  # no name typed: refused
    assert screen.message == "an event needs a name"
    screen.lang = "ja"
    d.settle()
    assert screen.message == JAPANESE["event_name_empty"]
    screen.lang = "en"
    d.settle()
    assert screen.message == "an event needs a name"


def test_the_kept_files_notice_follows_the_language(make_screen, tmp_path):
    _sqlite_file(tmp_path / "tournament.sqlite3", application_id=0x1234)  # another program's file where ours goes
    screen = make_screen(lang="ja")
    assert screen.message.startswith("大会ファイルを使えませんでした（別のプログラムのSQLiteデータベースです）"), \
        screen.message
    assert english_words(screen.message.split("。")[0], ["SQLite"]) == [], screen.message
    type_into(screen.ids.event_input, "神戸オープン")
    d.tap(screen.ids.create_event)  # the notice stays after each change, in the screen's language
    assert screen.message.startswith("大会ファイルを使えませんでした")
    screen.lang = "en"
    d.settle()
    assert screen.message.startswith("The tournament file could not be used ("), screen.message
