"""End to end through real audio: the announcer → sounddevice → PortAudio → ALSA → a file.

A temporary HOME holds an ``.asoundrc`` that routes ``pcm.!default`` to ALSA's ``file`` plugin (with the
``null`` device as its slave), so whatever PortAudio hands to the default device is written to a WAV file.
PortAudio reads the ALSA configuration when it initialises (when sounddevice is imported), so each
playback runs in a child process with that HOME.  The test then finds, in what was captured, each expected
phrase — its clips back to back, as the clip library renders them — exactly, in order, with nothing but
silence between them.
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

from companion.announce import library, phrase_for_notice, phrase_for_outcome
from companion.announce.clips import RATE
from companion.record import load_record, parse_record, replay

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "scenarios" / "sea_pirate_robs_a_ship_owner.json"

# Runs in the child: announce the scenario's events ``indices`` and then a notice, each to the end, and
# report what the announcer did.  The last phrase is spoken at half volume.
CHILD = r"""
import json, sys
from companion.announce import Announcer
from companion.record import load_record, parse_record, replay

spec = json.loads(sys.argv[1])
record = parse_record(json.loads(open(spec["scenario"]).read())["record"])
game = replay(record)
announcer = Announcer([p["color"] for p in record.players], lang=spec["lang"], player=spec["player"])
problems, captions = [], []
announcer.add_problem_listener(problems.append)
announcer.add_caption_listener(lambda a: captions.append(a.caption))
given_back = {int(seat): cards for seat, cards in spec.get("given_back", {}).items()}
said = [announcer.on_outcome(game.outcomes[i], given_back=given_back) for i in spec["indices"]]
ok = announcer.wait_idle(30)
announcer.volume = 0.5
said.append(announcer.on_notice("box_disconnected"))
ok = announcer.wait_idle(30) and ok
player = announcer.player_name
announcer.close()
print(json.dumps({"player": player, "idle": ok, "problems": problems, "captions": captions,
                  "notice": announcer.audio_notice,
                  "statuses": [a.status for a in said],
                  "latencies": [a.latency for a in said]}))
