"""Where "Scan the board"'s pictures open (picture_chooser.pictures_folder), on a real file system: the folder of
the last picture read while it is there; on Android the camera's own folder (what a tablet's camera app
fills), then DCIM, then Pictures; elsewhere the XDG Pictures folder; else home."""

from __future__ import annotations

from companion.ui.picture_chooser import is_picture_name, pictures_folder


def test_android_opens_the_camera_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("EXTERNAL_STORAGE", str(tmp_path))
    (tmp_path / "Pictures").mkdir()
    assert pictures_folder(platform="android") == tmp_path / "Pictures"
    (tmp_path / "DCIM").mkdir()
    assert pictures_folder(platform="android") == tmp_path / "DCIM"
    (tmp_path / "DCIM" / "Camera").mkdir()
    assert pictures_folder(platform="android") == tmp_path / "DCIM" / "Camera"
    # the folder of the last picture read comes first while it is there
    (tmp_path / "Download").mkdir()
    last = tmp_path / "Download" / "board.jpg"
    assert pictures_folder(str(last), platform="android") == tmp_path / "Download"
    (tmp_path / "Download").rmdir()
    assert pictures_folder(str(last), platform="android") == tmp_path / "DCIM" / "Camera"


def test_elsewhere_the_pictures_folder_then_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no user-dirs.dirs: the variable counts
    monkeypatch.setenv("XDG_PICTURES_DIR", str(tmp_path / "Bilder"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    assert pictures_folder(platform="desktop") == tmp_path / "home"  # no Pictures folder yet
    (tmp_path / "Bilder").mkdir()
    assert pictures_folder(platform="desktop") == tmp_path / "Bilder"


def test_pictures_by_name_any_case():
    assert [n for n in ("a.jpg", "IMG_1.JPG", "b.Jpeg", "c.png", "d.heic", "notes.txt", "jpg")
            if is_picture_name("/x", n)] == ["a.jpg", "IMG_1.JPG", "b.Jpeg", "c.png"]
