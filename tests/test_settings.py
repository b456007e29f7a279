"""The app's settings file and the dice source chosen in Settings.

What a player types as the camera (a camera number, a phone's stream address, a video file) becomes the
``camera://`` source, what names no camera is refused with the reason, and a stream's own address (with its
query, as IP cameras have) reaches OpenCV whole; a settings file damaged by hand keeps what it can."""

from __future__ import annotations

import json

import pytest

from companion.dice.camera import CameraChoiceError, camera_entry, camera_url, capture_spec
from companion.ui.settings import Settings


@pytest.mark.parametrize("typed, url", [
    ("0", "camera://0"),
    (" 1 ", "camera://1"),
    ("http://192.168.1.20:8080/video", "camera://http://192.168.1.20:8080/video"),
    ("rtsp://cam.local/stream1", "camera://rtsp://cam.local/stream1"),
    ("HTTPS://phone/mjpeg?size=720", "camera://HTTPS://phone/mjpeg?size=720"),
])
def test_a_camera_number_or_a_stream_address_is_a_camera(typed, url):
    assert camera_url(typed) == url
    assert camera_entry(url) == typed.strip()


@pytest.mark.parametrize("typed, reason, named", [
    ("", "empty", "camera number"),
    ("   ", "empty", "camera number"),
    ("front", "unknown", "'front'"),
    ("ftp://files/dice.mp4", "scheme", "ftp://"),
    ("http://", "unknown", "'http://'"),
    ("/no/such/video.mp4", "unknown", "/no/such/video.mp4"),
])
def test_what_names_no_camera_is_refused_saying_what_is_wrong(typed, reason, named):
    with pytest.raises(CameraChoiceError) as caught:
        camera_url(typed)
    assert caught.value.reason == reason and named in str(caught.value)


def test_a_video_file_plays_as_the_camera(tmp_path):
    video = tmp_path / "throws.avi"
    video.write_bytes(b"not looked into here")
    assert camera_url(str(video)) == f"camera://{video}"


def test_the_camera_in_use_keeps_its_options_and_is_not_judged_again(tmp_path):
    assert camera_url("0", previous="camera://0?via=kivy&dice=3") == "camera://0?via=kivy&dice=3"
    assert camera_url("1", previous="camera://0?via=kivy") == "camera://1"
    gone = f"camera://{tmp_path / 'deleted.avi'}"  # saved once; the source, not Settings, says it is gone
    assert camera_url(str(tmp_path / "deleted.avi"), previous=gone) == gone


def test_a_streams_own_query_reaches_opencv_and_ours_are_taken_out():
    assert capture_spec("camera://http://10.0.0.2/videostream.cgi?user=admin&pwd=&dice=3") == (
        "http://10.0.0.2/videostream.cgi?user=admin&pwd=", {"dice": "3"})
    assert capture_spec("camera://rtsp://cam/s?via=opencv") == ("rtsp://cam/s", {})
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['fps'\]"):
        capture_spec("camera://0?fps=30")  # a camera index has no query of its own: a typo is named


def test_settings_choose_a_source_by_kind_and_remember_the_camera():
    start = Settings()
    assert start.source_kind == "manual" and start.camera == "0"
    phone = start.choose_source("camera", "http://phone:8080/video", "")
    assert phone.dice_source == "camera://http://phone:8080/video" and phone.source_kind == "camera"
    tapped = phone.choose_source("manual", "http://phone:8080/video", "")
    assert tapped.dice_source == "manual:" and tapped.camera == "http://phone:8080/video"
    boxed = tapped.choose_source("box", tapped.camera, " /dev/ttyACM0 ")
    assert boxed.source_url() == "box:///dev/ttyACM0"
    seeded = Settings(dice_source="sim://?seed=4").choose_source("sim", "0", "")
    assert seeded.dice_source == "sim://?seed=4"  # the simulator as it was set
    assert Settings().choose_source("sim", "0", "").dice_source == "sim://?seed=1"


def test_a_camera_that_names_nothing_changes_no_setting():
    before = Settings(dice_source="camera://1")
    with pytest.raises(CameraChoiceError):
        before.choose_source("camera", "back", "")
    assert before.dice_source == "camera://1" and before.camera == "1"


def test_settings_saved_before_the_camera_field_come_back_with_their_camera(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"lang": "ja", "dice_source": "camera://1?via=kivy"}))
    settings = Settings.load(tmp_path)
    assert settings.camera == "1" and settings.source_kind == "camera" and settings.lang == "ja"
    settings.save(tmp_path)
    assert json.loads((tmp_path / "settings.json").read_text())["camera"] == "1"


def test_a_damaged_setting_is_replaced_by_its_default_and_the_others_kept(tmp_path, caplog):
    """A settings file edited by hand or half written: the app still starts, each bad value named in the log."""
    (tmp_path / "settings.json").write_text(json.dumps({
        "lang": "fr", "voice": "yes", "volume": "loud", "dice_source": 3, "camera": 5,
        "box_port": "/dev/ttyACM1", "confirm_camera": True}))
    settings = Settings.load(tmp_path)
    assert (settings.lang, settings.voice, settings.volume, settings.dice_source, settings.camera) == (
        "en", True, 0.8, "manual:", "0")
    assert settings.box_port == "/dev/ttyACM1" and settings.confirm_camera is True
    for name in ("lang='fr'", "voice='yes'", "volume='loud'", "dice_source=3", "camera=5"):
        assert name in caplog.text
    (tmp_path / "settings.json").write_text(json.dumps({"volume": 3}))  # a whole number is a volume, kept in 0..1
    assert Settings.load(tmp_path).volume == 1.0
    (tmp_path / "settings.json").write_text("[1, 2]")
    assert Settings.load(tmp_path) == Settings()