"""


def play_in_child(home: Path, lang: str, indices: list[int], player: str = "sounddevice",
                  given_back: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALSA")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    spec = {"scenario": str(SCENARIO), "lang": lang, "indices": indices, "player": player,
            "given_back": given_back or {}}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], env=env, cwd=home,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def alsa_home(tmp_path: Path, pcm: str) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".asoundrc").write_text(pcm)
    return home


def find_in_order(captured: np.ndarray, phrases: list[np.ndarray]) -> None:
    """Each phrase occurs exactly in ``captured``, in order; every other sample is silence."""
    position = 0
    for n, phrase in enumerate(phrases):
        rest = captured[position:position + len(phrase) + RATE]  # a second of silence at most between phrases
        sounding = np.flatnonzero(rest)
        assert len(sounding), f"phrase {n} was not captured (only silence after sample {position})"
        # A phrase starts with its first non-zero sample: clips are trimmed and faded in from zero.
        start = position + sounding[0] - int(np.flatnonzero(phrase)[0])
        got = captured[start:start + len(phrase)]
        assert len(got) == len(phrase), f"phrase {n} was cut: {len(got)} of {len(phrase)} samples captured"
        mismatch = np.flatnonzero(got != phrase)
        assert not len(mismatch), (f"phrase {n} differs from its clips at sample {mismatch[0]} of {len(phrase)} "
                                   f"(captured {got[mismatch[0]]}, expected {phrase[mismatch[0]]})")
        assert not captured[position:start].any(), f"sound before phrase {n} that is not a clip"
        position = start + len(phrase)
    assert not captured[position:].any(), "sound after the last phrase"


@pytest.mark.parametrize("lang, given_back", [("en", None), ("ja", None), ("en", {1: {"ore": 1, "wool": 2}})])
def test_what_reaches_alsa_is_the_expected_clip_sequence(tmp_path, lang, given_back):
    """(With ``given_back``: each roll said as one put right, what the wrong one paid said first.)"""
    out = tmp_path / "captured.wav"
    home = alsa_home(tmp_path, f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{out}"\n format "wav"\n}}\n')
    indices = [14, 15, 16]  # seven, the pirate moved (blue can rob red), blue steals from red
    report = play_in_child(home, lang, indices, given_back=given_back)

    assert report["player"] == "sounddevice" and report["problems"] == [] and report["idle"]
    assert report["notice"] is None
    assert report["statuses"] == ["played"] * 4
    with wave.open(str(out), "rb") as captured_file:
        assert (captured_file.getnchannels(), captured_file.getsampwidth(), captured_file.getframerate()) == \
            (1, 2, RATE)
        captured = np.frombuffer(captured_file.readframes(captured_file.getnframes()), dtype=np.int16)

    record = parse_record(json.loads(SCENARIO.read_text())["record"])
    game = replay(record)
    colors = [p["color"] for p in record.players]
    clips = library(lang)
    phrases = [phrase_for_outcome(game.outcomes[i], colors, lang, given_back=given_back) for i in indices] + [
        phrase_for_notice("box_disconnected", lang)]
    if given_back:
        assert phrases[0].caption.startswith("Blue gives back one ore and two wool. Seven.")
    assert report["captions"] == [p.caption for p in phrases]
    expected = [clips.render(p.tokens) for p in phrases]
    expected[-1] = (expected[-1].astype(np.float32) * 0.5).astype(np.int16)  # spoken at volume 0.5
    find_in_order(captured, expected)


def test_without_a_sound_card_the_table_goes_on_with_captions_and_one_notice(tmp_path):
    # The default device is a card that does not exist: PortAudio finds no usable output.
    home = alsa_home(tmp_path, "pcm.!default {\n type hw\n card 7\n}\nctl.!default {\n type hw\n card 7\n}\n")
    report = play_in_child(home, "en", [14, 15, 16], player="auto")

    assert report["player"] == "null" and report["idle"]
    assert len(report["problems"]) == 1 and "audio" in report["problems"][0]
    assert report["notice"] == "No audio device: announcements are shown as captions only."
    assert report["captions"] == ["Seven. Blue moves the robber or the pirate.", "The pirate moved. Blue can rob red.",
                                  "Blue steals a card from red.", "Dice box unplugged."]
    assert report["statuses"] == ["silent"] * 4


def file_home(tmp_path: Path) -> tuple[Path, Path]:
    out = tmp_path / "captured.wav"
    return alsa_home(tmp_path, f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{out}"\n format "wav"\n}}\n'), out


def run_cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALSA")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "companion", "announce", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def read_capture(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as captured_file:
        return np.frombuffer(captured_file.readframes(captured_file.getnframes()), dtype=np.int16)


GAME_FILES = sorted((ROOT / "companion" / "assets" / "games").glob("*.json"))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", GAME_FILES, ids=[p.stem for p in GAME_FILES])
def test_cli_says_the_last_outcome_of_a_record(tmp_path, path, lang):
    home, out = file_home(tmp_path)
    done = run_cli(home, str(path), "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    record = load_record(path)
    last = replay(record).outcomes[-1]
    phrase = phrase_for_outcome(last, [p["color"] for p in record.players], lang, event=record.events[last.index])
    assert done.stdout == f"#{last.index} {phrase.caption}\n"
    find_in_order(read_capture(out), [library(lang).render(phrase.tokens)])


def test_cli_all_says_every_outcome_in_order(tmp_path):
    home, out = file_home(tmp_path)
    path = ROOT / "companion" / "assets" / "games" / "example-high-tide.json"
    done = run_cli(home, str(path), "--lang", "ja", "--all")
    assert done.returncode == 0, done.stderr
    record = load_record(path)
    colors = [p["color"] for p in record.players]
    said = [(o.index, phrase_for_outcome(o, colors, "ja", event=record.events[o.index]))
            for o in replay(record).outcomes]  # a trade said with its cards, as the app says it
    said = [(i, p) for i, p in said if p is not None]
    assert len(said) > 300
    assert done.stdout.splitlines() == [f"#{i} {p.caption}" for i, p in said]
    find_in_order(read_capture(out), [library("ja").render(p.tokens) for _, p in said])


def test_cli_without_a_sound_card_prints_captions_and_says_so_once(tmp_path):
    home = alsa_home(tmp_path, "pcm.!default {\n type hw\n card 7\n}\n")
    done = run_cli(home, str(ROOT / "companion" / "assets" / "games" / "example-base.json"), "--all")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) > 300
    assert done.stderr.count("no sound") == 1 and done.stderr.endswith("captions only\n")


@pytest.mark.parametrize("args, code, message", [
    (["missing.json"], 1, "missing.json"),
    (["BAD"], 1, "game must be"),
    (["GOOD", "--lang", "fr"], 2, "invalid choice: 'fr'"),
])
def test_cli_bad_input_is_named(tmp_path, args, code, message):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "catan-record/1"}')
    good = ROOT / "companion" / "assets" / "games" / "example-base.json"
    args = [str(bad) if a == "BAD" else str(good) if a == "GOOD" else a for a in args]
    done = run_cli(alsa_home(tmp_path, ""), *args)
    assert done.returncode == code and message in done.stderr and done.stdout == ""


# --- Kivy's SoundLoader (the Android path), through SDL2's audio: its "disk" driver plays in real time into a
# file, so a phrase takes as long as it sounds and a new roll can cut it mid-sentence, as at the table.

KIVY_CHILD = r"""
import json, sys, time
from companion.announce import Announcer, KivyPlayer
from companion.record import parse_record, replay

