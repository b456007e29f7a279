"""A tablet that cannot play sound says so on the play screen: one line under the caption, in the current language,
shown and never said, nothing to dismiss.

At the start: the app runs in a child process whose HOME holds an ``.asoundrc`` sending ALSA's default device to a
sound card that is not there (card 42), as on a tablet with no sound device: PortAudio reads that configuration
once, when sounddevice is imported, so the test process's own audio cannot be changed.  Both players: sounddevice
(PortAudio finds no output) and Kivy's (SDL2's mixer cannot open the device and loads every sound empty).  Mid-game: a device that
goes away is a player whose ``play`` raises the same ``AudioUnavailable`` SoundDevicePlayer raises when its stream
fails (a PortAudio device cannot be unplugged from inside a test).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.announce.announcer import NO_SOUND_NOTICE
from companion.announce.players import AudioUnavailable, Player
from companion.ui import driver as d

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys
from dataclasses import replace
spec = json.loads(sys.argv[1])
from companion.ui.app import configure_kivy
configure_kivy()
from companion.ui import driver as d

app = d.start_app(spec["data"], size=tuple(spec["size"]), player=spec["player"])
report = {}
try:
    d.new_game(app, 3)
    play = app.root.get_screen("play")
    notice = play.ids.sound_notice
    # the announcer knows at its start (the listener hears it at once); the notice comes by the clock: settle, look
    # (Kivy's player finds out on the announcer's thread, getting the device ready: wait for that)
    report["known"] = d.wait_until(lambda: app.announcer.audio_problem is not None and app.announcer.wait_idle(0))
    d.settle()
    report["shown_en"] = notice.text == spec["en"]
    report["player"] = app.announcer.player_name
    report["problem"] = app.announcer.audio_problem
    report["visible"] = notice.height > 0 and notice.opacity == 1 and notice.width > 0
    report["inside"] = app.root.collide_point(*notice.to_window(*notice.center))
    report["prompt"] = play.ids.prompt.text
    report["covers_prompt"] = notice.collide_widget(play.ids.prompt) if notice.height else None
    report["layout"] = d.layout_problems(play)
    d.screenshot(__import__("pathlib").Path(spec["shot"] + "-en.png"))
    app.apply_settings(replace(app.settings, lang="ja"))
    d.settle()
    report["shown_ja"] = notice.text == spec["ja"]
    d.screenshot(__import__("pathlib").Path(spec["shot"] + "-ja.png"))
    report["said"] = [a.caption for a in app.announcer.captions]
finally:
    d.stop_app(app)
print("REPORT " + json.dumps(report))
"""


@pytest.mark.parametrize("size, player", [((1280, 800), "sounddevice"), ((800, 1280), "sounddevice"),
                                          ((1280, 800), "kivy")], ids=["landscape", "upright", "kivy-sdl2"])
def test_no_sound_device_is_said_on_the_play_screen(tmp_path, size, player):
    home = tmp_path / "home"
    home.mkdir()
    # ALSA's default device is a card that does not exist: what PortAudio finds on a tablet with no sound device
    (home / ".asoundrc").write_text("pcm.!default { type hw card 42 device 0 }\nctl.!default { type hw card 42 }\n")
    shot = ROOT / "docs" / "screens" / ("play-no-sound" + ("" if size[0] > size[1] else "-portrait"))
    if player == "kivy":
        shot = tmp_path / "play-no-sound-kivy"
    spec = {"data": str(tmp_path / "data"), "size": size, "shot": str(shot), "player": player, **NO_SOUND_NOTICE}
    env = dict(os.environ, HOME=str(home), PYTHONPATH=str(ROOT / "tests") + os.pathsep + str(ROOT))
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=240)
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
    assert lines, done.stdout[-2000:] + done.stderr[-4000:]
    report = json.loads(lines[-1][len("REPORT "):])
    assert report["player"] == "null" and report["problem"] and report["known"], report  # sound really failed, as on the tablet
    assert report["shown_en"], report
    assert report["visible"] and report["inside"], report
    assert report["prompt"] and not report["covers_prompt"], report  # the prompt still reads whole
    assert report["layout"] == [], report
    assert report["shown_ja"], report
    # shown, not said: no announcement carries it
    assert not any(NO_SOUND_NOTICE["en"] in c or NO_SOUND_NOTICE["ja"] in c for c in report["said"]), report


