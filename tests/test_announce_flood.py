"""High Tide: the voice names every hex the tide took, as the screen does ("The tide floods the 5 mountains.").

The rules core puts each flooded hex on the outcome as it was before the flood (``Outcome.floods``: terrain, number,
and the neighbour that tells it apart from a hex with the same terrain and number); the announcer says them from
recorded clips only: "The tide floods the six fields and the six hills." / 「6の畑と6の丘陵が浸水しました。」, a twin
"the six fields next to the five forest" / 「5の森林の隣の6の畑」.  The screen's line is made from the same
outcome in the same words (tide_text.py), so the two are checked against each other here.
"""

from __future__ import annotations

import copy
import json
import re
import wave
from pathlib import Path

import pytest

from companion.announce import phrase_for_outcome
from companion.announce.clips import RATE, VOICE_DIR, ClipLibrary
from companion.announce.vocabulary import FLOOD_TERRAINS, LANDMARK_TERRAINS, PAUSES
from companion.record import parse_record, replay
from companion.rules.board import LAND_TERRAINS
from companion.rules.outcome import FloodedHex, Outcome
from companion.ui.i18n import TEXT, tr

SEATS = ["red", "blue", "white", "orange"]
SCENARIOS = Path(__file__).parent / "scenarios"

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


def flood(*hexes: FloodedHex) -> Outcome:
    return Outcome(index=31, kind="flood", player=1, flooded=hexes[0].at if hexes else None, floods=hexes)


@pytest.mark.parametrize("terrain, number, en_keys, ja_keys, english, japanese", CASES, ids=[c[0] for c in CASES])
def test_the_flooded_land_is_said_by_number_and_terrain(terrain, number, en_keys, ja_keys, english, japanese):
    outcome = flood(FloodedHex((0, 1), terrain, number))
    en, ja = (phrase_for_outcome(outcome, SEATS, lang) for lang in ("en", "ja"))
    assert list(en.tokens) == en_keys and en.caption == english
    assert list(ja.tokens) == ja_keys and ja.caption == japanese


def test_the_japanese_terrain_words_are_the_screens():
    for terrain in (*FLOOD_TERRAINS, "desert", "sea"):
        said = phrase_for_outcome(flood(FloodedHex((0, 0), "fields", 4, (terrain, None))), SEATS, "ja")
        assert said.caption == f"{TEXT[terrain]['ja']}の隣の4の畑が浸水しました。"


def test_every_land_the_tide_can_take_has_its_words():
    """Every land terrain with a number token (all but the desert) is named; nothing falls back to "the land"."""
    assert set(FLOOD_TERRAINS) == set(LAND_TERRAINS) - {"desert"}
    assert set(LANDMARK_TERRAINS) == set(LAND_TERRAINS) | {"sea"}


def test_an_outcome_without_the_names_still_says_the_land():
    """An outcome built without the names (not from the rules) keeps the old sentence, not silence."""
    bare = Outcome(index=1, kind="flood", flooded=(0, 0))
    assert [phrase_for_outcome(bare, SEATS, lang).caption for lang in ("en", "ja")] == [
        "The tide floods the land.", "土地が浸水しました。"]


# --- from the rules: every hex a roll floods, twins told apart -----------------------------------------------------
def _record(stem: str, *, hexes: dict | None = None, options: dict | None = None, events: list | None = None):
    """A scenario's record, with hexes changed (at -> (terrain, number)), options and events added."""
    data = copy.deepcopy(json.loads((SCENARIOS / f"{stem}.json").read_text())["record"])
    for tile in data["board"]["hexes"]:
        if tuple(tile["at"]) in (hexes or {}):
            tile["terrain"], tile["number"] = hexes[tuple(tile["at"])]
    data["options"].update(options or {})
    data["events"] += events or []
    return parse_record(data)


