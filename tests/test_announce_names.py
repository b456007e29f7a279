"""Players said by name: captions show the typed names, the voice says a recorded name where a player recorded
one and the colour where not (issue 25, item 12)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.announce import Announcer, RecordingPlayer, library, phrase_for_outcome
from companion.announce.name_voices import NameVoices, game_key, render_phrase
from companion.announce.phrases import Mention
from companion.announce.vocabulary import CLIPS
from companion.record import parse_record, replay
from companion.rules.outcome import AwardChange, Outcome

SEATS = ["red", "blue", "white", "orange"]
NAMES = ["Aki", "Ben", "Chie", "Dan"]
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))

# (what happened, Outcome fields, English caption, Japanese caption) with every player named -- by hand.
CASES = [
    ("roll with payouts", dict(kind="roll", player=0, dice=(3, 5), payouts={0: {"wool": 2}, 1: {"ore": 1}}),
     "Eight. Aki takes two wool. Ben takes one ore.", "8。Akiは羊毛2枚、Benは鉄1枚。"),
    ("robber moved, two to rob", dict(kind="move_robber", player=1, robber_moved=(1, 0), steal_from=(0, 2)),
     "The robber moved. Ben can rob Aki or Chie.", "盗賊が移動しました。BenはAkiかChieから奪えます。"),
    ("steal unseen", dict(kind="steal", player=1, stolen=(0, None)),
     "Ben steals a card from Aki.", "BenがAkiからカードを1枚奪いました。"),
    ("longest road", dict(kind="build", player=1, awards=(AwardChange("longest_road", 0, 1, 6),)),
     "Ben now holds Longest Road, six roads.", "Benが最長交易路を獲得、道6本。"),
    ("winner and ranking", dict(kind="build", player=1, winner=1, ranking=(1, 0, 3, 2), next="game_over"),
     "Ben wins the game. Final order: Ben, Aki, Dan and Chie.", "Benの勝ちです。順位はBen、Aki、Dan、Chie。"),
]


@pytest.mark.parametrize("what, fields, english, japanese", CASES, ids=[c[0] for c in CASES])
def test_captions_say_the_typed_names(what, fields, english, japanese):
    outcome = Outcome(index=3, **fields)
    said = [phrase_for_outcome(outcome, SEATS, lang, names=NAMES) for lang in ("en", "ja")]
    assert [p.caption for p in said] == [english, japanese]
    # The voice's tokens stay the colours': the fallback for a player who recorded no name.
    assert [p.tokens for p in said] == [phrase_for_outcome(outcome, SEATS, lang).tokens for lang in ("en", "ja")]


def test_a_player_without_a_name_is_shown_by_colour():
    outcome = Outcome(index=3, kind="steal", player=1, stolen=(0, None))
    assert phrase_for_outcome(outcome, SEATS, "en", names=["", "Ben", None, "Dan"]).caption == \
        "Ben steals a card from red."
    assert phrase_for_outcome(outcome, SEATS, "en", names=["aki", "Ben", None, "Dan"]).caption == \
        "Ben steals a card from aki."  # a name is shown as typed (a sentence's first word gets its capital)


def scenario_outcomes():
    for path in SCENARIOS:
        try:
            record = parse_record(json.loads(path.read_text(encoding="utf-8"))["record"])
            yield from ((o, [p["color"] for p in record.players]) for o in replay(record).outcomes)
        except Exception:  # a scenario of a bad record (or one another change broke): not this test's subject
            continue


OUTCOMES = list(scenario_outcomes())


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(OUTCOMES), st.sampled_from(["en", "ja"]))
def test_naming_every_player_by_their_colour_word_changes_no_caption(case, lang):
    """The names take exactly the colours' places: named by their own colour words, every caption is as before."""
    outcome, colors = case
    plain = phrase_for_outcome(outcome, colors, lang)
    if plain is None:
        return
    colour_words = [CLIPS[lang][c][1] for c in colors]
    assert phrase_for_outcome(outcome, colors, lang, names=colour_words) == plain


