"""A card bought and a trade made are said out loud, not only shown (issue 25, point 11): the phrases in English
and Japanese, every word of them a recorded clip, and what reaches the sound card through ALSA's file plugin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.announce import library, phrase_for_outcome
from companion.announce.vocabulary import CLIPS, MAX_COUNT
from companion.record import parse_record, replay
from companion.rules.outcome import Outcome
from test_announce_alsa import alsa_home, find_in_order, read_capture

ROOT = Path(__file__).resolve().parents[1]
SEATS = ["red", "blue", "white", "orange"]
BASE = ("lumber", "brick", "wool", "grain", "ore")

# (what happened, the record's event, English caption, Japanese caption) — worked out by hand.
CASES = [
    ("a card bought", {"type": "buy_development", "player": 1},
     "Blue buys a development card.", "青は発展カードを買いました。"),
    ("a 4:1 with the bank", {"type": "trade", "player": 0, "with": "bank", "give": {"wool": 4}, "get": {"ore": 1}},
     "Red trades four wool to the bank for one ore.", "赤は銀行と羊毛4枚を鉄1枚に交換しました。"),
    ("two for two with a player",
     {"type": "trade", "player": 2, "with": 3, "give": {"grain": 1, "brick": 1}, "get": {"lumber": 2}},
     "White trades one grain and one brick to orange for two lumber.",
     "白はオレンジと小麦1枚とレンガ1枚を木材2枚に交換しました。"),
]


@pytest.mark.parametrize("what, event, english, japanese", CASES, ids=[c[0] for c in CASES])
def test_a_card_bought_and_a_trade_made_are_said(what, event, english, japanese):
    outcome = Outcome(index=20, kind=event["type"], player=event["player"], next="main", next_player=event["player"])
    said = [phrase_for_outcome(outcome, SEATS, lang, event=event) for lang in ("en", "ja")]
    assert [p and p.caption for p in said] == [english, japanese]
    for p in said:
        assert set(p.tokens) <= set(CLIPS[p.lang]) | {".", ",", "。", "、"}  # every word a recorded clip


def test_a_trade_said_without_its_event_is_still_said():
    """An outcome alone (no record at hand) does not carry the cards: the table still hears who traded."""
    outcome = Outcome(index=4, kind="trade", player=3)
    assert [phrase_for_outcome(outcome, SEATS, lang).caption for lang in ("en", "ja")] == \
        ["Orange trades.", "オレンジは交易しました。"]


def test_typed_names_take_the_colours_place_in_the_caption():
    event = {"type": "trade", "player": 0, "with": 1, "give": {"ore": 1}, "get": {"wool": 1}}
    phrase = phrase_for_outcome(Outcome(index=9, kind="trade", player=0), SEATS, "en",
                                names=["Aki", "Ben", None, None], event=event)
    assert phrase.caption == "Aki trades one ore to Ben for one wool."


@settings(max_examples=60, deadline=None)
@given(give=st.dictionaries(st.sampled_from(BASE), st.integers(1, MAX_COUNT), min_size=1, max_size=5),
       get=st.dictionaries(st.sampled_from(BASE), st.integers(1, MAX_COUNT), min_size=1, max_size=5),
       player=st.integers(0, 3), partner=st.one_of(st.just("bank"), st.integers(0, 3)),
       lang=st.sampled_from(["en", "ja"]))
def test_every_trade_is_said_from_recorded_clips_with_each_card(give, get, player, partner, lang):
    event = {"type": "trade", "player": player, "with": partner, "give": give, "get": get}
    phrase = phrase_for_outcome(Outcome(index=5, kind="trade", player=player), SEATS, lang, event=event)
    words = CLIPS[lang]
    for resource, n in [*give.items(), *get.items()]:
        assert words[resource][1] in phrase.caption
    assert phrase.tokens.count(phrase.tokens[-1]) == 1  # one sentence: the short "Red trades." was replaced
    assert len(library(lang).render(phrase.tokens)) > 0  # every token has its sound


# Runs in a child whose HOME routes ALSA's default device into a file: announce the scenario's events at
# ``indices`` the way the app does (the outcome with its record event), each to the end.
CHILD = r"""
import json, sys
from companion.announce import Announcer
from companion.record import parse_record, replay

spec = json.loads(sys.argv[1])
record = parse_record(json.loads(open(spec["scenario"]).read())["record"])
game = replay(record)
announcer = Announcer([p["color"] for p in record.players], lang=spec["lang"], player="sounddevice")
said = [announcer.on_outcome(game.outcomes[i], event=record.events[i]) for i in spec["indices"]]
ok = announcer.wait_idle(30)
announcer.close()
print(json.dumps({"idle": ok, "captions": [a.caption for a in said], "statuses": [a.status for a in said]}))
"""


@pytest.mark.parametrize("scenario, indices, lang", [
    ("development_cards", [14, 15], "en"),
    ("maritime_and_domestic_trades", [14, 16], "en"),
    ("maritime_and_domestic_trades", [14, 16], "ja"),
    ("development_cards", [14], "ja"),
])
def test_what_reaches_the_sound_card_says_the_card_and_the_trade(tmp_path, scenario, indices, lang):
    path = ROOT / "tests" / "scenarios" / f"{scenario}.json"
    out = tmp_path / "captured.wav"
    home = alsa_home(tmp_path, f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{out}"\n format "wav"\n}}\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALSA")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT))
    spec = {"scenario": str(path), "lang": lang, "indices": indices}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], env=env, cwd=home,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["idle"] and report["statuses"] == ["played"] * len(indices)

    record = parse_record(json.loads(path.read_text())["record"])
    game = replay(record)
    colors = [p["color"] for p in record.players]
    phrases = [phrase_for_outcome(game.outcomes[i], colors, lang, event=record.events[i]) for i in indices]
    assert report["captions"] == [p.caption for p in phrases]
    new_words = {"buys_a_development_card", "trades", "bought_a_development_card", "exchanged_for"}
    assert all(new_words & set(p.tokens) for p in phrases), [p.tokens for p in phrases]
    find_in_order(read_capture(out), [library(lang).render(p.tokens) for p in phrases])
    # and the new clips' own sound is in what was played, not silence in their place
    clip = library(lang).render((sorted(new_words & set(phrases[0].tokens))[0],))
    assert np.abs(clip).max() > 10_000
