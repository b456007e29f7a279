"""How the dice reader takes dice that are not standard pip dice (issue 29): numerals, symbols, a blank face.

    .venv/bin/python bench/bench_novelty_dice.py [--photos 30] [--seed 3] [--model DIR] [--data ../shared/data/dice]

The labelled sets hold no novelty die with a label saying so, so they are drawn (:mod:`vision.novelty_scenes`: a
die of the photo's dice size showing a numeral 1-6, a star, a ship or a gate, or nothing, laid on an empty part of
a real tray photo, nell-byler). For each kind, how the reader reports the drawn die: as a pip face (a guess:
wrong), as "not a standard die" (right), as unsure (a re-roll), or not at all; and the confidence of the faces it
reads, beside that of the photo's real dice. Not pass/fail: figures for docs/vision.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import dataset  # noqa: E402
from vision.novelty_scenes import KINDS, novelty_photo  # noqa: E402
from vision.reader import DiceReader  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
OUTCOMES = ("face", "not standard", "unsure", "none")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=30, help="novelty dice drawn per kind")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--model", help="folder with detector.onnx and faces.onnx (default: the bundled models)")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    reader, rng = DiceReader(args.model), random.Random(args.seed)
    photos = dataset.list_images(args.data / "nell-byler-dice_detection")
    print("| novelty die | drawn | read as a pip face | not a standard die | unsure (re-roll) | not seen "
          "| confidence of the faces read (median) |")
    print("|---|---|---|---|---|---|---|")
    real_confidences, real_rejected = [], 0
    for kind in KINDS:
        outcomes, confidences = [], []
        while len(outcomes) < args.photos:
            scene = novelty_photo(rng.choice(photos), kind, rng)
            if scene is None:
                continue
            image, _labelled, spot, side = scene
            found = None
            for die in reader.read_all(image):
                if abs(die.centre[0] - spot[0]) < 0.6 * side and abs(die.centre[1] - spot[1]) < 0.6 * side:
                    found = die
                elif die.face is not None:
                    real_confidences.append(die.confidence)
                elif not die.standard:
                    real_rejected += 1
            outcomes.append("none" if found is None else "not standard" if not found.standard
                            else "unsure" if found.face is None else "face")
            if found is not None and found.face is not None:
                confidences.append(found.confidence)
        n = len(outcomes)
        shares = [f"{outcomes.count(k)} ({outcomes.count(k) / n:.0%})" for k in OUTCOMES]
        median = f"{statistics.median(confidences):.2f}" if confidences else "-"
        print(f"| {kind} | {n} | {' | '.join(shares)} | {median} |")
    print(f"\nthe photos' own dice read with a face: {len(real_confidences)}, confidence median "
          f"{statistics.median(real_confidences):.2f}; under 0.3: {sum(c < 0.3 for c in real_confidences)}, "
          f"under 0.4: {sum(c < 0.4 for c in real_confidences)}; elsewhere called not a standard die: {real_rejected}")


if __name__ == "__main__":
    main()
