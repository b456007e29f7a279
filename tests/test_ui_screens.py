"""Every screen in English and Japanese, reached by touches, written to docs/screens/ for the README.

The language is switched the way a user does it (Settings → 日本語 → Save); the test checks that the
choice is saved and that the screens then speak Japanese.  The pictures are for people: look at them.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from companion.record import load_record, new_game as record_game
from companion.record.journal import Journal
from companion.ui import driver as d
from companion.ui.refusals_text import describe

pytestmark = pytest.mark.timeout(240)
ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screens"


def shot(app, name: str, lang: str) -> Path:
    return d.screenshot(SHOTS / f"{name}-{lang}.png")


def high_tide_at_flood(journal_dir: Path) -> int:
    """Journal the example High Tide game up to the roller's flood choice (the app resumes it)."""
    record = load_record(ROOT / "companion" / "assets" / "games" / "example-high-tide.json")
    game = record_game(record)
    for i, event in enumerate(record.events):
        game.push(event, atomic=False)
        if game.state.phase == "flood":
            record.events = record.events[:i + 1]
            break
    with Journal(journal_dir / "journal.sqlite3") as journal:
        return journal.create_game(record, "High Tide example")


def high_tide_before_the_end(journal_dir: Path) -> int:
    """The example High Tide game without its last event (the leader's final end of turn)."""
    record = load_record(ROOT / "companion" / "assets" / "games" / "example-high-tide.json")
    record.events = record.events[:-1]
    with Journal(journal_dir / "journal.sqlite3") as journal:
        return journal.create_game(record, "High Tide, last turn")