@pytest.mark.parametrize("lang, particle", [("en", None), ("ja", "particle_wa")])
def test_a_recorded_name_is_said_in_the_place_of_the_colour_and_others_by_colour(lang, particle):
    name = (np.sin(np.arange(6000) / 7.0) * 20000).astype(np.int16)  # a stand-in for Aki saying "Aki"
    player = RecordingPlayer()
    announcer = Announcer(SEATS, lang=lang, player=player, names=NAMES, voices={0: name})
    said = announcer.on_outcome(Outcome(3, "roll", 0, (3, 5), payouts={0: {"wool": 2}, 1: {"ore": 1}}))
    assert announcer.wait_idle(5)
    announcer.close()
    clips = library(lang)
    expected = []
    for token in said.tokens:
        if isinstance(token, Mention) and token.seat == 0:  # Aki's mention
            expected += [name] + ([clips.samples(particle)] if particle else [])
        else:
            expected.append(clips.samples(token))
    heard = player.played[0].samples
    assert np.array_equal(heard, np.concatenate(expected))
    assert said.tokens[2] in ("red", "red_wa")  # after the number and its pause
    blue = clips.samples("blue" if lang == "en" else "blue_wa")  # Ben recorded nothing: said by colour
    assert any(np.array_equal(heard[i:i + len(blue)], blue) for i in range(len(heard) - len(blue) + 1))
    red = clips.samples("red" if lang == "en" else "red_wa")
    assert not any(np.array_equal(heard[i:i + len(red)], red) for i in range(len(heard) - len(red) + 1))


def test_render_without_voices_is_the_clips_back_to_back():
    phrase = phrase_for_outcome(Outcome(0, "roll", 0, (3, 5), payouts={0: {"wool": 2}}), SEATS, "en")
    assert np.array_equal(render_phrase(library("en"), phrase.tokens, {}), library("en").render(phrase.tokens))


@pytest.mark.parametrize("call, message", [
    (lambda: phrase_for_outcome(Outcome(0, "steal", 1, stolen=(0, None)), SEATS, "en", names=["Aki"]),
     "players: 1 names for 4 colours"),
    (lambda: Announcer(SEATS, player=RecordingPlayer(), voices={4: np.zeros(10, np.int16)}),
     "voices: seat 4 needs a seat of the 4 players"),
    (lambda: Announcer(SEATS, player=RecordingPlayer(), voices={0: np.zeros(10, np.float32)}),
     "voices: seat 0 needs a seat of the 4 players and int16 samples"),
])
def test_bad_names_and_voices_are_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- kept with the game ---------------------------------------------------------------------------------------

def test_recorded_names_survive_a_restart_and_belong_to_their_game_only(tmp_path):
    aki = (np.arange(4000) % 200 * 100 - 10000).astype(np.int16)
    chie = (np.arange(3000) % 50 * 300 - 7000).astype(np.int16)
    key = game_key(1, 1764140000.123)
    NameVoices(tmp_path).save(key, 0, aki)
    NameVoices(tmp_path).save(key, 2, chie)
    again = NameVoices(tmp_path).load(key)  # a new app: nothing but the files
    assert sorted(again) == [0, 2]
    assert np.array_equal(again[0], aki) and np.array_equal(again[2], chie)
    # A new journal file may give the id 1 to another game: its creation time tells them apart.
    assert NameVoices(tmp_path).load(game_key(1, 1764150000.0)) == {}
    assert not list(tmp_path.rglob("*.partial"))


def test_a_damaged_name_clip_is_left_out_and_that_player_said_by_colour(tmp_path):
    key = game_key(2, 5.0)
    store = NameVoices(tmp_path)
    store.save(key, 0, np.ones(800, np.int16))
    (tmp_path / key / "seat-1.wav").write_bytes(b"RIFF....not a wave")
    assert sorted(store.load(key)) == [0]


@pytest.mark.parametrize("key, seat, clip, message", [
    ("../x", 0, np.ones(5, np.int16), "is not a game key"),
    (game_key(1, 0), -1, np.ones(5, np.int16), "seat must be a whole number"),
    (game_key(1, 0), 0, np.ones(5, np.float64), "int16 mono samples"),
    (game_key(1, 0), 0, np.zeros(0, np.int16), "int16 mono samples"),
])
def test_bad_clips_are_refused_and_nothing_is_written(tmp_path, key, seat, clip, message):
    with pytest.raises(ValueError, match=message):
        NameVoices(tmp_path).save(key, seat, clip)
    assert not any(tmp_path.rglob("*.wav"))


def test_a_colour_that_is_not_a_player_stays_a_colour():
    """The mothership's red ball is said "red" even when the red player has a name (only mentions are names)."""
    from companion.rules.starfarers import StarOutcome

    shake = StarOutcome.make(index=4, kind="shake", player=1, balls=("red", "yellow"), speed=3)
    said = [phrase_for_outcome(shake, SEATS, lang, names=NAMES).caption for lang in ("en", "ja")]
    assert said[0].startswith("Red and yellow.") and "Aki" not in said[0]
    assert said[1].startswith("赤と黄色。") and "Aki" not in said[1]
