"""High Tide: the voice names the land the tide took, as the screen does ("The tide floods the 5 mountains.").

The rules core puts the flooded hex's terrain and number (as they were before the flood) on the outcome; the
announcer says them from recorded clips only: "The tide floods the five mountains." / 「5の山地が浸水しました。」.
"""

from __future__ import annotations

import json
import wave

import pytest

from companion.announce import phrase_for_outcome
from companion.announce.clips import RATE, VOICE_DIR, ClipLibrary
from companion.announce.vocabulary import FLOOD_TERRAINS, PAUSES
from companion.rules.board import LAND_TERRAINS
from companion.rules.outcome import Outcome
from companion.ui.i18n import TEXT

SEATS = ["red", "blue", "white", "orange"]

# (flooded terrain, number) -> (English clip keys, Japanese clip keys, English caption, Japanese caption)
CASES = [
    ("mountains", 5, ["tide_floods_the", "n5", "terrain_mountains", "."],
     ["n5", "particle_no", "terrain_mountains", "ga_flooded", "。"],
     "The tide floods the five mountains.", "5の山地が浸水しました。"),
    ("hills", 8, ["tide_floods_the", "n8", "terrain_hills", "."],
     ["n8", "particle_no", "terrain_hills", "ga_flooded", "。"],
     "The tide floods the eight hills.", "8の丘陵が浸水しました。"),
    ("forest", 3, ["tide_floods_the", "n3", "terrain_forest", "."],
     ["n3", "particle_no", "terrain_forest", "ga_flooded", "。"],
     "The tide floods the three forest.", "3の森林が浸水しました。"),
    ("pasture", 10, ["tide_floods_the", "n10", "terrain_pasture", "."],
     ["n10", "particle_no", "terrain_pasture", "ga_flooded", "。"],
     "The tide floods the ten pasture.", "10の牧草地が浸水しました。"),
    ("fields", 6, ["tide_floods_the", "n6", "terrain_fields", "."],
     ["n6", "particle_no", "terrain_fields", "ga_flooded", "。"],
     "The tide floods the six fields.", "6の畑が浸水しました。"),
    ("gold", 11, ["tide_floods_the", "n11", "terrain_gold", "."],
     ["n11", "particle_no", "terrain_gold", "ga_flooded", "。"],
     "The tide floods the eleven gold field.", "11の金鉱が浸水しました。"),
]


@pytest.mark.parametrize("terrain, number, en_keys, ja_keys, english, japanese", CASES, ids=[c[0] for c in CASES])
def test_the_flooded_land_is_said_by_number_and_terrain(terrain, number, en_keys, ja_keys, english, japanese):
    outcome = Outcome(index=31, kind="flood", player=1, flooded=(0, 1), flooded_terrain=terrain,
                      flooded_number=number)
    en, ja = (phrase_for_outcome(outcome, SEATS, lang) for lang in ("en", "ja"))
    assert list(en.tokens) == en_keys and en.caption == english
    assert list(ja.tokens) == ja_keys and ja.caption == japanese


def test_the_japanese_terrain_words_are_the_screens():
    for terrain in FLOOD_TERRAINS:
        said = phrase_for_outcome(Outcome(index=1, kind="flood", flooded=(0, 0), flooded_terrain=terrain,
                                          flooded_number=4), SEATS, "ja")
        assert said.caption == f"4の{TEXT[terrain]['ja']}が浸水しました。"


def test_every_land_the_tide_can_take_has_its_words():
    """Every land terrain with a number token (all but the desert) is named; nothing falls back to "the land"."""
    assert set(FLOOD_TERRAINS) == set(LAND_TERRAINS) - {"desert"}


def test_an_outcome_without_the_terrain_still_says_the_land():
    """An outcome built without the new fields (not from the rules) keeps the old sentence, not silence."""
    bare = Outcome(index=1, kind="flood", flooded=(0, 0))
    assert [phrase_for_outcome(bare, SEATS, lang).caption for lang in ("en", "ja")] == [
        "The tide floods the land.", "土地が浸水しました。"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_flood_sentence_has_its_rendered_clips(lang):
    """Every clip key a flood can be said with (each land terrain x each number token 2..12) is in the manifest
    with its WAV on disk, 16 kHz mono, of a plausible length."""
    manifest = json.loads((VOICE_DIR / lang / "manifest.json").read_text(encoding="utf-8"))["clips"]
    keys = set()
    for terrain in (*LAND_TERRAINS, None):
        for number in (*range(2, 13), None):
            outcome = Outcome(index=1, kind="flood", flooded=(0, 0), flooded_terrain=terrain, flooded_number=number)
            keys.update(t for t in phrase_for_outcome(outcome, SEATS, lang).tokens if t not in PAUSES[lang])
    assert {"terrain_mountains", "terrain_gold"} <= keys
    for key in sorted(keys):
        assert key in manifest, f"{lang}/{key}: no rendered clip; run tools/render_voice.py"
        with wave.open(str(VOICE_DIR / lang / manifest[key]["file"]), "rb") as clip:
            assert (clip.getnchannels(), clip.getframerate()) == (1, RATE)
            assert 0.1 < clip.getnframes() / RATE < 3.0


@pytest.mark.parametrize("lang, low, high", [("en", 1.5, 5.0), ("ja", 1.5, 5.0)])
def test_a_flood_sentence_renders_to_audio_of_a_plausible_length(lang, low, high):
    """The sentence as the app plays it: its clips back to back with the full-stop pause."""
    outcome = Outcome(index=1, kind="flood", flooded=(0, 0), flooded_terrain="mountains", flooded_number=5)
    phrase = phrase_for_outcome(outcome, SEATS, lang)
    audio = ClipLibrary(lang).render(phrase.tokens)
    assert low < len(audio) / RATE < high
