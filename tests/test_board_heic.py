"""A HEIC photo named .jpg (some phones and transfers name an iPhone's HEIC so): told by its header, said as HEIC
by the command (`python -m vision board`), and nothing read from it.  The files are the first bytes of a HEIF
file as ISO/IEC 23008-12 lays them out (an ``ftyp`` box naming the brands, then the ``meta`` box): OpenCV cannot
decode a real one either, and no HEIC encoder is installed here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board.heic import heic_brand
from vision.board.reader import HeicError, load_photo

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT / "tests" / "data" / "boards" / "catanai" / "photos"


def iso_file(major: bytes, compatible: tuple[bytes, ...]) -> bytes:
    """An ISO base media file's start: its ``ftyp`` box (major brand, version 0, compatible brands), then a
    ``meta`` box's header and some of its bytes."""
    ftyp = b"ftyp" + major + b"\x00\x00\x00\x00" + b"".join(compatible)
    return (len(ftyp) + 4).to_bytes(4, "big") + ftyp + b"\x00\x00\x01\x00meta" + bytes(248)


IPHONE = iso_file(b"heic", (b"mif1", b"heic"))          # an iPhone's photo
ANDROID = iso_file(b"mif1", (b"mif1", b"heic", b"miaf"))  # HEIF from an Android camera: the brand only compatible
BURST = iso_file(b"hevc", (b"msf1", b"hevc"))           # a HEIF sequence (a burst, a live photo's frames)
VIDEO = iso_file(b"isom", (b"isom", b"iso2", b"mp41"))  # an MP4 video: ftyp too, but no HEIF brand


@pytest.mark.parametrize("data, brand", [(IPHONE, "heic"), (ANDROID, "mif1"), (BURST, "hevc"), (VIDEO, None),
                                         (b"\x00\x00\x00\x18ftyp", None), (b"", None)],
                         ids=["iphone", "android", "sequence", "mp4-video", "cut-short", "empty"])
def test_a_heic_file_is_told_by_its_header(tmp_path, data, brand):
    path = tmp_path / "IMG_1234.jpg"
    path.write_bytes(data)
    assert heic_brand(path) == brand


def test_a_real_jpeg_and_png_are_not_heic(tmp_path):
    png = tmp_path / "board.png"
    cv2.imwrite(str(png), np.full((8, 8, 3), 200, np.uint8))
    assert heic_brand(PHOTOS / "test4_1.jpg") is None and heic_brand(png) is None
    assert heic_brand(tmp_path / "gone.jpg") is None


def test_the_reader_refuses_a_heic_named_jpg_as_heic(tmp_path):
    path = tmp_path / "IMG_1234.jpg"
    path.write_bytes(IPHONE)
    with pytest.raises(HeicError, match=r"IMG_1234\.jpg: a HEIC photo .*send it as JPEG"):
        load_photo(path)
    video = tmp_path / "clip.jpg"
    video.write_bytes(VIDEO)
    with pytest.raises(OSError, match="not a readable image") as refused:
        load_photo(video)
    assert not isinstance(refused.value, HeicError)


def run_vision(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


@pytest.mark.parametrize("players", ["auto", "5-6"])
def test_the_command_says_heic_for_a_heic_named_jpg_and_still_reads_the_other_photo(tmp_path, players):
    heic = tmp_path / "IMG_1234.jpg"
    heic.write_bytes(ANDROID)
    done = run_vision("board", str(heic), str(PHOTOS / "testimg2.jpg"), "--json", "--players", players)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 + (players == "5-6"), done.stderr  # 5-6: testimg2 is refused as a 3-4 board
    assert lines[0] == (f"vision board: {heic}: a HEIC photo (its header says 'mif1'), which this reader cannot "
                        f"decode; send it as JPEG")
    assert "not a readable image" not in done.stderr and "Traceback" not in done.stderr
    if players == "auto":
        assert done.returncode == 1 and json.loads(done.stdout)["image"] == "testimg2.jpg"
