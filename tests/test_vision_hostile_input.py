"""``vision evaluate`` handed hostile files: a photo's size is read from its header and a huge one refused before
it is decoded (a 2 kB PNG claiming 30000 x 30000 pixels would take 5 GB to decode), and a label file with a box
that is no box (nan, inf, negative) or that is not UTF-8 is refused with its file named."""

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import dataset
from vision.evaluate import MAX_PIXELS, ImageReadError, load_image
from vision.image_header import HeaderError, image_size

ROOT = Path(__file__).resolve().parents[1]


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` x ``height`` (RGB, 8 bit) and whose data is the start of a black
    picture, compressed: a small file that would decode to ``width * height * 3`` bytes."""
    rows = zlib.compress(bytes(65536), 9)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", rows)
            + _png_chunk(b"IEND", b""))


def jpeg_claiming(width: int, height: int) -> bytes:
    """A real small JPEG, with an EXIF-like segment before its frame header, whose frame header is then made to
    say ``width`` x ``height``."""
    ok, encoded = cv2.imencode(".jpg", np.full((16, 16, 3), 128, np.uint8))
    data = bytearray(encoded.tobytes())
    data[2:2] = b"\xff\xe1" + struct.pack(">H", 2 + 200) + bytes(200)  # an APP1 segment to walk past
    frame = data.index(b"\xff\xc0")
    data[frame + 5:frame + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp"])
@settings(max_examples=15, deadline=None)
@given(width=st.integers(1, 300), height=st.integers(1, 300))
def test_the_header_says_the_size_the_decoder_gives(tmp_path_factory, suffix, width, height):
    path = tmp_path_factory.mktemp("img") / f"photo{suffix}"
    picture = np.random.default_rng(width * height).integers(0, 255, (height, width, 3), np.uint8)
    assert cv2.imwrite(str(path), picture)
    assert image_size(path) == (width, height)
    assert load_image(path).shape[:2] == (height, width)


CLAIMS = {
    "huge.png": lambda: png_claiming(30000, 30000),
    "huge.jpg": lambda: jpeg_claiming(30000, 30000),
    "wide.png": lambda: png_claiming(MAX_PIXELS + 1, 1),
    "huge.bmp": lambda: b"BM" + bytes(12) + struct.pack("<Iii", 40, 20000, -20000) + bytes(40),
}


@pytest.mark.parametrize("name", CLAIMS)
def test_a_photo_claiming_more_pixels_than_allowed_is_refused_undecoded(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(data := CLAIMS[name]())
    assert len(data) < 10_000  # a small file...
    with pytest.raises(ImageReadError) as refused:
        load_image(path)  # ...refused at once (decoding the PNG would take 2.7 GB and about a minute)
    message = str(refused.value)
    assert str(path) in message and "50 megapixels" in message and " x " in message


def test_a_photo_just_within_the_limit_is_read(tmp_path):
    path = tmp_path / "long.png"
    assert cv2.imwrite(str(path), np.zeros((1, 4000, 3), np.uint8))
    assert load_image(path).shape == (1, 4000, 3)


@pytest.mark.parametrize("data, said", [
    (b"GIF89a\x10\x00\x10\x00", "not a PNG, JPEG or BMP image"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "without its IHDR"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "without a frame header"),
    (b"\xff\xd8 not a jpeg at all", "corrupt"),
])
def test_a_file_whose_header_gives_no_size_is_named_as_unreadable(tmp_path, data, said):
    path = tmp_path / "odd.jpg"
    path.write_bytes(data)
    with pytest.raises(HeaderError, match=said):
        image_size(path)
    with pytest.raises(ImageReadError, match=r"odd\.jpg: not a readable image"):
        load_image(path)


@pytest.mark.parametrize("line, said", [
    ("2 nan 0.5 0.1 0.1", "box centre nan 0.5 is not inside the photo"),
    ("2 0.5 0.5 inf 0.1", "box size inf 0.1"),
    ("2 0.5 0.5 -0.1 0.1", "box size -0.1 0.1"),
    ("2 0.5 0.5 0.1 0", "box size 0.1 0"),
    ("2 -0.2 0.5 0.1 0.1", "box centre -0.2 0.5"),
    ("2 0.5 1.5 0.1 0.1", "box centre 0.5 1.5"),
    ("2 0.5 0.5 nan nan", "box size nan nan"),
    ("2 0.5 0.5 0.1 1e400", "box size 0.1 1e400"),  # inf, spelt otherwise
    ("2 0.5 0.5 0.1 \x1b[2J", r"could not convert string to float: '\\x1b\[2J'"),
])
def test_a_label_box_that_is_no_box_names_the_file_and_line(tmp_path, line, said):
    label = tmp_path / "photo.txt"
    label.write_text(f"1 0.5 0.5 0.1 0.1\n{line}\n")
    with pytest.raises(dataset.LabelError, match=rf"photo\.txt:2: {said}"):
        dataset.read_label_file(label, 640, 480)


def test_a_label_file_not_in_utf8_is_named(tmp_path):
    label = tmp_path / "photo.txt"
    label.write_bytes(b"1 0.5 0.5 0.1 0.1\n\xff\xfe 2 0.5\n")
    with pytest.raises(dataset.LabelError, match=r"photo\.txt: not UTF-8 text \(byte 18\)"):
        dataset.read_label_file(label, 640, 480)


def test_evaluate_refuses_a_huge_photo_and_a_bad_label_naming_each(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "images" / "bomb.png").write_bytes(png_claiming(30000, 30000))
    (tmp_path / "labels" / "bomb.txt").write_text("2 0.5 0.5 0.1 0.1\n")
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "bomb.png: 30000 x 30000 pixels" in run.stderr
    assert "50 megapixels" in run.stderr
    (tmp_path / "images" / "bomb.png").unlink()
    assert cv2.imwrite(str(tmp_path / "images" / "die.png"), np.zeros((32, 32, 3), np.uint8))
    (tmp_path / "labels" / "die.txt").write_text("2 0.5 0.5 nan 0.1\n")
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "die.txt:1: box size nan 0.1" in run.stderr


def test_a_label_number_of_a_100000_digits_is_quoted_short(tmp_path):
    label = tmp_path / "photo.txt"
    label.write_text(f"2 1{'0' * 100_000}.0 0.5 0.1 0.1\n")
    with pytest.raises(dataset.LabelError) as refused:
        dataset.read_label_file(label, 640, 480)
    assert "photo.txt:1: box centre '1000000000" in str(refused.value) and len(str(refused.value)) < 300