spec = json.loads(sys.argv[1])
record = parse_record(json.loads(open(spec["scenario"]).read())["record"])
game = replay(record)
announcer = Announcer([p["color"] for p in record.players], lang="en", player=KivyPlayer())
long_news = announcer.on_outcome(game.outcomes[spec["news"]])
while long_news.status != "playing":
    time.sleep(0.01)
time.sleep(spec["cut_after"])
roll = announcer.on_outcome(game.outcomes[spec["roll"]])
ok = announcer.wait_idle(30)
player = announcer.player_name
announcer.close()
print(json.dumps({"player": player, "idle": ok, "problem": announcer.audio_problem,
                  "statuses": [long_news.status, roll.status]}))
"""


def correlate(signal: np.ndarray, template: np.ndarray) -> tuple[int, float]:
    """Where ``template`` fits best in ``signal``, and how well (normalised cross-correlation, 1 = same shape)."""
    n = len(signal) + len(template)
    size = 1 << (n - 1).bit_length()
    scores = np.fft.irfft(np.fft.rfft(signal, size) * np.conj(np.fft.rfft(template, size)), size)
    scores = scores[:len(signal) - len(template) + 1]
    at = int(np.argmax(scores))
    window = signal[at:at + len(template)]
    return at, float(np.dot(window, template) / (np.linalg.norm(window) * np.linalg.norm(template) or 1.0))


def test_kivy_player_speaks_through_sdl_and_a_new_roll_cuts_the_old_phrase(tmp_path):
    scenario = ROOT / "tests" / "scenarios" / "tide_flood_sinks_settlement_and_longest_road.json"
    raw = tmp_path / "sdl.raw"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ALSA", "KIVY", "SDL"))}
    env.update(HOME=str(tmp_path), PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_AUDIO="sdl2", SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(raw))
    spec = {"scenario": str(scenario), "news": 31, "roll": 30, "cut_after": 0.8}
    done = subprocess.run([sys.executable, "-c", KIVY_CHILD, json.dumps(spec)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"player": "kivy", "idle": True, "problem": None, "statuses": ["cut", "played"]}

    record = parse_record(json.loads(scenario.read_text())["record"])
    game = replay(record)
    colors = [p["color"] for p in record.players]
    news, roll = (library("en").render(phrase_for_outcome(game.outcomes[i], colors, "en").tokens).astype(float)
                  for i in (31, 30))
    # SDL mixes at 44.1 kHz stereo; bring the left channel back to the clips' rate.
    left = np.fromfile(raw, dtype="<i2").reshape(-1, 2)[:, 0].astype(float)
    captured = np.interp(np.arange(len(left) * RATE // 44100) * 44100 / RATE, np.arange(len(left)), left)

    roll_at, roll_fit = correlate(captured, roll)
    assert roll_fit > 0.98, f"the roll's phrase was not heard whole (best fit {roll_fit:.3f})"
    heard_of_news = roll_at  # everything before the roll is the cut news phrase
    # The child cuts the news 0.8 s after it began by the wall clock; SDL's disk writer keeps pace with that clock
    # only on an idle machine (0.46 s were written by then at a load of 19), so the cut must fall inside the news,
    # after some of it and long before its end, rather than at a set time.
    assert 0.1 * RATE < heard_of_news < len(news) - RATE, \
        f"the news should be cut part-way, not after {heard_of_news / RATE:.2f} s of {len(news) / RATE:.2f} s"
    start, news_fit = correlate(captured[:roll_at], news[:min(RATE // 2, heard_of_news // 2)])
    assert news_fit > 0.98 and start < RATE // 2, "what was heard before the roll is not the news phrase"


def test_cli_says_a_roll_the_camera_read_with_its_faces_through_alsa(tmp_path):
    """A record whose last event is a camera's roll: the caption and the sound both carry its two faces."""
    record = load_record(ROOT / "companion" / "assets" / "games" / "example-base.json")
    game = replay(record)
    upto = next(i for i, o in enumerate(game.outcomes) if o.kind == "roll" and o.number != 7)
    record.events = [dict(e) for e in record.events[:upto + 1]]
    record.events[upto]["source"] = "camera"
    path = tmp_path / "camera.json"
    path.write_text(record.dumps(), encoding="utf-8")
    home, out = file_home(tmp_path)
    done = run_cli(home, str(path), "--lang", "en")
    assert done.returncode == 0, done.stderr
    roll = replay(record).outcomes[-1]
    phrase = phrase_for_outcome(roll, [p["color"] for p in record.players], "en", faces=True)
    low, high = sorted(roll.dice)
    assert phrase.tokens[2:5] == (f"n{low}", "and", f"n{high}")
    assert done.stdout == f"#{roll.index} {phrase.caption}\n"
    find_in_order(read_capture(out), [library("en").render(phrase.tokens)])


