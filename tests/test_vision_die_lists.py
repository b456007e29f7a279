"""Lists of labelled dice given more copies in the face classifier's training (``train.py --oversample LIST``;
vision/training/die_lists.py): the repository's list of the tray set's dark marbled red-pip dice names dice that are
there, with the faces their labels give; a line that names no die is refused with the file and line named."""

import os
from pathlib import Path

import cv2
import pytest

from vision import dataset
from vision.training.die_lists import oversampled, read_die_list

ROOT = Path(__file__).resolve().parents[1]
LIST = ROOT / "bench" / "dark-red-pip-dice.txt"
DATA = ROOT.parent / "shared" / "data" / "dice"
if not DATA.exists():
    DATA = Path(os.environ.get("CATAN_SHARED", "/work/shared")) / "data" / "dice"
TRAY = DATA / "nell-byler-dice_detection"


@pytest.mark.skipif(not TRAY.exists(), reason=f"dice photos not found at {TRAY}")
def test_the_marbled_dice_list_names_dice_of_the_tray_set_with_their_labelled_faces():
    named = read_die_list(LIST)
    assert len(named) == 131
    rows = {}
    for line in LIST.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            photo, number, face, fold, _ = (part.strip() for part in line.split("|"))
            rows[(Path(photo).stem, int(number))] = (int(face), int(fold))
    items = {item.image_path.stem: item for item in dataset.list_images(TRAY)}
    for (stem, number), (face, fold) in rows.items():
        item = items[stem]
        height, width = cv2.imread(str(item.image_path)).shape[:2]
        dice = item.read_dice(width, height)
        assert dice[number - 1].face == face, (stem, number)
        assert dataset.fold_of(item.image_path) == fold, stem
    # what the training takes: per photo, the listed dice and no other
    samples = [(None, items[stem].read_dice(640, 640)) for stem in sorted({s for s, _ in rows})]
    names = sorted({s for s, _ in rows})
    picked = oversampled(samples, names, named)
    assert sum(map(len, picked)) == 131
    assert all(len(p) == sum(1 for s, _ in rows if s == name) for p, name in zip(picked, names))


@pytest.mark.parametrize("line", ["IMG_1.jpg", "IMG_1.jpg | two | 3", "IMG_1.jpg | 0 | 3", "IMG_1.jpg | -1 | 3"])
def test_a_line_naming_no_die_is_refused_with_its_file_and_line(tmp_path, line):
    path = tmp_path / "list.txt"
    path.write_text(f"# a comment\nIMG_0.jpg | 2 | 4 | 1 | -\n{line}\n")
    with pytest.raises(ValueError, match=rf"list.txt, line 3: expected 'photo \| die number"):
        read_die_list(path)