class UnpluggedMidGame(Player):
    """Plays the first phrase, then fails as SoundDevicePlayer does when its device is unplugged."""

    name = "unplugged"

    def __init__(self):
        self.phrases = 0

    def play(self, announcement, samples, volume, cancel, started) -> bool:
        self.phrases += 1
        if self.phrases > 1:
            raise AudioUnavailable("audio output 'USB speaker' failed: Unanticipated host error")
        started()
        return True


def test_sound_lost_mid_game_is_said_then_follows_the_language(tmp_path):
    app = d.start_app(tmp_path, player=UnpluggedMidGame())
    try:
        d.new_game(app, 3)
        play = app.root.get_screen("play")
        notice = play.ids.sound_notice
        d.place_setup(app)
        # the failed phrase done with (its problem reported to the listeners), the notice comes by the clock
        failed = lambda: app.announcer.audio_problem is not None and app.announcer.wait_idle(0)
        assert d.wait_until(failed), "the second phrase did not fail"
        d.settle()  # the notice comes from the announcer's thread by the clock
        assert notice.text == NO_SOUND_NOTICE["en"]
        assert notice.height > 0 and notice.opacity == 1
        assert not play.ids.caption.collide_widget(notice) or play.ids.caption.y >= notice.top
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        assert notice.text == NO_SOUND_NOTICE["ja"]
        app.apply_settings(replace(app.settings, lang="en"))
        d.settle()
        assert notice.text == NO_SOUND_NOTICE["en"]
        # a new game gets a new announcer: no notice until its own sound fails
        app.close_table()
        assert app.sound_notice == ""
    finally:
        d.stop_app(app)


class NoDevice(Player):
    """No sound device, found when the announcer gets the device ready: what Xvfb or a soundless tablet gives."""

    name = "no device"

    def prepare(self) -> None:
        raise AudioUnavailable("no audio output device")

    def play(self, announcement, samples, volume, cancel, started) -> bool:
        raise AudioUnavailable("no audio output device")


def test_the_notice_goes_when_the_voice_is_turned_off(tmp_path):
    """A table that turned Voice off in Settings asked for captions only: "no sound" is no news to it (the line
    stayed under the caption).  Turned on again, the notice is back."""
    app = d.start_app(tmp_path, player=NoDevice())
    try:
        d.new_game(app, 3)
        play = app.root.get_screen("play")
        notice = play.ids.sound_notice
        assert d.wait_until(lambda: app.announcer.audio_problem is not None)
        d.settle()
        assert notice.text == NO_SOUND_NOTICE["en"] and notice.height > 0

        def voice(on: bool) -> None:  # Menu → Settings → Voice → Save, then the game again, as a player does
            d.tap(play.ids.menu)
            d.tap(app.root.get_screen("start").ids.settings)
            switch = app.root.get_screen("settings").ids.voice
            if switch.active != on:
                d.tap(switch)
            assert switch.active == on
            d.tap(app.root.get_screen("settings").ids.save)
            d.tap(d.find(app.root.get_screen("start").ids.games, "#", startswith=True))
            assert app.root.current == "play"
            d.wait_until(lambda: app.announcer.audio_problem is not None)
            d.settle()

        voice(False)
        assert app.settings.voice is False
        assert notice.text == "" and notice.height == 0 and notice.opacity == 0
        voice(True)
        assert notice.text == NO_SOUND_NOTICE["en"] and notice.height > 0
    finally:
        d.stop_app(app)


def test_a_missing_device_is_shown_before_the_first_tap_so_the_board_holds_still(tmp_path):
    """Session 19's trial (the built wheel, no sound card): the notice came a moment into the set-up, the caption
    row grew and the board moved 22 px up under the finger placing the first settlement.  The device is tried when
    the game opens: the notice is there in the play screen's first frame and the board never moves for it."""
    from companion.record import COLORS, Record
    from companion.rules import standard_board

    app = d.start_app(tmp_path, player=NoDevice())
    try:
        app.start_game(Record("base", [{"name": n, "color": COLORS[i]} for i, n in enumerate(("Aki", "Ben", "Chie"))],
                             standard_board(2).to_json()))
        assert app.sound_notice == NO_SOUND_NOTICE["en"]  # no frame has run yet
        d.settle()
        board = app.root.get_screen("play").ids.board
        before = (tuple(board.pos), tuple(board.size))
        assert d.wait_until(lambda: app.announcer.wait_idle(0))  # the worker has had its go at the device
        d.settle()
        assert (tuple(board.pos), tuple(board.size)) == before
    finally:
        d.stop_app(app)
