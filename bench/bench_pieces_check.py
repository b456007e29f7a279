"""What the rules' check (vision.board.pieces.consistent) does to the pieces read on SettlersEye's boards (issue 30).

    .venv/bin/python bench/bench_pieces_check.py [EXPORT] [--cache FILE] [--sealed] [--causes] [--time]

The boards are read as ``make_piece_model --folds 3`` reads them (each development fold by classifiers trained
on the other folds, CatanAI's ``testimg2`` empty and painted; the sealed boards, with ``--sealed`` only, by
classifiers trained on every development photo), on both lattices (refitted on the boxes; the reader's own).
The classifiers' probabilities are kept in ``--cache`` (default /tmp/bench_pieces_check_{dev,sealed}.pkl) so
the check can be scored again without retraining.  Printed per lattice: found / invented without the check,
with the shipped check, and (``--causes``) every right piece the check drops, by why: which rule, and what the
neighbour that made it was (a building missed, read in another colour, ...).
"""

from __future__ import annotations

import argparse
import collections
import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from companion.rules.geometry import edge_vertices, vertex_edges, vertex_neighbours  # noqa: E402
from vision.board import pieces as P  # noqa: E402
from vision.board.make_piece_model import (empty_rows, fold_boards, painted_rows, photo_rows,  # noqa: E402
                                           train)

LATTICES = ("refitted", "reader")


def readings(export: Path, sealed: bool, folds: int = 3) -> list[dict]:
    """Per photo: its truth per slot and, per lattice, the classifiers' probabilities (edges, corners, city)."""
    catanai = ROOT.parent / "shared" / "data" / "boards" / "catanai" / "photos"
    scratch = Path("/tmp/bench_pieces_check_extra")
    scratch.mkdir(exist_ok=True)
    for name in ("testimg2.JPG",):   # make_piece_model's --empty/--painted DIR: testimg2 alone
        target = scratch / "testimg2.jpg"
        if not target.exists():
            target.write_bytes((catanai / name).read_bytes())
    extra = empty_rows(scratch) + painted_rows(scratch, ("testimg3",))
    dev = photo_rows(export, sealed=False) if not sealed else photo_rows(export, sealed=False)
    scored = photo_rows(export, sealed=True) if sealed else dev
    out = []
    if sealed:
        plan = [(train(dev + extra), scored)]
    else:
        boards = sorted({r["board"] for r in dev})
        plan = []
        for held in fold_boards(boards, folds):
            plan.append((train([r for r in dev + extra if r["board"] not in held]),
                         [r for r in dev if r["board"] in held]))
    for models, rows in plan:
        for row in rows:
            item = {"board": row["board"], "name": row["name"],
                    "truth": {**{e: P.EDGE_CLASSES[c] for e, c in zip(P.EDGES, row["edge_labels"])},
                              **{v: P.CORNER_CLASSES[c] for v, c in zip(P.CORNERS, row["corner_labels"])}}}
            for way in LATTICES:
                item[way] = (models[0].probabilities(row[way][0]), models[1].probabilities(row[way][1]),
                             models[2].probabilities(row[way + "_outline"])[:, 1])
            out.append(item)
    return out


def slots_of(item: dict, way: str) -> P.SlotReading:
    edges, corners, city = item[way]
    return P.SlotReading(edges, corners, np.eye(3), city_chance=city)


def tally(items: list[dict], way: str, check, legal_only: bool = False) -> dict:
    """Found and invented; ``legal_only``: found counts only the true pieces the rules allow (legal_slots)."""
    t = collections.Counter()
    for item in items:
        truth = item["truth"]
        said = check(slots_of(item, way))
        t["pieces"] += sum(c != "none" for c in truth.values())
        t["said"] += len(said)
        allowed = legal_slots(truth) if legal_only else truth
        right = sum(truth[p.at] == f"{p.color} {p.piece}" and p.at in allowed for p in said)
        t["found"] += right
        t["invented"] += len(said) - right
    return t


def share(t: dict) -> str:
    return (f"found {t['found']}/{t['pieces']} = {t['found'] / max(1, t['pieces']):.1%}, invented "
            f"{t['invented']}/{t['said']} = {t['invented'] / max(1, t['said']):.1%}")


def what_is(truth: dict, slot, said: dict) -> str:
    """A neighbour's story: what stands there and what the reading said of it."""
    real, read = truth[slot], said.get(slot)
    read = "none" if read is None else f"{read.color} {read.piece}"
    if real == "none":
        return "empty, read empty" if read == "none" else f"empty, read {read}"
    if read == "none":
        return f"{real} missed"
    return f"{real} read right" if read == real else f"{real} read {read}"


def truth_pieces(truth: dict) -> list[P.Piece]:
    return [P.Piece(c.split()[1], c.split()[0], slot, (0.0, 0.0), 1.0) for slot, c in truth.items() if c != "none"]


def legal_slots(truth: dict) -> set:
    """The slots of the true pieces the check keeps when it is given the truth itself: SettlersEye's boards are
    staged for the camera, not all played by the rules (buildings side by side, roads far from any building)."""
    kept = {p.at for p in P.consistent(truth_pieces(truth))}
    crowded = {v for v in kept if len(v) == 3 and any(truth.get(n, "none") != "none" for n in vertex_neighbours(v))}
    return kept - crowded   # of two true buildings side by side the check keeps one: the board breaks the rule


