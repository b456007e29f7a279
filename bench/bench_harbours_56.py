"""The harbours of a 5-6 board's frame read on SYNTHETIC boards (issue 30; docs/board-reader.md, "The harbours of a
5-6 board"): there is no photo of a real 5-6 board or frame, so each board is laid from the real tiles, tokens and
ships of one labelled CatanAI photo (vision/board/synthetic_boards.py: laid_board with ``harbours``).

    .venv/bin/python bench/bench_harbours_56.py [--seeds N] [--first-seed S] [--kind "1000 px"|"12 MP laid"]
    .venv/bin/python bench/bench_harbours_56.py --prototypes [--shrink F]
    .venv/bin/python bench/bench_harbours_56.py --time [--repeats R]

For each of the 8 labelled CatanAI photos (tests/data/boards/catanai) and each seed: the rules core's standard
5-6 board of that seed (its 30 land hexes and its eleven harbours: five 3:1, two wool, one of each other
resource, spaced round the coast), each harbour a real ship of its trade cut from the photo's frame (a disc about
its sea hex's middle: the ship, its sail's picture, its piers) turned to the coast edge it serves; a trade the
photo has no ship with a labelled edge for is lent by the next photo.  No robber.  The picture: 1000 x 750 (or
the "12 MP laid" kind: laid from the full-size original at 160 px a unit, seen at 4000 x 3000), read as the
command reads it (board56.read_56_file), scored up to the 180-degree turn: each harbour found at its sea hex,
invented (a ship read where none was laid), its coast edge, its trade, asked (ringed in the app: its trade or
edge unsure) and wrong but not asked.  Seeds 0-2 are the dev boards (looked at); 6-8 the held-out ones (read
once, at the end of session 14).  The time is the whole reading's (the harbours are ~50 ms of it).

``--prototypes``: the trades' colour prototypes as the 5-6 reader sees a ship (harbours.PROTOTYPES_56), measured
on the REAL labelled photos, not on synthetic boards: each photo shrunk by F (default 0.65: a 5-6 board with its
frame in a picture has hexes ~0.65 of a 3-4 board's in the same picture -- lattice spacing 81-90 px against
123-158 px at the readers' 1000 px) onto a canvas of its own size in its border's colour, read by the 3-4 reader,
and each labelled harbour's sail colours taken; the median per trade.

``--time``: what reading the harbours costs, in process, one thread (OpenCV and numpy's BLAS): read_harbours alone,
R times (default 15) on each of 3 SYNTHETIC 5-6 pictures (test4_1, test5_1, testimg3, seed 0, 1000 x 750, their
lattice read once) and on the same 3 real 3-4 photos (1024 px copies); the median and range per picture.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import os  # noqa: E402

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.board.board56 import mirrored, read_56_file  # noqa: E402
from vision.board.labels import load_labels  # noqa: E402
from vision.board.lattice import Lattice  # noqa: E402
from vision.board.reader import NoBoardError, read_board  # noqa: E402
from vision.board.synthetic_boards import (harbours_56, label_harbours, label_robber, label_truth,  # noqa: E402
                                           laid_board, layout_56, photo_of, ship_cutouts)

FULL_UNIT = 160.0
ORIGINALS = ROOT.parent / "shared" / "data" / "boards" / "catanai" / "photos"


def _full(image: Path, reading):
    found = list(ORIGINALS.glob(image.stem + ".*")) if ORIGINALS.is_dir() else []
    if not found:
        return None
    full = cv2.imread(str(found[0]))
    k = max(full.shape[:2]) / 1000.0
    grown = Lattice(np.diag([k, k, 1.0]) @ reading.lattice.homography, reading.lattice.matched,
                    reading.lattice.spacing * k)
    return full, type(reading)(**{**reading.__dict__, "lattice": grown})


def prototypes(shrink: float) -> None:
    from collections import defaultdict

    from vision.board import harbours as hb
    from vision.board.labels import rotate

    folder = ROOT / "tests/data/boards/catanai"
    by_trade = defaultdict(list)
    for image, record in load_labels(folder):
        photo = cv2.imread(str(image))
        h, w = photo.shape[:2]
        border = np.median(np.concatenate([photo[0], photo[-1], photo[:, 0], photo[:, -1]]), axis=0)
        canvas = np.empty_like(photo)
        canvas[:] = border
        small = cv2.resize(photo, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        y0, x0 = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
        canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
        try:
            reading = read_board(canvas)
        except NoBoardError as error:
            print(f"{image.name} shrunk {shrink}: refused: {error}")
            continue
        labels = {tuple(x["at"]): x["terrain"] for x in record["board"]["hexes"]}
        turns = max(range(6), key=lambda k: sum(labels.get(rotate(x, k)) == t for x, t in reading.terrains.items()))
        found = {rotate(x.sea, turns): x for x in reading.harbours}
        for x in record["board"]["harbors"]:
            if tuple(x["sea"]) in found:
                by_trade[x["trade"]].append(found[tuple(x["sea"])].colours)
        print(f"{image.name} shrunk {shrink}: spacing {reading.lattice.spacing:.0f} px, {len(found)} ships, "
              f"{sum(tuple(x['sea']) in found for x in record['board']['harbors'])} labelled found", flush=True)
    for t in hb.TRADES:
        print(f'    "{t}": ({", ".join(f"{v:.3f}" for v in np.median(by_trade[t], axis=0))}),  # {len(by_trade[t])}')


def timing(repeats: int) -> None:
    import time

    from vision.board import harbours as hb
    from vision.board.board56 import LAND_56, read_56

    cv2.setNumThreads(1)
    folder = ROOT / "tests/data/boards/catanai"
    for image, _record in load_labels(folder):
        if image.stem not in ("test4_1", "test5_1", "testimg3"):
            continue
        photo = cv2.imread(str(image))
        reading = read_board(photo)
        work = cv2.resize(photo, None, fx=reading.scale, fy=reading.scale, interpolation=cv2.INTER_AREA)
        label = json.loads((folder / "labels" / f"{image.stem}.json").read_text())["board"]
        rng = np.random.default_rng(0)
        board = laid_board(work, reading, layout_56(0), rng, label_truth(reading, label),
                           source_robber=label_robber(reading, label),
                           harbours=(harbours_56(0), ship_cutouts(work, reading, label_harbours(reading, label))))
        picture = photo_of(board, rng, fill=(0.95, 1.0))
        read = read_56(picture)
        for what, args, kwargs in (
                ("5-6 SYNTHETIC", (picture, read.lattice.homography, hb.PROTOTYPES_56),
                 {"land": LAND_56, "harbour_set": hb.HARBOUR_SET_56}),
                ("3-4 real", (work, reading.lattice.homography), {})):
            ms = []
            for _ in range(repeats):
                start = time.perf_counter()
                hb.read_harbours(*args, **kwargs)
                ms.append((time.perf_counter() - start) * 1000)
            print(f"{image.stem} {what}: read_harbours median {np.median(ms):.1f} ms (range {min(ms):.1f}-"
                  f"{max(ms):.1f}), {repeats} runs; load {os.getloadavg()[0]:.1f}", flush=True)


def main() -> int:
    if "--time" in sys.argv:
        timing(int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 15)
        return 0
    if "--prototypes" in sys.argv:
        prototypes(float(sys.argv[sys.argv.index("--shrink") + 1]) if "--shrink" in sys.argv else 0.65)
        return 0
    seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else 3
    first = int(sys.argv[sys.argv.index("--first-seed") + 1]) if "--first-seed" in sys.argv else 0
    kinds = ("1000 px", "12 MP laid")
    if "--kind" in sys.argv:
        kinds = (sys.argv[sys.argv.index("--kind") + 1],)
    folder = ROOT / "tests/data/boards/catanai"
    photos = []
    for image, _record in load_labels(folder):
        original = cv2.imread(str(image))
        reading = read_board(original)
        work = cv2.resize(original, None, fx=reading.scale, fy=reading.scale, interpolation=cv2.INTER_AREA)
        label = json.loads((folder / "labels" / f"{image.stem}.json").read_text())["board"]
        harbours = label_harbours(reading, label)
        full = _full(image, reading) if "12 MP laid" in kinds else None
        photos.append((image, reading, work, label_truth(reading, label), label_robber(reading, label),
                       ship_cutouts(work, reading, harbours),
                       ship_cutouts(*full, harbours, unit=FULL_UNIT) if full is not None else None, full))
    tally = {k: dict(boards=0, read=0, labelled=0, found=0, invented=0, edge=0, trade=0, asked=0, wrong_unasked=0,
                     all_right=0, ms=[]) for k in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (image, reading, work, truth, source_robber, ships, ships_full, full) in enumerate(photos):
            lent, lent_full = dict(ships), dict(ships_full or {})
            for other in photos[i + 1:] + photos[:i]:  # a trade this photo has no ship for: the next photo's
                for t, v in other[5].items():
                    lent.setdefault(t, v)
                for t, v in (other[6] or {}).items():
                    lent_full.setdefault(t, v)
            for seed in range(first, first + seeds):
                layout, harbours = layout_56(seed), harbours_56(seed)
                files = {}
                rng = np.random.default_rng(seed)
                board = laid_board(work, reading, layout, rng, truth, source_robber=source_robber,
                                   harbours=(harbours, lent))
                files["1000 px"] = Path(tmp) / f"{image.stem}-{seed}.jpg"
                cv2.imwrite(str(files["1000 px"]), photo_of(board, rng, fill=(0.95, 1.0)))
                if "12 MP laid" in kinds and full is not None:
                    rng = np.random.default_rng(seed)
                    board = laid_board(*full, layout, rng, truth, unit=FULL_UNIT, source_robber=source_robber,
                                       harbours=(harbours, lent_full))
                    files["12 MP laid"] = Path(tmp) / f"{image.stem}-{seed}-laid.jpg"
                    cv2.imwrite(str(files["12 MP laid"]), photo_of(board, rng, (3000, 4000), fill=(0.95, 1.0)),
                                [cv2.IMWRITE_JPEG_QUALITY, 90])
                for kind in (k for k in kinds if k in files):
                    t = tally[kind]
                    t["boards"] += 1
                    t["labelled"] += len(harbours)
                    try:
                        read = read_56_file(files[kind])
                    except NoBoardError as error:
                        print(f"{image.name} seed {seed} {kind}: refused: {error}", flush=True)
                        continue
                    t["read"] += 1
                    t["ms"].append(read.ms)
                    turn = max((lambda h: h, mirrored), key=lambda f: sum(read.terrains[f(h)] == v[0]
                                                                         for h, v in layout.items()))
                    want = {turn(s): (turn(land), trade) for s, (land, trade) in harbours.items()}
                    got = {h.sea: h for h in read.harbours}
                    found = [s for s in got if s in want]
                    edge = [s for s in found if got[s].land == want[s][0]]
                    trade = [s for s in found if got[s].trade == want[s][1]]
                    asked = [s for s in got if not (got[s].sure and got[s].edge_sure)]
                    wrong = [s for s in got if s not in want or got[s].land != want[s][0] or got[s].trade != want[s][1]]
                    unasked = [s for s in wrong if s not in asked]
                    for k, v in (("found", len(found)), ("invented", len(got) - len(found)), ("edge", len(edge)),
                                 ("trade", len(trade)), ("asked", len(asked)), ("wrong_unasked", len(unasked)),
                                 ("all_right", len(found) == len(want) == len(edge) == len(trade) == len(got))):
                        t[k] += v
                    print(f"{image.name} seed {seed} {kind}: found {len(found)}/{len(want)} (invented "
                          f"{len(got) - len(found)}), edge {len(edge)}, trade {len(trade)}, asked {len(asked)}, "
                          f"wrong and not asked {len(unasked)}; {read.ms:.0f} ms", flush=True)
                    for s in unasked:
                        print(f"    wrong and not asked: {s} read {got[s].land} {got[s].trade}, laid "
                              f"{want.get(s)}", flush=True)
    for kind, t in tally.items():
        if not t["boards"]:
            continue
        print(f"SYNTHETIC 5-6 boards with their frame's 11 harbours, {kind}, seeds {first}-{first + seeds - 1}: read "
              f"{t['read']}/{t['boards']}; harbours found {t['found']}/{t['labelled']} (invented {t['invented']}), "
              f"edge right {t['edge']}, trade right {t['trade']}, asked {t['asked']}, wrong and not asked "
              f"{t['wrong_unasked']}; boards with every harbour right {t['all_right']}/{t['read']}; reading median "
              f"{np.median(t['ms']) if t['ms'] else float('nan'):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
