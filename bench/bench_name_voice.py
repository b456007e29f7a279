"""Benchmark of players' recorded names (issue 25, item 12): the work between "stop" and a name ready to say,
and what a recorded name adds to rendering a phrase.

    .venv/bin/python bench/bench_name_voice.py [--repeat 7]

Timed, in this process, each the median of ``--repeat`` runs of many calls:
- ``trim_and_level`` of a 5 s recording (the longest one the set-up takes) holding a word in room noise: the
  work done after the microphone closes, before the button says "Name recorded";
- ``trim_and_level`` of the same recording at 44.1 kHz (a microphone that will not open at 16 kHz: resampled);
- rendering the samples of an English and a Japanese payout phrase with and without a recorded name (the
  announcer's worker does this between a roll and its first sample);
- keeping a name (``NameVoices.save``: WAV written, fsync'd, renamed) and loading a game's three names.

Also reported, not timed: the clip's length against the word's (what the trimming kept) and its peak.
Timings are for reading, never pass/fail: the machine is shared and noisy.  Prints a Markdown table for
docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.announce import library, phrase_for_outcome  # noqa: E402
from companion.announce.clips import RATE  # noqa: E402
from companion.announce.microphone import trim_and_level  # noqa: E402
from companion.announce.name_voices import NameVoices, game_key, render_phrase  # noqa: E402
from companion.rules.outcome import Outcome  # noqa: E402


def timed(call, repeat: int, inner: int) -> float:
    """Median over ``repeat`` runs of the mean time of ``inner`` calls, in milliseconds."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            call()
        runs.append((time.perf_counter() - start) / inner * 1000)
    return statistics.median(runs)


def recording(rate: int = RATE) -> tuple[np.ndarray, np.ndarray]:
    """5 s at ``rate``: room noise, a word (a recorded Japanese clip) at 10 % of full scale after 0.8 s."""
    word = library("ja").samples("kaido").astype(np.float64)
    rng = np.random.default_rng(1)
    said = np.concatenate([rng.normal(0, 30, int(0.8 * RATE)), word / np.max(np.abs(word)) * 3277,
                           rng.normal(0, 30, 5 * RATE - int(0.8 * RATE) - len(word))])
    if rate != RATE:
        said = np.interp(np.arange(len(said) * rate // RATE) * RATE / rate, np.arange(len(said)), said)
    return np.clip(said, -32768, 32767).astype(np.int16), word


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    rows = []
    at_16k, word = recording()
    at_44k, _ = recording(44100)
    clip = trim_and_level(at_16k)
    rows.append(("trim and level a 5 s recording (16 kHz)", timed(lambda: trim_and_level(at_16k), args.repeat, 20)))
    rows.append(("trim and level a 5 s recording (44.1 kHz, resampled)",
                 timed(lambda: trim_and_level(at_44k, 44100), args.repeat, 10)))
    outcome = Outcome(5, "roll", 0, (3, 5), payouts={0: {"wool": 2}, 1: {"ore": 1}})
    for lang in ("en", "ja"):
        clips = library(lang)
        tokens = phrase_for_outcome(outcome, ["red", "blue", "white"], lang).tokens
        rows.append((f"render a payout phrase ({lang}), colours", timed(lambda: render_phrase(clips, tokens, {}),
                                                                       args.repeat, 500)))
        rows.append((f"render a payout phrase ({lang}), a recorded name",
                     timed(lambda: render_phrase(clips, tokens, {0: clip}), args.repeat, 500)))
    with tempfile.TemporaryDirectory() as folder:
        store, key = NameVoices(folder), game_key(1, 1.0)
        rows.append(("keep a name (write, fsync, rename)", timed(lambda: store.save(key, 0, clip), args.repeat, 20)))
        for seat in (1, 2):
            store.save(key, seat, clip)
        rows.append(("load a game's three names", timed(lambda: store.load(key), args.repeat, 50)))
    print(f"| step | median ms ({args.repeat} runs) |\n| --- | ---: |")
    for what, ms in rows:
        print(f"| {what} | {ms:.3f} |")
    print(f"\nword {len(word) / RATE:.3f} s, clip kept {len(clip) / RATE:.3f} s (50 ms before, 100 ms after, 40 ms air), "
          f"peak {int(np.max(np.abs(clip)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
