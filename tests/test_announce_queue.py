"""The announcer's queue: rolls supersede stale news, notices go first, nothing overlaps, settings apply."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from companion.announce import Announcer, RecordingPlayer, library
from companion.rules.outcome import Outcome

SEATS = ["red", "blue", "white"]


def roll(index: int, a: int, b: int, **fields) -> Outcome:
    return Outcome(index=index, kind="roll", player=0, dice=(a, b), **fields)


@pytest.fixture
def held():
    """An announcer whose player holds each phrase until the test opens the gate."""
    gate = threading.Event()
    player = RecordingPlayer(gate)
    announcer = Announcer(SEATS, player=player)
    yield announcer, player, gate
    gate.set()
    announcer.close()


def test_phrases_are_played_one_after_another_in_order():
    player = RecordingPlayer()
    announcer = Announcer(SEATS, player=player)
    announcer.on_outcome(Outcome(1, "build", 0, awards=()))  # says nothing
    first = announcer.on_outcome(roll(2, 3, 5, payouts={0: {"wool": 2}}))
    second = announcer.on_outcome(Outcome(3, "steal", 1, stolen=(0, None)))
    assert announcer.wait_idle(5)
    announcer.close()
    assert [p.caption for p in player.played] == [first.caption, second.caption]
    assert [first.status, second.status] == ["played", "played"]
    expected = library("en").render(first.tokens)
    assert np.array_equal(player.played[0].samples, expected)


def test_a_new_roll_cuts_the_stale_one_and_drops_queued_news(held):
    announcer, player, gate = held
    old_roll = announcer.on_outcome(roll(2, 3, 5, payouts={0: {"wool": 2}}))
    assert player.playing.wait(2)
    stale = announcer.on_outcome(Outcome(3, "steal", 1, stolen=(0, None)))
    new_roll = announcer.on_outcome(roll(5, 2, 2))
    gate.set()
    assert announcer.wait_idle(5)
    assert (old_roll.status, stale.status, new_roll.status) == ("cut", "superseded", "played")
    assert [(p.caption, p.completed) for p in player.played] == [(old_roll.caption, False), (new_roll.caption, True)]


def test_device_notices_jump_the_queue_and_survive_a_new_roll(held):
    announcer, player, gate = held
    announcer.on_outcome(roll(2, 3, 5))
    assert player.playing.wait(2)
    news = announcer.on_outcome(Outcome(3, "move_robber", 0, robber_moved=(0, 0)))
    notice = announcer.on_notice("box_disconnected")
    gate.set()
    assert announcer.wait_idle(5)
    assert [p.caption for p in player.played][1:] == [notice.caption, news.caption]
    gate.clear()
    announcer.on_outcome(roll(4, 1, 1))
    assert player.playing.wait(2)
    kept = announcer.on_notice("camera_reroll")
    announcer.on_outcome(roll(5, 6, 6))  # cuts roll 4, keeps the notice
    gate.set()
    assert announcer.wait_idle(5)
    assert kept.status == "played" and player.played[-1].caption == "Twelve. No production."


def test_the_winner_is_not_cut_by_a_late_roll(held):
    announcer, player, gate = held
    win = announcer.on_outcome(Outcome(9, "build", 1, winner=1, ranking=(1, 0, 2)))
    assert player.playing.wait(2)
    announcer.on_outcome(roll(10, 3, 3))
    gate.set()
    assert announcer.wait_idle(5)
    assert win.status == "played"


def test_mute_keeps_captions_and_silences_sound(held):
    announcer, player, gate = held
    shown = []
    announcer.add_caption_listener(shown.append)
    announcer.on_outcome(roll(2, 3, 5))
    assert player.playing.wait(2)
    announcer.muted = True  # cuts what is being said
    quiet = announcer.on_outcome(roll(3, 4, 4))
    gate.set()
    assert announcer.wait_idle(5)
    assert quiet.status == "muted"
    assert [a.caption for a in shown] == ["Eight. No production.", "Eight. No production."]
    assert len(player.played) == 1 and not player.played[0].completed


def test_volume_and_language_apply_to_the_next_phrase():
    player = RecordingPlayer()
    announcer = Announcer(SEATS, player=player)
    announcer.volume = 0.25
    announcer.language = "ja"
    said = announcer.on_outcome(roll(2, 3, 5, payouts={1: {"ore": 1}}))
    assert announcer.wait_idle(5)
    announcer.close()
    assert said.caption == "8。青は鉄1枚。"
    assert player.played[0].volume == 0.25
    with pytest.raises(ValueError, match="volume"):
        announcer.volume = 1.5
    with pytest.raises(ValueError, match="language"):
        announcer.language = "de"
    assert announcer.volume == 0.25 and announcer.language == "ja"


def test_a_bad_colour_is_refused_before_anything_starts():
    with pytest.raises(ValueError, match="player 2.*pink"):
        Announcer(["red", "blue", "pink"], player=RecordingPlayer())


class UnpluggedMidGame(RecordingPlayer):
    """A device that works for the first phrase and is gone from the second on (a USB speaker pulled out);
    the real failure cannot be produced on a machine without a sound card."""

    name = "usb-speaker"

    def play(self, announcement, samples, volume, cancel, started):
        if self.played:
            from companion.announce import AudioUnavailable
            raise AudioUnavailable("audio output 'usb-speaker' failed: device unplugged")
        return super().play(announcement, samples, volume, cancel, started)


def test_a_device_lost_mid_game_means_one_notice_and_captions_go_on():
    player = UnpluggedMidGame()
    announcer = Announcer(SEATS, player=player)
    problems, shown = [], []
    announcer.add_problem_listener(problems.append)
    announcer.add_caption_listener(shown.append)
    said = []
    for i in range(1, 4):  # one roll at a time: a roll published at once would supersede the one before
        said.append(announcer.on_outcome(roll(i, 3, 5)))
        assert announcer.wait_idle(5)
    said.append(announcer.on_notice("box_disconnected"))
    assert announcer.wait_idle(5)
    announcer.close()
    assert [a.status for a in said] == ["played", "silent", "silent", "silent"]
    assert problems == ["audio output 'usb-speaker' failed: device unplugged"]
    assert announcer.player_name == "null" and announcer.audio_notice.startswith("No audio device")
    assert [a.caption for a in shown] == ["Eight. No production."] * 3 + ["Dice box unplugged."]
    late = []
    announcer.add_problem_listener(late.append)  # a screen opened later still learns it, once
    assert late == problems