def after_setup_with_full_hand(journal_dir: Path) -> int:
    """A 3-player base game journalled after set-up, the first player holding 9 cards (umpire's set_hand)."""
    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    record.events.append({"type": "set_hand", "player": 0,
                          "cards": {"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 1}})
    return d.journal(journal_dir, record, "after set-up")


def switch_language(app, lang: str) -> None:
    start = app.root.get_screen("start")
    d.tap(start.ids.settings)
    settings = app.root.get_screen("settings")
    d.tap(settings.ids.lang_ja if lang == "ja" else settings.ids.lang_en)
    d.tap(settings.ids.save)
    assert app.lang == lang
    assert json.loads((app.data_dir / "settings.json").read_text())["lang"] == lang


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_screen(tmp_path, lang):
    tide_id = high_tide_at_flood(tmp_path)
    seven_id = after_setup_with_full_hand(tmp_path)
    end_id = high_tide_before_the_end(tmp_path)
    app = d.start_app(tmp_path)
    try:
        if lang == "ja":
            switch_language(app, "ja")
            assert app.root.get_screen("start").ids.new_game.text == "新しいゲーム"
        shot(app, "start", lang)
        start = app.root.get_screen("start")
        d.tap(start.ids.settings)
        shot(app, "settings", lang)
        d.tap(d.find(app.root.get_screen("settings"), app.tr("back")))

        d.tap(start.ids.new_game)
        ng = app.root.get_screen("new_game")
        d.tap(ng.ids.g_high_tide)
        shot(app, "new-game-high-tide", lang)
        d.tap(ng.ids.g_base)
        d.tap(ng.ids.n3)
        shot(app, "new-game", lang)

        # Board entry: a hex given a second desert is named in the message.
        d.tap(ng.ids.edit)
        editor = app.root.get_screen("board_editor")
        view = editor.ids.board
        land = sorted(h for h, t in view.board.tiles.items() if t.number == 5)[0]
        terrain = editor.tiles[land].terrain
        d.tap_at(*view.hex_pos(land))
        d.tap(d.find(editor.ids.terrains, app.tr("desert")))
        assert editor.tiles[land].terrain == "desert"
        # two deserts, a terrain and a token short of the standard set: all three named
        assert editor.message.startswith(app.tr("problems", n=3, first=""))
        problems = editor.problems()
        assert [p.code for p in problems] == ["terrain_count", "terrain_count", "numbers_missing"]
        assert problems[2].params == {"numbers": [5]}
        assert {p.params["terrain"] for p in problems[:2]} == {"desert", terrain}
        for problem in problems:  # each said in the screen's language (refusals_text.describe)
            assert describe(problem, lang) in editor.message
        shot(app, "board-editor", lang)
        d.tap(editor.ids.use)
        assert app.root.current == "board_editor"  # a board with problems is not taken
        assert editor.selected != land  # a desert is a whole entry: the editor moved on to the next hex
        d.tap_at(*view.hex_pos(land))  # the ringed hex, put right
        d.tap(d.find(editor.ids.terrains, app.tr(terrain)))
        d.tap(d.find(editor.ids.numbers, "5"))
        assert editor.message == app.tr("board_ok")
        d.tap(editor.ids.use)
        assert app.root.current == "new_game"

        d.tap(ng.ids.start)
        play = app.root.get_screen("play")
        shot(app, "play-setup", lang)
        d.tap(play.ids.menu)

        # A game journalled after set-up, its first player holding 9 cards: a roll pays, then a 7.
        d.tap(d.find(start.ids.games, f"#{seven_id} ", startswith=True))
        game = app.table.game
        d.tap_dice(play, d.producing_number(game, 0))
        shot(app, "play-payouts", lang)
        d.tap(play.ids.end_turn)
        d.tap_dice(play, 7)
        assert game.state.phase == "discard"
        shot(app, "play-discard", lang)
        while game.state.phase == "discard":
            who = game.waiting_for()
            d.submit_discard(app, who, game.state.discards_owed[who])
        assert game.state.phase == "move_robber"
        shot(app, "play-robber", lang)
        # The umpire's corrections, opened from live play: a hand as the table knows it, a piece to take off.
        d.tap(play.ids.umpire)
        d.tap(d.find(play.ids.actions, app.player_name(0)))
        held = sum(game.state.players[0].hand.known.values())
        texts = [getattr(w, "text", "") for w in d.walk(play.ids.actions)]
        assert app.tr("set_hand_ok", name=app.player_name(0), n=held) in texts
        shot(app, "play-umpire", lang)
        d.tap(play.ids.umpire)
        assert game.state.phase == "move_robber" and play.ids.board.pick == "hex"
        d.tap(play.ids.stats)
        stats = app.root.get_screen("statistics")
        rolls = Counter(sum(e["dice"]) for e in app.table.record.events if e["type"] == "roll")
        assert stats.ids.histogram.counts == dict(rolls) and sum(rolls.values()) == 2
        shot(app, "statistics", lang)
        d.tap(d.find(stats, app.tr("back")))
        d.tap(play.ids.menu)

        d.tap(d.find(start.ids.games, f"#{tide_id} ", startswith=True))
        assert app.table.game.state.phase == "flood"
        assert play.ids.board.pick == "hex" and play.ids.board.legal == frozenset(app.table.game.tide.flood_choices)
        shot(app, "play-high-tide", lang)
        d.tap(play.ids.menu)

        # The end: the leader's last turn ends, the ranking shows.
        d.tap(d.find(start.ids.games, f"#{end_id} ", startswith=True))
        d.tap(play.ids.end_turn)
        assert app.table.game.state.phase == "game_over"
        shot(app, "play-game-over", lang)
        d.tap(play.ids.menu)
        if app.has_screen("tournament"):  # the tournament desk's own screen, when installed
            d.tap(start.ids.tournament)
            shot(app, "tournament", lang)
    finally:
        d.stop_app(app)


def test_portrait(tmp_path):
    game_id = after_setup_with_full_hand(tmp_path)
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        d.tap_dice(play, d.producing_number(app.table.game, 0))
        board = play.ids.board
        assert board.width >= 780 and board.y > play.ids.end_turn.top  # the board on top, the panel below it
        shot(app, "play-portrait", "en")
    finally:
        d.stop_app(app)


def test_camera_rolls_wait_for_ok_is_a_setting_kept_across_a_restart(tmp_path):
    app = d.start_app(tmp_path)
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        assert not settings.ids.confirm_camera.active  # off by default: a camera roll is recorded at once
        d.tap(settings.ids.confirm_camera)
        d.tap(settings.ids.save)
        assert app.settings.confirm_camera
        assert json.loads((app.data_dir / "settings.json").read_text())["confirm_camera"] is True
    finally:
        d.stop_app(app)
    app = d.start_app(tmp_path)
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        assert app.settings.confirm_camera and app.root.get_screen("settings").ids.confirm_camera.active
    finally:
        d.stop_app(app)


def type_into(field, text: str) -> None:
    """Clear ``field`` and type ``text`` into it, as the on-screen keyboard does."""
    field.select_all()
    field.delete_selection()
    field.insert_text(text)
    d.pump()


def test_the_dice_source_is_chosen_by_name_and_a_camera_that_names_none_is_said(tmp_path):
    """Settings name the sources in the player's words; the camera is typed (a number, a phone's address, a
    video file); what names no camera is said and nothing is saved; calibrating the typed camera and coming
    back keeps what was typed."""
    from kivy.core.window import Window

    from test_ui_calibration import PHOTO, one_frame_video

    if not PHOTO.exists():
        pytest.skip("the dice photographs are not here")
    video = one_frame_video(PHOTO, tmp_path / "table.avi")
    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        assert settings.ids.source.text == "Tap the dice on the screen" and settings.ids.camera.disabled
        d.tap(settings.ids.source)
        d.tap(d.find(Window, "Camera over the tray"))
        assert settings.kind == "camera" and not settings.ids.camera.disabled and settings.ids.port.disabled
        type_into(settings.ids.camera, "back")
        d.tap(settings.ids.save)
        assert app.root.current == "settings" and app.settings.dice_source == "manual:"
        assert settings.problem == ('Camera: "back" is not a camera number, a stream address (http://…, rtsp://…) '
                                    'or a video file. Nothing was saved.')
        assert not (data / "settings.json").exists()
        d.settle()
        shot(app, "settings-camera-problem", "en")
        type_into(settings.ids.camera, str(video))
        assert settings.problem == ""  # typing again clears it
        d.tap(settings.ids.voice)  # typed, not saved yet
        d.tap(settings.ids.calibration)
        calibration = app.root.get_screen("calibration")
        assert app.root.current == "calibration" and calibration.spec() == str(video)  # the camera typed
        d.tap(calibration.ids.cancel)
        assert app.root.current == "settings" and settings.ids.camera.text == str(video)
        assert settings.kind == "camera" and not settings.ids.voice.active  # nothing typed was lost
        d.tap(settings.ids.save)
        saved = json.loads((data / "settings.json").read_text())
        assert saved["dice_source"] == f"camera://{video}" and saved["camera"] == str(video)
        assert saved["voice"] is False
    finally:
        d.stop_app(app)
    app = d.start_app(data)
    try:
        switch_language(app, "ja")
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        assert settings.ids.source.text == "トレイの上のカメラ" and settings.ids.camera.text == str(video)
        type_into(settings.ids.camera, "ftp://nas/dice.mp4")
        d.tap(settings.ids.save)
        assert settings.problem.startswith("カメラ：ftp:// のアドレスは読めません") and "何も保存していません" in settings.problem
        d.settle()
        shot(app, "settings-camera-problem", "ja")
        assert json.loads((data / "settings.json").read_text())["dice_source"] == f"camera://{video}"
    finally:
        d.stop_app(app)
