"""Lists of labelled dice for training (``train.py --oversample LIST``): one die a line, ``photo | die number | ...``
as ``bench/dark-red-pip-dice.txt`` writes them (the die's line in its label file, from 1).  No torch here: the tests
read the lists with the app's own environment."""

from __future__ import annotations

from pathlib import Path

from vision import dataset


def read_die_list(path: Path) -> set[tuple[str, int]]:
    """The dice a list names, as (photo stem, die's number in its label file from 1): one die a line,
    ``photo | number | ...`` (bench/dark-red-pip-dice.txt's format; ``#`` lines are comments)."""
    named = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [part.strip() for part in line.split("|")]
        if len(fields) < 2 or not fields[1].isdigit() or int(fields[1]) < 1:
            raise ValueError(f"{path}, line {number}: expected 'photo | die number (from 1) | ...', got {line!r}")
        named.add((Path(fields[0]).stem, int(fields[1])))
    return named


def oversampled(samples, names: list[str], named: set[tuple[str, int]]) -> list[list[dataset.LabelledDie]]:
    """Per training photo, its dice that ``named`` lists (by photo stem and die number from 1)."""
    return [[die for i, die in enumerate(dice, start=1) if (name, i) in named]
            for (_, dice), name in zip(samples, names)]
