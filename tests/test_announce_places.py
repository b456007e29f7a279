"""The end of a game said as its places are (``Outcome.places``, session 18): players level share a place, in the
voice and the caption, English and Japanese. It said the ranking as a plain order, "Final order: red, blue and
white.", so two players level on points were heard as 2nd and 3rd. A game with nobody level still says its final
order as before.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from companion.announce import library, phrase_for_outcome
from companion.announce.clips import RATE, VOICE_DIR
from companion.record import parse_record, replay
from companion.rules.outcome import Outcome

SIX = ["red", "blue", "white", "orange", "green", "brown"]
SCENARIOS = Path(__file__).parent / "scenarios"

# (what ended, Outcome fields, English caption, Japanese caption) -- worked out by hand.
CASES = [
    ("two level below the winner", dict(kind="build", player=0, winner=0, ranking=(0, 1, 2), places=((0,), (1, 2))),
     "Red wins the game. Blue and white share second place.", "赤の勝ちです。青と白が同点で2位です。"),
    ("level for third of four, the second alone",
     dict(kind="end_turn", player=3, phase="ended", winner=3, ranking=(3, 0, 1, 2), places=((3,), (0,), (1, 2))),
     "The game is over. Orange wins the game. Red is second. Blue and white share third place.",
     "ゲーム終了です。オレンジの勝ちです。赤は2位です。青と白が同点で3位です。"),
    ("level for second, the fourth alone",
     dict(kind="build", player=2, winner=2, ranking=(2, 0, 3, 1), places=((2,), (0, 3), (1,))),
     "White wins the game. Red and orange share second place. Blue is fourth.",
     "白の勝ちです。赤とオレンジが同点で2位です。青は4位です。"),
    ("a shared win, the third alone",
     dict(kind="end_turn", player=1, winner=0, winners=(0, 2), ranking=(0, 2, 1), places=((0, 2), (1,))),
     "Red and white share the win. Blue is third.", "赤と白が同点で勝ちです。青は3位です。"),
    ("five level below the winner of six",
     dict(kind="end_turn", player=0, winner=0, ranking=(0, 1, 2, 3, 4, 5), places=((0,), (1, 2, 3, 4, 5))),
     "Red wins the game. Blue, white, orange, green and brown share second place.",
     "赤の勝ちです。青、白、オレンジ、緑と茶色が同点で2位です。"),
    ("the sixth alone", dict(kind="end_turn", player=0, winner=0, ranking=(0, 1, 2, 3, 4, 5),
                             places=((0,), (1, 2), (3, 4), (5,))),
     "Red wins the game. Blue and white share second place. Orange and green share fourth place. Brown is sixth.",
     "赤の勝ちです。青と白が同点で2位です。オレンジと緑が同点で4位です。茶色は6位です。"),
    ("ended by time: no winner, level for first",
     dict(kind="time_limit", ranking=(1, 0, 2), places=((1, 0), (2,))),
     "Blue and red share first place. White is third.", "青と赤が同点で1位です。白は3位です。"),
    ("ended by time: all level", dict(kind="time_limit", ranking=(0, 1, 2, 3), places=((0, 1, 2, 3),)),
     "Red, blue, white and orange share first place.", "赤、青、白とオレンジが同点で1位です。"),
    # nobody level: the final order, as it always was
    ("nobody level", dict(kind="build", player=0, winner=0, ranking=(0, 2, 1), places=((0,), (2,), (1,))),
     "Red wins the game. Final order: red, white and blue.", "赤の勝ちです。順位は赤、白、青。"),
    ("ended by time, nobody level", dict(kind="time_limit", ranking=(2, 0, 1), places=((2,), (0,), (1,))),
     "Final order: white, red and blue.", "順位は白、赤、青。"),
    ("an outcome without places (made by hand)", dict(kind="build", player=0, winner=0, ranking=(0, 1, 2)),
     "Red wins the game. Final order: red, blue and white.", "赤の勝ちです。順位は赤、青、白。"),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("fields, english, japanese", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_places_are_said_as_they_are(fields, english, japanese, lang):
    phrase = phrase_for_outcome(Outcome.make(index=9, **fields), SIX, lang)
    assert phrase.caption == {"en": english, "ja": japanese}[lang]
    library(lang).render(phrase.tokens)  # every word a recorded clip


@pytest.mark.parametrize("lang, caption", [
    ("en", "Aki wins the game. Ben and Chie share second place. Dan is fourth."),
    ("ja", "Akiの勝ちです。BenとChieが同点で2位です。Danは4位です。")])
def test_typed_names_in_the_caption_colours_in_the_voice(lang, caption):
    outcome = Outcome.make(index=3, kind="build", player=0, winner=0, ranking=(0, 1, 2, 3),
                           places=((0,), (1, 2), (3,)))
    phrase = phrase_for_outcome(outcome, SIX[:4], lang, names=["Aki", "Ben", "Chie", "Dan"])
    assert phrase.caption == caption
    assert phrase_for_outcome(outcome, SIX[:4], lang).tokens == phrase.tokens  # the voice's fallback: colours


def compositions(n: int):
    """Every way to cut ``n`` players, in order, into places (1+2+1, 3+1, ...)."""
    for cuts in itertools.product((False, True), repeat=n - 1):
        sizes, size = [], 1
        for cut in cuts:
            if cut:
                sizes.append(size)
                size = 1
            else:
                size += 1
        yield sizes + [size]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_way_a_table_can_end_level_is_said_from_rendered_clips(lang):
    """2 to 6 players, every cut into places, with a winner, a shared win or none (by time): each sentence is made
    of clips with a rendered WAV in the manifest, and says every player once."""
    manifest = json.loads((VOICE_DIR / lang / "manifest.json").read_text(encoding="utf-8"))["clips"]
    said = 0
    for n in range(2, 7):
        for sizes in compositions(n):
            seats = iter(range(n))
            places = tuple(tuple(next(seats) for _ in range(k)) for k in sizes)
            for end in ("won", "shared", "time"):
                if end == "won" and sizes[0] != 1 or end == "shared" and sizes[0] == 1:
                    continue
                fields = dict(kind="time_limit") if end == "time" else dict(kind="end_turn", player=0, winner=0)
                if end == "shared":
                    fields["winners"] = places[0]
                outcome = Outcome.make(index=1, ranking=tuple(range(n)), places=places, **fields)
                phrase = phrase_for_outcome(outcome, SIX[:n], lang)
                words = [t for t in phrase.tokens if t not in (".", ",", "。", "、")]
                assert all(t in manifest and (VOICE_DIR / lang / manifest[t]["file"]).exists() for t in words), \
                    (sizes, end, phrase.tokens)
                named = [t.seat for t in phrase.tokens if hasattr(t, "seat")]
                assert sorted(set(named)) == list(range(n)), (sizes, end, phrase.caption)
                said += 1
    assert said > 100


@pytest.mark.parametrize("name, english, japanese", [
    ("winner_and_ranking", "Red wins the game. Blue and white share second place.",
     "赤の勝ちです。青と白が同点で2位です。"),
    ("tide_four_player_end_and_tie_on_cards",
     "The game is over. Orange wins the game. Red is second. Blue and white share third place.",
     "ゲーム終了です。オレンジの勝ちです。赤は2位です。青と白が同点で3位です。"),
    ("star_win_at_the_end_of_the_turn", "Red wins the game. Blue and white share second place.",
     "赤の勝ちです。青と白が同点で2位です。"),
    ("win_only_on_own_turn", "Blue wins the game. Final order: blue, white and red.", "青の勝ちです。順位は青、白、赤。"),
])
def test_the_rules_places_are_said(name, english, japanese):
    """From the rules core: the scenario's last outcome, said in both languages (its end sentence)."""
    record = parse_record(json.loads((SCENARIOS / f"{name}.json").read_text())["record"])
    last = replay(record).outcomes[-1]
    colors = [p["color"] for p in record.players]
    assert phrase_for_outcome(last, colors, "en").caption.endswith(english)
    assert phrase_for_outcome(last, colors, "ja").caption.endswith(japanese)


@pytest.mark.parametrize("lang, sentence, least, most", [
    ("en", ["blue", "and", "white", "share_place_2", "."], 1.5, 3.5),
    ("en", ["orange", "is_place_4", "."], 0.8, 2.5),
    ("ja", ["blue", "and", "white_ga", "share_place_2", "。"], 1.5, 3.5),
    ("ja", ["orange_wa", "place_4", "。"], 0.8, 2.5)])
def test_a_place_sentence_lasts_as_such_a_sentence_does(lang, sentence, least, most):
    seconds = len(library(lang).render(sentence)) / RATE
    print(f"{lang} {sentence}: {seconds:.2f} s")
    assert least < seconds < most