@pytest.mark.parametrize("scenario, lang, said, longest", [
    ("tide_flood_sinks_settlement_and_longest_road", "en",
     "#31 The tide floods the six fields. Red loses a settlement and two roads to the sea. "
     "Blue now holds Longest Road, five roads.", 5.0),
    ("tide_flood_sinks_settlement_and_longest_road", "ja",
     "#31 6の畑が浸水しました。赤は開拓地1つと道2本を失いました。青が最長交易路を獲得、道5本。", 5.0),
    # "flood all hexes": one roll floods both land hexes with the 6, and both are heard (it named the first only)
    ("tide_variant_flood_all", "en",
     "#25 Six. Red takes one brick and one grain. The tide floods the six fields and the six hills. Red loses a "
     "settlement and two roads to the sea. Longest Road is set aside.", 8.0),
    ("tide_variant_flood_all", "ja",
     "#25 6。赤はレンガ1枚と小麦1枚。6の畑と6の丘陵が浸水しました。赤は開拓地1つと道2本を失いました。"
     "最長交易路は保留になりました。", 8.0)])
def test_cli_says_which_land_the_tide_floods_through_alsa(tmp_path, scenario, lang, said, longest):
    """High Tide: the flood is heard with every hex it takes as it was (number and terrain), not as "the land";
    what reaches ALSA is exactly its clips, and the flood sentence alone lasts as long as such a sentence does."""
    path = tmp_path / "tide.json"
    path.write_text(json.dumps(json.loads((ROOT / "tests" / "scenarios" / f"{scenario}.json").read_text())["record"]),
                    encoding="utf-8")
    home, out = file_home(tmp_path)
    done = run_cli(home, str(path), "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stdout == said + "\n"
    record = load_record(path)
    last = replay(record).outcomes[-1]
    phrase = phrase_for_outcome(last, [p["color"] for p in record.players], lang)
    find_in_order(read_capture(out), [library(lang).render(phrase.tokens)])
    stop = "." if lang == "en" else "。"
    said_at = next(i for i, token in enumerate(phrase.tokens) if token in ("tide_floods_the", "ga_flooded"))
    begin = max((i + 1 for i, t in enumerate(phrase.tokens[:said_at]) if t == stop), default=0)  # its sentence
    flood = phrase.tokens[begin:phrase.tokens.index(stop, said_at) + 1]
    seconds = len(library(lang).render(flood)) / RATE
    assert 1.5 < seconds < longest, f"the flood sentence lasts {seconds:.2f} s"


def _diked_flood_all(dikes: list[list[int]]) -> dict:
    """The flood-all scenario (one roll of 6 floods the 6 fields and the 6 hills) with Blue building a dike on
    each hex of ``dikes`` in the dike round (its cards given by the umpire first)."""
    record = json.loads((ROOT / "tests" / "scenarios" / "tide_variant_flood_all.json").read_text())["record"]
    assert record["events"][19] == {"type": "roll", "dice": [1, 1]}  # Blue's dike-round turn
    record["events"][20:20] = [{"type": "set_hand", "player": 1, "cards": {"brick": 2, "lumber": 2}},
                               *({"type": "build", "player": 1, "piece": "dike", "at": at} for at in dikes)]
    return record


@pytest.mark.parametrize("dikes, lang, said, longest", [
    ([[0, 0]], "en", "#27 Six. Red takes one brick and one grain. The dike on the six fields held back the tide, and "
                     "is removed. The tide floods the six hills.", 5.0),
    ([[0, 0]], "ja", "#27 6。赤はレンガ1枚と小麦1枚。6の畑の堤防が持ちこたえ、取り除かれました。6の丘陵が浸水しました。", 6.0),
    ([[0, 0], [3, 0]], "en", "#28 Six. Red takes one brick and one grain. The dikes on the six fields and the six "
                             "hills held back the tide, and are removed.", 8.0),
    ([[0, 0], [3, 0]], "ja", "#28 6。赤はレンガ1枚と小麦1枚。6の畑と6の丘陵の堤防が持ちこたえ、取り除かれました。", 8.0)])
def test_cli_names_every_dike_that_held_through_alsa(tmp_path, dikes, lang, said, longest):
    """High Tide: a dike that holds is heard with its hex, as the screen names it ("The dike on the six fields
    held back the tide"), every one of them when a flood-all roll meets several; it said "The dike held back the
    tide" once, naming none.  What reaches ALSA is exactly the clips, and the dike sentence lasts as such a
    sentence does."""
    path = tmp_path / "tide.json"
    path.write_text(json.dumps(_diked_flood_all(dikes)), encoding="utf-8")
    home, out = file_home(tmp_path)
    done = run_cli(home, str(path), "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stdout == said + "\n"
    record = load_record(path)
    last = replay(record).outcomes[-1]
    assert [list(d.at) for d in last.dikes] == dikes
    phrase = phrase_for_outcome(last, [p["color"] for p in record.players], lang)
    find_in_order(read_capture(out), [library(lang).render(phrase.tokens)])
    stop = "." if lang == "en" else "。"
    said_at = next(i for i, token in enumerate(phrase.tokens)
                   if token in ("held_back_the_tide", "held_back_the_tide_many", "no_dike_held"))
    begin = max((i + 1 for i, t in enumerate(phrase.tokens[:said_at]) if t == stop), default=0)  # its sentence
    sentence = phrase.tokens[begin:phrase.tokens.index(stop, said_at) + 1]
    seconds = len(library(lang).render(sentence)) / RATE
    print(f"{lang} {len(dikes)} dike(s): the dike sentence lasts {seconds:.2f} s")
    assert 1.5 < seconds < longest, f"the dike sentence lasts {seconds:.2f} s"


@pytest.mark.parametrize("scenario, lang, said", [
    ("tide_four_player_end_and_tie_on_cards", "en",
     "#58 The game is over. Orange wins the game. Red is second. Blue and white share third place."),
    ("tide_four_player_end_and_tie_on_cards", "ja",
     "#58 ゲーム終了です。オレンジの勝ちです。赤は2位です。青と白が同点で3位です。"),
    ("star_win_at_the_end_of_the_turn", "en", "#15 Red wins the game. Blue and white share second place."),
    ("star_win_at_the_end_of_the_turn", "ja", "#15 赤の勝ちです。青と白が同点で2位です。")])
def test_cli_says_the_places_as_they_are_through_alsa(tmp_path, scenario, lang, said):
    """The end of a game with players level: the places are heard as they are ("Blue and white share third place."),
    not the ranking as a plain order ("Final order: orange, red, blue and white."), and what reaches ALSA is
    exactly its clips (session 18)."""
    path = tmp_path / "end.json"
    path.write_text(json.dumps(json.loads((ROOT / "tests" / "scenarios" / f"{scenario}.json").read_text())["record"]),
                    encoding="utf-8")
    home, out = file_home(tmp_path)
    done = run_cli(home, str(path), "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stdout == said + "\n"
    record = load_record(path)
    phrase = phrase_for_outcome(replay(record).outcomes[-1], [p["color"] for p in record.players], lang)
    find_in_order(read_capture(out), [library(lang).render(phrase.tokens)])