#: The flood-all scenario's board is a row of land: (0,0) 6 fields, (1,0) 5 forest, (2,0) 8 pasture, (3,0) 6 hills,
#: (4,0) 9 gold, (5,0) 3 mountains; its last event rolls a 6.
RULES_CASES = {
    # flood-all: both sixes go; the voice said the first only ("The tide floods the six fields.")
    "flood all, two lands": (
        dict(),
        ["tide_floods_the", "n6", "terrain_fields", "and", "the", "n6", "terrain_hills", "."],
        ["n6", "particle_no", "terrain_fields", "and", "n6", "particle_no", "terrain_hills", "ga_flooded", "。"],
        "The tide floods the six fields and the six hills.", "6の畑と6の丘陵が浸水しました。"),
    # flood-all, two 6 fields: each by the neighbour only it has (the lowest number first, as the screen)
    "flood all, twins": (
        dict(hexes={(3, 0): ("fields", 6)}),
        ["tide_floods_the", "n6", "terrain_fields", "next_to_the", "n5", "terrain_forest", "and", "the", "n6",
         "terrain_fields", "next_to_the", "n8", "terrain_pasture", "."],
        ["n5", "particle_no", "terrain_forest", "no_tonari_no", "n6", "particle_no", "terrain_fields", "and",
         "n8", "particle_no", "terrain_pasture", "no_tonari_no", "n6", "particle_no", "terrain_fields", "ga_flooded",
         "。"],
        "The tide floods the six fields next to the five forest and the six fields next to the eight pasture.",
        "5の森林の隣の6の畑と8の牧草地の隣の6の畑が浸水しました。"),
    # the roller chooses one of two 6 fields: the one chosen, told from its twin
    "a choice between twins": (
        dict(hexes={(3, 0): ("fields", 6)}, options={"flood_all": False}, events=[{"type": "flood", "at": [3, 0]}]),
        ["tide_floods_the", "n6", "terrain_fields", "next_to_the", "n8", "terrain_pasture", "."],
        ["n8", "particle_no", "terrain_pasture", "no_tonari_no", "n6", "particle_no", "terrain_fields",
         "ga_flooded", "。"],
        "The tide floods the six fields next to the eight pasture.", "8の牧草地の隣の6の畑が浸水しました。"),
}


def _flood_sentence(tokens, stop):
    """The sentence (clip keys to its full stop) that says the flood."""
    sentences, sentence = [], []
    for token in tokens:
        sentence.append(token)
        if token == stop:
            sentences.append(sentence)
            sentence = []
    return next(s for s in sentences if {"tide_floods_the", "ga_flooded"} & set(s))


@pytest.mark.parametrize("case", sorted(RULES_CASES))
def test_every_hex_the_tide_takes_is_said_and_twins_are_told_apart(case):
    """Replayed by the rules: the outcome of the flooding event -> the clip keys and captions of its flood."""
    changes, en_keys, ja_keys, english, japanese = RULES_CASES[case]
    record = _record("tide_variant_flood_all", **changes)
    last = replay(record).outcomes[-1]
    colors = [p["color"] for p in record.players]
    en, ja = (phrase_for_outcome(last, colors, lang) for lang in ("en", "ja"))
    assert _flood_sentence(list(en.tokens), ".") == en_keys
    assert _flood_sentence(list(ja.tokens), "。") == ja_keys
    assert english in en.caption and japanese in ja.caption


def _screen_words(caption: str) -> str:
    """The voice's English caption in the screen's words: digits for the number words, "gold" for "gold field"."""
    words = "zero one two three four five six seven eight nine ten eleven twelve".split()
    caption = re.sub(r"\b(" + "|".join(words) + r")\b", lambda m: str(words.index(m.group(1))), caption)
    return caption.replace("gold field", "gold")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("case", sorted(RULES_CASES))
