"""A player's name through a real microphone path and back out of the speaker: ALSA's ``file`` plugin both ways.

A temporary HOME holds an ``.asoundrc`` whose default device captures from a raw file (a player saying their
name: a recorded word, quiet, between stretches of room noise) and plays into a WAV file.  A child process
(PortAudio reads the ALSA configuration when sounddevice is imported) records the name through a sounddevice
input stream, then announces a roll that pays that player; the test finds the name -- trimmed and levelled --
in what the speaker was given, and the colour's clip nowhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.announce import library
from companion.announce.clips import RATE
from companion.announce.microphone import AIR, LEAD, PEAK, TAIL, trim_and_level

ROOT = Path(__file__).resolve().parents[1]


def spoken_name() -> np.ndarray:
    """A stand-in for a player saying their name: a recorded Japanese word (「街道」), never part of an English
    announcement, so that finding it in what was played means the name was said."""
    clip = library("ja").samples("kaido").astype(np.float64)
    sounding = np.flatnonzero(np.abs(clip) > 200)
    return clip[sounding[0]:sounding[-1] + 1]


def as_said_at_the_table(name: np.ndarray, loudness: float, seed: int = 1, before: float = 0.6,
                         after: float = 1.5, noise: float = 30.0) -> np.ndarray:
    """``name`` at ``loudness`` of full scale, in room noise, with quiet before and after, as int16."""
    rng = np.random.default_rng(seed)
    quiet = lambda seconds: rng.normal(0, noise, int(seconds * RATE))  # noqa: E731
    said = name / np.max(np.abs(name)) * loudness * 32767 + rng.normal(0, noise, len(name))
    return np.clip(np.concatenate([quiet(before), said, quiet(after)]), -32768, 32767).astype(np.int16)


def fit(signal: np.ndarray, template: np.ndarray) -> tuple[int, float]:
    """Where ``template`` fits best in ``signal``, and how well (normalised cross-correlation, 1 = same shape)."""
    signal, template = signal.astype(np.float64), template.astype(np.float64)
    n = len(signal) + len(template)
    size = 1 << (n - 1).bit_length()
    scores = np.fft.irfft(np.fft.rfft(signal, size) * np.conj(np.fft.rfft(template, size)), size)
    at = int(np.argmax(scores[:len(signal) - len(template) + 1]))
    window = signal[at:at + len(template)]
    return at, float(np.dot(window, template) / (np.linalg.norm(window) * np.linalg.norm(template) or 1.0))


# --- trimming and levelling: the numbers -------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(loudness=st.floats(0.03, 1.0), before=st.floats(0.0, 1.5), after=st.floats(0.0, 1.5),
       seed=st.integers(0, 1000))
def test_a_name_is_cut_from_its_silence_and_brought_to_the_clips_level(loudness, before, after, seed):
    name = spoken_name()
    clip = trim_and_level(as_said_at_the_table(name, loudness, seed, before, after))
    assert clip is not None and clip.dtype == np.int16
    assert abs(int(np.max(np.abs(clip))) - PEAK) <= PEAK * 0.02  # as loud as every other clip
    longest = len(name) + (LEAD + TAIL + AIR) * RATE
    assert len(name) <= len(clip) <= longest + 0.02 * RATE, "the silence around the name was not cut"
    at, how_well = fit(clip, name)
    assert how_well > 0.99 and at <= LEAD * RATE + 0.02 * RATE


def test_a_microphone_at_another_rate_gives_a_clip_at_the_clips_rate():
    name = spoken_name()
    said = as_said_at_the_table(name, 0.3).astype(np.float64)
    at_44k = np.interp(np.arange(len(said) * 44100 // RATE) * RATE / 44100, np.arange(len(said)), said)
    clip = trim_and_level(at_44k.astype(np.int16), rate=44100)
    assert clip is not None and fit(clip, name)[1] > 0.98
    assert len(clip) <= len(name) + (LEAD + TAIL + AIR + 0.03) * RATE


@pytest.mark.parametrize("what, samples", [
    ("room noise only", np.random.default_rng(3).normal(0, 40, 2 * RATE).astype(np.int16)),
    ("silence", np.zeros(RATE, np.int16)),
    ("nothing", np.zeros(0, np.int16)),
    ("a click", np.concatenate([np.zeros(RATE, np.int16), np.full(30, 20000, np.int16), np.zeros(RATE, np.int16)])),
])
def test_no_speech_gives_no_clip(what, samples):
    assert trim_and_level(samples) is None


# --- end to end through ALSA --------------------------------------------------------------------------------

CHILD = r"""
import json, sys, threading
import numpy as np
from companion.announce import Announcer
from companion.announce.microphone import NameRecording, open_microphone
from companion.rules.outcome import Outcome

