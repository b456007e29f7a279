"""The harbour reader on photos of layouts it never saw (issue 30; docs/board-reader.md, vision/board/harbours.py).

    .venv/bin/python bench/bench_harbours_held_out.py [ROOT] [--features] [--prototypes]

ROOT (default ../shared/data/boards) holds the full-resolution CatanAI originals the labels in
tests/data/boards/catanai name.  Each photo is read as the reader reads it (lattice from its tokens), its
harbours found on the sea ring, and scored against the labels' ``harbors``: a ship found at a labelled sea
hex, none invented, the coast edge its piers reach (where the label has it), and its trade.  The trades are
told apart by colour prototypes; here they are rebuilt from the other layouts' photos for each layout in turn
(three layouts: test4/test5 are one), so no photo is read with its own board's colours.  ``--features``
prints each labelled harbour's colour shares, ``--prototypes`` the medians over all photos (the reader's
bundled PROTOTYPES).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from vision.board import harbours as hb  # noqa: E402
from vision.board.labels import board_key, load_labels, rotate  # noqa: E402
from vision.board.reader import read_board_file  # noqa: E402


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    root = Path(args[0]) if args else ROOT.parent / "shared" / "data" / "boards"
    photos = []
    for image, record in load_labels(ROOT / "tests" / "data" / "boards" / "catanai"):
        original = next((root / record["original"]).parent.glob(Path(record["original"]).stem + ".*"))
        labels = {tuple(h["at"]): h["terrain"] for h in record["board"]["hexes"]}
        reading = read_board_file(original)
        turns = max(range(6), key=lambda k: sum(labels[rotate(h, k)] == t for h, t in reading.terrains.items()))
        # as the reader finds them; their colours, not its trades (told by prototypes from every layout), count
        found = {rotate(h.sea, turns): h for h in reading.harbours}
        truth = {tuple(h["sea"]): h for h in record["board"]["harbors"]}
        photos.append((board_key(record), original.name, found, truth, turns, None))
    if "--features" in sys.argv:
        print("trade", *hb.FEATURES)
        for _k, name, found, truth, _t, _v in photos:
            for sea, h in sorted(truth.items()):
                if sea in found:
                    print(name, sea, h["trade"], np.round(found[sea].colours, 3))
    if "--prototypes" in sys.argv:  # the medians over every labelled photo: vision/board/harbours.py's PROTOTYPES
        by_trade = defaultdict(list)
        for _k, _n, found, truth, _t, _v in photos:
            for sea, h in truth.items():
                if sea in found:
                    by_trade[h["trade"]].append(found[sea].colours)
        for t in hb.TRADES:
            print(f'    "{t}": ({", ".join(f"{x:.3f}" for x in np.median(by_trade[t], axis=0))}),')
    totals = defaultdict(int)
    for held in sorted({p[0] for p in photos}):
        by_trade = defaultdict(list)
        for key, _n, found, truth, _t, _v in photos:
            if key != held:
                for sea, h in truth.items():
                    if sea in found:
                        by_trade[h["trade"]].append(found[sea].colours)
        prototypes = {t: tuple(np.median(v, axis=0)) for t, v in by_trade.items()}
        for key, name, found, truth, turns, _v in photos:
            if key != held:
                continue
            seas = sorted(found)
            trades = hb.assign_trades([hb.trade_costs(found[s].colours, prototypes) for s in seas])
            right_place = [s for s in seas if s in truth]
            right_trade = [s for s, t in zip(seas, trades) if s in truth and truth[s]["trade"] == t]
            with_edge = [s for s in right_place if "edge" in truth[s]]
            right_edge = [s for s in with_edge if [list(rotate(found[s].land, turns)), list(s)] == truth[s]["edge"]]
            wrong = [(s, truth[s]["trade"], t) for s, t in zip(seas, trades) if s in truth and truth[s]["trade"] != t]
            print(f"{name}: found {len(right_place)}/{len(truth)} (invented {len(seas) - len(right_place)}), "
                  f"edge {len(right_edge)}/{len(with_edge)}, trade {len(right_trade)}/{len(truth)}"
                  + (f"; wrong trades {wrong}" if wrong else ""))
            for k, v in (("labelled", len(truth)), ("found", len(right_place)), ("invented", len(seas) - len(right_place)),
                         ("edges", len(with_edge)), ("edge_right", len(right_edge)), ("trade_right", len(right_trade)),
                         ("photos", 1), ("all_right", len(right_trade) == len(truth) == len(seas)
                                          and len(right_edge) == len(with_edge))):
                totals[k] += v
    print(f"held-out layouts: harbours found {totals['found']}/{totals['labelled']} (invented {totals['invented']}); "
          f"edge {totals['edge_right']}/{totals['edges']}; trade {totals['trade_right']}/{totals['labelled']}; "
          f"photos with every harbour right {totals['all_right']}/{totals['photos']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
