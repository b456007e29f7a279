"""Check the board's "Add the N sure ones" said in one short line (session 18): "Forty-eight pieces recorded. Four
not recorded." / 「48件を記録しました。4件は記録していません。」. One tap recorded dozens of pieces in silence
(its pieces' own phrases are dropped: "Recorded against the rules." 32 times, ~50 s), the caption alone saying it.
"""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from companion.announce import Announcer, RecordingPlayer, library
from companion.announce.clips import RATE, VOICE_DIR
from companion.announce.phrases import phrase_for_batch
from companion.rules.outcome import Outcome

# (recorded, not recorded, English, Japanese) -- worked out by hand
CASES = [
    (48, 4, "Forty-eight pieces recorded. Four not recorded.", "48件を記録しました。4件は記録していません。"),
    (52, 0, "Fifty-two pieces recorded.", "52件を記録しました。"),
    (1, 0, "One piece recorded.", "1件を記録しました。"),
    (2, 1, "Two pieces recorded. One not recorded.", "2件を記録しました。1件は記録していません。"),
    (16, 0, "Sixteen pieces recorded.", "16件を記録しました。"),
    (25, 0, "Twenty-five pieces recorded.", "25件を記録しました。"),
    (30, 11, "Thirty pieces recorded. Eleven not recorded.", "30件を記録しました。11件は記録していません。"),
    (31, 0, "Thirty-one pieces recorded.", "31件を記録しました。"),
    (60, 0, "Sixty pieces recorded.", "60件を記録しました。"),
    (99, 0, "Ninety-nine pieces recorded.", "99件を記録しました。"),
    (140, 2, "Over a hundred pieces recorded. Two not recorded.", "100件以上を記録しました。2件は記録していません。"),
]


@pytest.mark.parametrize("recorded, refused, english, japanese", CASES)
def test_the_batch_is_said_in_one_line(recorded, refused, english, japanese):
    assert phrase_for_batch(recorded, refused, "en").caption == english
    assert phrase_for_batch(recorded, refused, "ja").caption == japanese


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_count_is_said_from_rendered_clips(lang):
    """1-150 pieces recorded, 0-150 not: every word a clip with its rendered WAV in the manifest; the Japanese
    counter's sound changes are the engine's (6件 ろっけん, 10件 じゅっけん: one clip each, never glued digits)."""
    manifest = json.loads((VOICE_DIR / lang / "manifest.json").read_text(encoding="utf-8"))["clips"]
    for recorded in range(1, 151):
        for refused in (0, 1, 6, 10, 18, 47, 150):
            tokens = phrase_for_batch(recorded, refused, lang).tokens
            words = [t for t in tokens if t not in (".", "。")]
            assert all(t in manifest and (VOICE_DIR / lang / manifest[t]["file"]).exists() for t in words), tokens
    if lang == "ja":
        assert phrase_for_batch(16, 0, "ja").tokens[:2] == ("tens1", "ken6")  # 「10」 + 「6件」: じゅう ろっけん
        assert manifest["ken6"]["text"] == "6件" and manifest["tens1"]["text"] == "10"


@pytest.mark.parametrize("lang, least, most", [("en", 2.0, 4.5), ("ja", 2.5, 5.0)])
def test_the_line_is_short(lang, least, most):
    """"Forty-eight pieces recorded. Four not recorded." as rendered: a few seconds, where its pieces one by one
    took ~50 s."""
    seconds = len(library(lang).render(phrase_for_batch(48, 4, lang).tokens)) / RATE
    print(f"{lang}: {seconds:.2f} s")
    assert least < seconds < most


def test_bad_counts_are_refused():
    with pytest.raises(ValueError, match="0 recorded"):
        phrase_for_batch(0, 2, "en")
    with pytest.raises(ValueError, match="-1 not"):
        phrase_for_batch(3, -1, "ja")


def test_the_announcer_says_it_and_taking_the_batch_back_drops_it():
    gate = threading.Event()
    player = RecordingPlayer(gate)
    announcer = Announcer(["red", "blue", "white", "orange"], player=player)
    try:
        roll = announcer.on_outcome(Outcome(index=3, kind="roll", player=0, dice=(3, 5),
                                            payouts={0: {"wool": 2}}))
        assert player.playing.wait(2)
        batch = announcer.on_batch(48, 4, 4)  # its events from index 4 on
        assert (batch.source, batch.event_index, batch.status) == ("batch", 4, "queued")
        gate.set()
        assert announcer.wait_idle(10)
        assert [p.caption for p in player.played] == [roll.caption, "Forty-eight pieces recorded. Four not recorded."]
        assert np.array_equal(player.played[1].samples, library("en").render(batch.tokens))
        # taken back before it was said: not said
        gate.clear()
        announcer.on_outcome(Outcome(index=60, kind="roll", player=1, dice=(1, 1)))
        assert player.playing.wait(2)
        again = announcer.on_batch(48, 0, 61)
        announcer.forget_from(61)
        gate.set()
        assert announcer.wait_idle(10)
        assert again.status == "undone" and len(player.played) == 3
    finally:
        gate.set()
        announcer.close()


def test_muted_it_is_captioned_not_said():
    player = RecordingPlayer()
    announcer = Announcer(["red", "blue"], lang="ja", player=player, muted=True)
    captions = []
    announcer.add_caption_listener(lambda a: captions.append(a.caption))
    try:
        assert announcer.on_batch(3, 0, 0).status == "muted"
        assert announcer.wait_idle(5) and player.played == []
        assert captions == ["3件を記録しました。"]
    finally:
        announcer.close()