def causes(items: list[dict], way: str) -> collections.Counter:
    """Each right piece the shipped check drops, by why."""
    count = collections.Counter()
    for item in items:
        truth = item["truth"]
        every = slots_of(item, way).all_pieces()
        said = {p.at: p for p in every}
        kept = {p.at for p in P.consistent(every, slots_of(item, way))}
        legal = legal_slots(truth)
        for p in every:
            if p.at in kept or truth[p.at] != f"{p.color} {p.piece}":
                continue
            if p.at not in legal:
                count["the board itself breaks the rule there (the check drops it from the true pieces too)"] += 1
                continue
            if p.piece != "road":
                rivals = [n for n in vertex_neighbours(p.at) if n in said and said[n].confidence > p.confidence]
                stories = sorted({what_is(truth, n, said).split(" read ")[0].split()[-1] + " neighbour: "
                                  + ("real" if truth[n] != "none" else "invented") for n in rivals})
                count["building, distance rule: " + "; ".join(stories)] += 1
                continue
            # a road not linked: what its colour's network lacks.  Its own ends and the roads beside them
            ends = edge_vertices(p.at)
            anchor = [v for v in ends if truth[v].startswith(p.color + " ")]
            if anchor:
                v = anchor[0]
                read = said.get(v)
                if read is None:
                    why = "its building missed"
                elif read.color != p.color:
                    why = f"its building read {'another colour' if read.color != p.color else ''}"
                else:
                    why = "its building dropped by the distance rule"
                count["road: " + why] += 1
                continue
            # no building of its colour at its ends: the network further away
            network = {p.at}
            frontier = [p.at]
            anchored = "no building of its colour on its real network"
            while frontier:
                e = frontier.pop()
                for v in edge_vertices(e):
                    if truth[v].startswith(p.color + " "):
                        read = said.get(v)
                        anchored = ("a road of its network missed/miscoloured between"
                                    if read is not None and read.color == p.color and v in kept
                                    else "the network's building missed, miscoloured or dropped")
                    for n in vertex_edges(v):
                        if n not in network and truth.get(n) == f"{p.color} road":
                            network.add(n)
                            frontier.append(n)
            count["road: " + anchored] += 1
    return count


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("export", nargs="?", type=Path,
                        default=ROOT.parent / "shared" / "data" / "boards" / "settlerseye" / "pieces")
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--sealed", action="store_true")
    parser.add_argument("--causes", action="store_true")
    parser.add_argument("--time", action="store_true", help="the check's own time per photo (CPU, median of 21)")
    args = parser.parse_args()
    cache = args.cache or Path(f"/tmp/bench_pieces_check_{'sealed' if args.sealed else 'dev'}.pkl")
    if cache.exists():
        items = pickle.loads(cache.read_bytes())
    else:
        items = readings(args.export, args.sealed)
        cache.write_bytes(pickle.dumps(items))
    legal = sum(len(legal_slots(i["truth"])) for i in items)
    print(f"{len(items)} photos ({'sealed' if args.sealed else 'development folds'}); of their "
          f"{sum(len(truth_pieces(i['truth'])) for i in items)} true pieces the check keeps "
          f"{sum(len(P.consistent(truth_pieces(i['truth']))) for i in items)} when given the true pieces themselves, "
          f"{legal} once buildings side by side are left out")
    for way in LATTICES:
        print(f"lattice {way}:")
        for what, check in (("no check", lambda s: s.all_pieces()),
                            ("session 8's check (no faint building)", lambda s: P.consistent(s.all_pieces())),
                            ("the check", lambda s: P.consistent(s.all_pieces(), s)),
                            ("the check's pieces and its unsure ones", lambda s: P.consistent(s.all_pieces(), s)
                             + P.doubtful(s.all_pieces(), s)),
                            ("its unsure ones alone", lambda s: P.doubtful(s.all_pieces(), s))):
            print(f"   {what}: {share(tally(items, way, check))}; of the {legal} pieces the rules allow on the "
                  f"true boards found {tally(items, way, check, legal_only=True)['found']}")
        if args.causes:
            for why, n in causes(items, way).most_common():
                print(f"   {n:4d}  {why}")
    if args.time:
        import os
        import statistics
        import time

        load = os.getloadavg()[0]
        for name, check in (("session 8's check", lambda s: P.consistent(s.all_pieces())),
                            ("the check and its unsure pieces (pieces.checked)", P.checked)):
            per_photo = []
            for item in items:
                slots = slots_of(item, "reader")
                runs = []
                for _ in range(21):
                    started = time.process_time()
                    check(slots)
                    runs.append((time.process_time() - started) * 1000.0)
                per_photo.append(statistics.median(runs))
            print(f"{name}: {statistics.median(per_photo):.2f} ms CPU per photo (median of the photos' medians of "
                  f"21; {min(per_photo):.2f}-{max(per_photo):.2f}), load average {load:.1f} -> {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
