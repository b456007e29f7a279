"""One fold's held-out measurement of the camera dice reader (issue 29's protocol), start to end in one run.

Trains fold F's models as the committed ones were made, then scores the photos of fold F -- which neither
network saw -- with ``python -m vision evaluate ... --split held-out --fold F``, on the goals' subset
(``--max-dice 4 --min-die-px 24``) and on the whole fold, and prints one table per set.

    .venv/bin/python bench/heldout_fold.py --fold 0 ../shared/data/dice/*/

What runs (docs/vision.md, Training), as two lines of work on the two cores:
  core 1: the detector, 200 epochs;
  core 2: the fold's early detector (50 epochs: its false finds on the training photos are the classifier's
          hard negatives, as the committed classifier's came from the 50-epoch detector before it), then the
          classifier, 50 epochs, whose patches for the next epoch are drawn by a helper process while it
          trains (``--draw-ahead``: the same patches as drawn in turn).
Both use ``vision/training/train.py`` unchanged in what it learns (same epochs, same augmentation).  The one
difference from the committed ``faces.onnx``: that network's "not a standard die" class was added afterwards
(a ninth row on frozen features, then a last convolution of its own: ``novelty_head``, ``novelty_branch``);
the fold's classifier learns all nine classes together in its one run, as ``train.py`` does today.  The eight
pip classes, the detector and the hard negatives are made as the committed ones were.

Each network keeps a checkpoint after every epoch in ``--work``: the same command run again goes on where an
interrupted run stopped (a shared machine's quiet hours, one session after another) and trains the same networks.

``--smoke N`` checks the whole chain quickly: N photos of each set (symlinked into the work folder) and
``--epochs E`` for every network.  Models, logs and the figures (``figures.json``) stay in ``--work``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TORCH_PYTHON = "/work/venvs/torch/bin/python"
EARLY_DETECTOR_EPOCHS, DETECTOR_EPOCHS, CLASSIFIER_EPOCHS = 50, 200, 50
SUBSET = ("--max-dice", "4", "--min-die-px", "24")


def small_sets(folders: list[str], count: int, work: Path) -> list[str]:
    """``count`` photos spread over each set, symlinked into ``work/sets/<set>`` (a smoke run's sets)."""
    out = []
    for folder in folders:
        source = Path(folder).resolve()
        images = sorted(p for p in (source / "images").iterdir() if (source / "labels" / (p.stem + ".txt")).exists())
        step = max(1, len(images) // count)
        target = work / "sets" / source.name
        for part in ("images", "labels"):
            (target / part).mkdir(parents=True, exist_ok=True)
        for image in images[::step][:count]:
            for link, real in ((target / "images" / image.name, image),
                               (target / "labels" / (image.stem + ".txt"), source / "labels" / (image.stem + ".txt"))):
                if not link.exists():
                    link.symlink_to(real)
        out.append(str(target))
    return out


def training(torch_python: str, fold: int, sets: list[str], *args: str) -> list[str]:
    return [torch_python, "-m", "vision.training.train", "--fold", str(fold), *args, *sets]


def run_in_turn(commands: list[list[str]], log: Path, env: dict, nice: int) -> subprocess.Popen:
    """One process that runs ``commands`` one after the other (stopping at the first failure), output to ``log``."""
    script = " && ".join(" ".join(_quoted(part) for part in command) for command in commands)
    prefix = ["nice", "-n", str(nice)] if nice else []
    return subprocess.Popen([*prefix, "sh", "-c", script], cwd=REPO, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)


def _quoted(part: str) -> str:
    return "'" + part.replace("'", "'\\''") + "'"


def evaluate(models: Path, fold: int, sets: list[str], subset: bool) -> list[dict]:
    command = [sys.executable, "-m", "vision", "evaluate", *sets, "--split", "held-out", "--fold", str(fold),
               "--model", str(models), "--json", *(SUBSET if subset else ())]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"vision evaluate failed ({done.returncode}): {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def table(title: str, sets: list[str], rows: list[dict]) -> str:
    lines = [title, "| set | dice | dice right | photos fully right | missed | invented | ms per frame (median) |",
             "|---|---|---|---|---|---|---|"]
    for folder, row in zip(sets, rows):
        lines.append(f"| {Path(folder).name} | {row['dice']} | {row['die_accuracy']:.1%} | {row['image_accuracy']:.1%} "
                     f"| {row['missed']:.1%} | {row['invented']:.1%} | {row['ms_per_frame_median']:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="+", help="labelled folders (../shared/data/dice/*/)")
    parser.add_argument("--fold", type=int, default=0, choices=range(5))
    parser.add_argument("--work", type=Path, help="folder for models, logs and figures (default /tmp/heldout-fold-F)")
    parser.add_argument("--torch-python", default=TORCH_PYTHON, help="the training venv's python (torch 2.13.0 CPU)")
    parser.add_argument("--nice", type=int, default=0, help="run the training at this niceness (shared machine)")
    parser.add_argument("--smoke", type=int, metavar="N", help="only N photos of each set (a check of the chain)")
    parser.add_argument("--epochs", type=int, metavar="E", help="every network E epochs (a check of the chain)")
    parser.add_argument("--skip-training", action="store_true", help="score the models already in --work/models")
    args = parser.parse_args(argv)
    work = args.work or Path(f"/tmp/heldout-fold-{args.fold}")
    work.mkdir(parents=True, exist_ok=True)
    sets = small_sets(args.sets, args.smoke, work) if args.smoke else [str(Path(s).resolve()) for s in args.sets]
    early, detector, classifier = (args.epochs,) * 3 if args.epochs else (
        EARLY_DETECTOR_EPOCHS, DETECTOR_EPOCHS, CLASSIFIER_EPOCHS)
    models, early_dir = work / "models", work / "early"
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    started = time.time()
    if not args.skip_training:
        lines = {
            "detector": [training(args.torch_python, args.fold, sets, "--only", "detector",
                                  "--epochs-detector", str(detector), "--out", str(models),
                                  "--checkpoint", str(work / "detector.ckpt"))],
            "classifier": [training(args.torch_python, args.fold, sets, "--only", "detector",
                                    "--epochs-detector", str(early), "--out", str(early_dir),
                                    "--checkpoint", str(work / "early-detector.ckpt")),
                           training(args.torch_python, args.fold, sets, "--only", "classifier",
                                    "--epochs-classifier", str(classifier), "--draw-ahead",
                                    "--hard-negatives", str(early_dir / "detector.onnx"), "--out", str(models),
                                    "--checkpoint", str(work / "classifier.ckpt"))],
        }
        running = {name: run_in_turn(commands, work / f"{name}.log", env, args.nice) for name, commands in lines.items()}
        print(f"training fold {args.fold} (logs: {work}/detector.log, {work}/classifier.log)", flush=True)
        failed = []
        for name, process in running.items():
            status = process.wait()
            print(f"  {name} line done after {(time.time() - started) / 60:.1f} min (exit status {status})", flush=True)
            if status:
                failed.append(name)
        if failed:
            print(f"training failed: see {', '.join(str(work / f'{n}.log') for n in failed)}", file=sys.stderr)
            return 1
    trained = time.time()
    figures = {"fold": args.fold, "sets": [Path(s).name for s in sets], "training_minutes": (trained - started) / 60,
               "subset": evaluate(models, args.fold, sets, subset=True),
               "whole_fold": evaluate(models, args.fold, sets, subset=False)}
    figures["evaluate_minutes"] = (time.time() - trained) / 60
    (work / "figures.json").write_text(json.dumps(figures, indent=1))
    print(table(f"\nHeld-out fold {args.fold}, the goals' subset (<= 4 dice, each >= 24 px):", sets, figures["subset"]))
    print(table(f"\nHeld-out fold {args.fold}, every photo of the fold:", sets, figures["whole_fold"]))
    print(f"\ntraining {figures['training_minutes']:.1f} min, scoring {figures['evaluate_minutes']:.1f} min; "
          f"models in {models}, figures in {work / 'figures.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