def test_the_screen_says_what_the_voice_says(case, lang):
    """The play screen's High Tide line after the flood (tide_text, with the app's place words) names the same hexes
    in the same words as the voice's caption; for a choice, the hex chosen is named as the offer named it."""
    from companion.ui.refusals_text import places_for
    from companion.ui.tide_text import tide_text

    changes = RULES_CASES[case][0]
    record = _record("tide_variant_flood_all", **changes)
    game = replay(record)
    last = game.outcomes[-1]
    names = [p["name"] for p in record.players]
    name = names.__getitem__

    def places(board):
        return places_for(board, lang, name)

    screen = tide_text(game, last, lambda key, **v: tr(key, lang, **v), name, places(game.board), lang,
                       places(game.initial_board))
    line = next(x for x in screen.split("\n") if "浸水しました" in x or x.startswith("The tide floods"))
    said = phrase_for_outcome(last, [p["color"] for p in record.players], lang).caption
    sentence = re.search(r"The tide floods [^.]*\." if lang == "en" else r"[^。]*が浸水しました。", said).group(0)
    assert line == (_screen_words(sentence) if lang == "en" else sentence)
    if "events" in changes:  # the offer, on the board before the flood, named the chosen hex the same way
        offered = replay(_record("tide_variant_flood_all", **{**changes, "events": []}))
        chosen = places(offered.board).hex(tuple(changes["events"][0]["at"]))
        assert chosen in line and chosen in tide_text(offered, offered.outcomes[-1], lambda key, **v: tr(
            key, lang, **v), name, places(offered.board), lang), chosen


# --- every word has its clip --------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_flood_sentence_has_its_rendered_clips(lang):
    """Every clip key a flood can be said with (each terrain x each number token, one hex or several, each told
    apart by any neighbour) is in the manifest with its WAV on disk, 16 kHz mono, of a plausible length."""
    manifest = json.loads((VOICE_DIR / lang / "manifest.json").read_text(encoding="utf-8"))["clips"]
    numbers = (*range(2, 13), None)
    besides = [None, *((t, n) for t in (*LANDMARK_TERRAINS, "lake") for n in numbers)]
    keys = set()
    for terrain in (*LAND_TERRAINS, "lake"):
        for number in numbers:
            for beside in besides:
                one = FloodedHex((0, 0), terrain, number, beside)
                for outcome in (flood(one), flood(one, one), flood(one, one, one)):
                    keys.update(t for t in phrase_for_outcome(outcome, SEATS, lang).tokens if t not in PAUSES[lang])
    assert {"terrain_mountains", "terrain_gold", "terrain_desert", "terrain_sea"} <= keys
    assert ({"the", "next_to_the"} if lang == "en" else {"no_tonari_no"}) <= keys
    for key in sorted(keys):
        assert key in manifest, f"{lang}/{key}: no rendered clip; run tools/render_voice.py"
        with wave.open(str(VOICE_DIR / lang / manifest[key]["file"]), "rb") as clip:
            assert (clip.getnchannels(), clip.getframerate()) == (1, RATE)
            assert 0.1 < clip.getnframes() / RATE < 3.0


@pytest.mark.parametrize("lang, hexes, low, high", [
    ("en", 1, 1.5, 5.0), ("ja", 1, 1.5, 5.0), ("en", 2, 3.0, 8.0), ("ja", 2, 3.0, 8.0)])
def test_a_flood_sentence_renders_to_audio_of_a_plausible_length(lang, hexes, low, high):
    """The sentence as the app plays it: its clips back to back with the full-stop pause; two twins told apart
    take longer than one hex, and stay under eight seconds."""
    named = [FloodedHex((0, 0), "mountains", 5, ("hills", 8) if hexes > 1 else None),
             FloodedHex((1, 0), "mountains", 5, ("desert", None))][:hexes]
    phrase = phrase_for_outcome(flood(*named), SEATS, lang)
    audio = ClipLibrary(lang).render(phrase.tokens)
    assert low < len(audio) / RATE < high
