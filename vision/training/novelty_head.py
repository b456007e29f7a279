"""Add the "not a standard die" class to an 8-class face classifier without moving any of its readings.

    PYTHONPATH=. /work/torchenv/bin/python -m vision.training.novelty_head FACES_ONNX OUT_DIR SET_DIR... [--epochs 2]

Every convolution and the eight rows of the last layer stay as they are; only a ninth row is fitted (cross-
entropy over all nine classes, the others fixed) on the network's features of the classifier's own training mix
(:func:`vision.training.train.classifier_samples`: real dice, "not a die" patches, crooked and drawn dice, and
:data:`~vision.training.train.NOVELTY_PER_IMAGE` drawn novelty dice per photo).  The reader reads faces from the
first eight classes among themselves, so a pip die reads exactly as before unless the ninth row claims it
(``vision.reader.NOT_STANDARD_SHARE``).  Minutes, not hours: the features are computed once (no backward pass
through the network).  The committed ``faces.onnx`` was made so from the 8-class one of commit 0ac3483.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import cv2
import torch
import torch.nn.functional as F

from vision.preprocess import PATCH_SIZE
from vision.training.train import NOT_STANDARD, classifier_from_onnx, classifier_samples, export, load_sets

#: Steps of Adam over the cached features (the loss has flattened by then).
STEPS = 600


def fit_novelty_row(features: torch.Tensor, labels: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor):
    """The ninth row (weight over the features, bias) that best adds "not a standard die" to the fixed
    eight rows ``weight`` / ``bias``."""
    row_w = torch.zeros(features.shape[1], requires_grad=True)
    row_b = torch.tensor(-2.0, requires_grad=True)
    optimiser = torch.optim.Adam([row_w, row_b], lr=0.01)
    fixed = features @ weight.T + bias
    for step in range(STEPS):
        logits = torch.cat([fixed, (features @ row_w + row_b)[:, None]], 1)
        loss = F.cross_entropy(logits, labels)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % 100 == 0 or step == STEPS - 1:
            with torch.no_grad():
                p = logits.softmax(1)
                share = p[:, NOT_STANDARD] / (1 - p[:, 0])
                novel, dice = labels == NOT_STANDARD, (labels >= 1) & (labels <= 6)
                print(f"step {step} loss {loss.item():.4f}; share > 0.5: novelty {(share[novel] > 0.5).float().mean():.3f}, "
                      f"dice {(share[dice] > 0.5).float().mean():.4f}", flush=True)
    return row_w.detach(), row_b.detach()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("faces", type=Path, help="the 8-class faces.onnx")
    parser.add_argument("out", type=Path, help="folder for the 9-class faces.onnx")
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--epochs", type=int, default=2, help="epochs of the training mix to fit on")
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # the machine is shared
    cv2.setNumThreads(1)
    samples = load_sets(args.sets, None)
    model = classifier_from_onnx(args.faces).eval()
    rng = random.Random(args.seed)
    features, labels = [], []
    for epoch in range(args.epochs):
        started = time.time()
        x, y = classifier_samples(samples, rng)
        with torch.no_grad():
            features += [model.features(x[i:i + 512]).flatten(1) for i in range(0, len(y), 512)]
        labels.append(y)
        print(f"features of epoch {epoch + 1}: {len(y)} patches, {int((y == NOT_STANDARD).sum())} novelty dice "
              f"({time.time() - started:.0f} s)", flush=True)
    weight = model.classify.weight.detach().flatten(1)[:NOT_STANDARD]
    bias = model.classify.bias.detach()[:NOT_STANDARD]
    row_w, row_b = fit_novelty_row(torch.cat(features), torch.cat(labels), weight, bias)
    with torch.no_grad():
        model.classify.weight[NOT_STANDARD] = row_w.reshape(-1, 1, 1)
        model.classify.bias[NOT_STANDARD] = row_b
    export(model, (1, 3, PATCH_SIZE, PATCH_SIZE), args.out / "faces.onnx")


if __name__ == "__main__":
    main()
