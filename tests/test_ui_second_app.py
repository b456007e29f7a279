"""A second app in the same process (a restart without a new process, as the UI tests do) builds each
screen once: no widget drawn twice (the volume slider showed two handles when companion.kv was loaded again)."""

from kivy.uix.slider import Slider

from companion.ui import driver as d


def test_a_second_app_builds_every_screen_once(tmp_path):
    for run in range(2):
        app = d.start_app(tmp_path / f"run{run}")
        try:
            assert {s.name: len(s.children) for s in app.root.screens} == {s.name: 1 for s in app.root.screens}
            settings = app.root.get_screen("settings")
            assert sum(isinstance(w, Slider) for w in d.walk(settings)) == 1
        finally:
            d.stop_app(app)