spec = json.loads(sys.argv[1])
microphone, problem = open_microphone("sounddevice")
report = {"microphone": microphone and microphone.name, "open_problem": problem}
if microphone is not None:
    heard, finished = {}, threading.Event()
    recording = NameRecording(microphone, lambda clip, why: (heard.update(clip=clip, problem=why), finished.set()))
    report["finished"] = finished.wait(60)
    recording.stop()
    report["problem"] = heard.get("problem")
    clip = heard.get("clip")
    if clip is not None:
        np.save(spec["clip"], clip)
        announcer = Announcer(["red", "blue", "white"], lang="en", player="sounddevice", names=["Aki", "Ben", "Chie"],
                              voices={0: clip})
        said = announcer.on_outcome(Outcome(5, "roll", 0, (3, 5), payouts={0: {"wool": 2}, 1: {"ore": 1}}))
        report["idle"] = announcer.wait_idle(30)
        announcer.close()
        report.update(caption=said.caption, status=said.status, tokens=list(said.tokens))
print(json.dumps(report))
"""


def run_child(tmp_path: Path, said: np.ndarray | None, pcm: str | None = None) -> tuple[dict, Path]:
    home = tmp_path / "home"
    home.mkdir()
    heard, played = tmp_path / "microphone.raw", tmp_path / "speaker.wav"
    if said is not None:
        said.astype("<i2").tofile(heard)
    (home / ".asoundrc").write_text(pcm or f"""pcm.!default {{
 type asym
 playback.pcm {{ type file; slave.pcm "null"; file "{played}"; format "wav" }}
 capture.pcm {{ type file; slave.pcm "null"; file "/dev/null"; infile "{heard}"; format "raw" }}
}}
""")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALSA")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    spec = {"clip": str(tmp_path / "clip.npy")}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], env=env, cwd=home,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), played


def test_a_name_said_into_the_microphone_is_heard_in_the_announcement(tmp_path):
    name = spoken_name()
    report, played = run_child(tmp_path, as_said_at_the_table(name, loudness=0.12))
    assert report["microphone"] == "sounddevice" and report["finished"] and report["problem"] is None
    assert report["idle"] and report["status"] == "played"
    assert report["caption"] == "Eight. Aki takes two wool. Ben takes one ore."
    clip = np.load(tmp_path / "clip.npy")
    assert abs(int(np.max(np.abs(clip))) - PEAK) <= PEAK * 0.02, "the quiet name was not levelled"
    assert len(clip) <= len(name) + (LEAD + TAIL + AIR + 0.02) * RATE, "the silence around the name was not cut"

    with wave.open(str(played), "rb") as speaker:
        assert (speaker.getnchannels(), speaker.getsampwidth(), speaker.getframerate()) == (1, 2, RATE)
        heard = np.frombuffer(speaker.readframes(speaker.getnframes()), dtype=np.int16)
    at, how_well = fit(heard, name)
    assert how_well > 0.98, f"the player's name is not in what was played (best fit {how_well:.3f})"
    clips = library("en")
    eight = clips.render(["roll8", "."])
    start = int(np.flatnonzero(heard)[0] - np.flatnonzero(eight)[0])  # clips fade in from zero
    assert np.array_equal(heard[start:start + len(eight)], eight), "the phrase does not start with the number"
    assert start + len(eight) <= at < start + len(eight) + LEAD * RATE + 0.02 * RATE, "the name is not where Aki is"
    red = clips.samples("red")
    assert fit(heard, red)[1] < 0.9, "Aki recorded her name: her colour should not be said"
    assert fit(heard, clips.samples("blue"))[1] > 0.999, "Ben recorded nothing: he is said by colour"


def test_silence_into_the_microphone_records_nothing_and_says_so(tmp_path):
    room = np.random.default_rng(5).normal(0, 30, 6 * RATE).astype(np.int16)
    report, _ = run_child(tmp_path, room)
    assert report["finished"] and report["problem"] == "nothing was heard" and "caption" not in report


def test_without_a_microphone_the_reason_is_given(tmp_path):
    report, _ = run_child(tmp_path, None, pcm="pcm.!default {\n type hw\n card 7\n}\nctl.!default {\n type hw\n card 7\n}\n")
    assert report["microphone"] is None and "microphone" in report["open_problem"]


def test_without_sounddevice_as_on_android_the_reason_is_given(tmp_path):
    """An Android build has no sounddevice: the microphone is Android's own, and off Android there is none."""
    child = ("import sys, json; sys.modules['sounddevice'] = None\n"
             "from companion.announce.microphone import open_microphone\n"
             "print(json.dumps([open_microphone('sounddevice'), open_microphone('android')]))")
    env = {k: v for k, v in os.environ.items() if k != "ANDROID_ARGUMENT"}
    env.update(PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (none, why), (no_android, why_not) = json.loads(done.stdout)
    assert none is None and why.startswith("PortAudio is not available")
    assert no_android is None and why_not == "Android's microphone exists only on Android"
