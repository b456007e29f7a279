"""The dice of a camera's roll as the camera read them, shown beside the roll on a game screen.

A roll read wrong by the camera is seen at a glance against the dice on the table and put right with Undo
and two taps.  A mixin for the screens that take rolls (the base game's and Starfarers'); the kv rule of each
screen shows ``dice_picture`` (a texture, or ``None``) under its roll, as a :class:`DicePicture`: a tap on it
opens the camera's photo of the tray (:meth:`CameraPicture.show_roll_photo`), the one kept with the roll in the
journal.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.modalview import ModalView


def roll_events(game) -> list[dict]:
    """The game's roll events, in the order rolled (an undone one is no longer there)."""
    return [event for event in game.events if event.get("type") == "roll"]


def rolls_recorded(game) -> int:
    """How many rolls the game has recorded (an undone one no longer counts)."""
    return len(roll_events(game))


def faces_text(dice) -> str:
    """A roll's faces as the screen shows them: lowest first, as they are said ("3 + 5")."""
    return " + ".join(map(str, sorted(dice)))


class DicePicture(ButtonBehavior, Image):
    """The dice picture; tapped, it opens the photo it was cut from."""


Factory.register("DicePicture", cls=DicePicture)


class CameraRollButton(ButtonBehavior, BoxLayout):
    """One of the camera's rolls in Statistics: its dice as the camera saw them (``picture``, a texture, or
    None for a roll kept before the dice picture was), and ``text`` under it; tapped, it opens the roll's
    photo.  The kv rule is in companion.kv."""

    picture = ObjectProperty(None, allownone=True)
    text = StringProperty("")


Factory.register("CameraRollButton", cls=CameraRollButton)


def last_camera_roll(game) -> dict | None:
    """The game's last roll event when it came with a source's roll id (the key of its photo), else None."""
    rolls = roll_events(game)
    return rolls[-1] if rolls and rolls[-1].get("roll_id") else None


class CameraPicture:
    """``dice_picture``: the last roll's dice as the camera saw them, while that roll is the last one."""

    dice_picture = ObjectProperty(None, allownone=True)
    #: The text key of the words beside it: the dice of a roll, or of a request to roll again.
    dice_picture_caption = StringProperty("camera_saw")
    _picture_of_roll = -1  # rolls_recorded() when the picture was shown
    _kept_picture_sought = None  # the roll id whose kept picture was last looked for in the journal

    def show_dice_picture(self, picture, caption: str = "camera_saw") -> None:
        """Show the dice of the roll just recorded as the camera saw them (a BGR array); ``None`` (a roll tapped
        or from a box) shows none.  ``caption="camera_saw_reroll"``: the dice of a request to roll again;
        ``"camera_saw_confirm"``: of a roll waiting for a player's OK."""
        game = self.game
        if picture is None or game is None:
            self.dice_picture = None
            return
        self.dice_picture, self.dice_picture_caption = bgr_texture(picture), caption
        self._picture_of_roll = rolls_recorded(game)

    def forget_stale_picture(self, game, rolled_this_turn: bool = True) -> None:
        """On every redraw: the picture goes once its roll is no longer the last (undone, or another came), and
        a roll's dice once its turn has ended (``rolled_this_turn`` False: the next player's roll is awaited, and
        the last player's dice under the dice buttons read as this player's).  A request to roll again or a roll
        waiting for OK stays: it is this roll's.  With none shown, the last roll's as the journal kept it comes
        back while its turn lasts: after the app restarted, or after the roll that followed it was undone."""
        turn_over = not rolled_this_turn and self.dice_picture_caption == "camera_saw"
        if self.dice_picture is not None and (game is None or rolls_recorded(game) != self._picture_of_roll
                                              or turn_over):
            self.dice_picture = None
        if self.dice_picture is None and game is not None and rolled_this_turn:
            self._show_kept_picture(game)

    def _show_kept_picture(self, game) -> None:
        roll, table = last_camera_roll(game), App.get_running_app().table
        if roll is None or table is None or roll["roll_id"] == self._kept_picture_sought:
            return  # (looked for once per roll: this runs on every redraw)
        self._kept_picture_sought = roll["roll_id"]
        kept = table.journal.dice_picture(table.game_id, roll["roll_id"])
        if kept is not None:
            self.show_dice_picture(decoded(kept))

    def show_roll_photo(self):
        """Open the camera's photo of the roll shown (the tray, the dice framed; from the journal), or of the
        request to roll again (from the camera source); a tap closes it.  Returns the view, or None when there
        is no photo to show."""
        app = App.get_running_app()
        game, photo, caption = self.game, None, ""
        if self.dice_picture is None or game is None or app.table is None:
            return None
        if self.dice_picture_caption == "camera_saw_reroll":  # the photo the request to roll again carried
            kept = app.reroll_photo
            photo, caption = (kept.tray if kept is not None else None), app.tr("reroll_photo")
        elif self.dice_picture_caption == "camera_saw_confirm":  # not recorded yet: the photo waits with it
            held = app.held_camera_roll
            if held is not None and held.photo is not None:
                photo, caption = held.photo.tray, app.tr("roll_photo", dice=faces_text(held.values))
        else:
            roll = last_camera_roll(game)
            if roll is not None:
                photo = app.table.journal.roll_photo(app.table.game_id, roll["roll_id"])
                caption = app.tr("roll_photo", dice=faces_text(roll["dice"]))
        return open_roll_photo(photo, caption) if photo is not None else None


def camera_rolls(game, photo_ids: set[str]) -> list[tuple[int, dict]]:
    """The rolls of ``game`` that have a photo kept (their roll id among ``photo_ids``), with each one's number
    among the game's rolls (1 = the first roll), in the order rolled."""
    return [(n, event) for n, event in enumerate(roll_events(game), start=1) if event.get("roll_id") in photo_ids]


def open_roll_photo(jpeg: bytes, caption: str) -> "RollPhotoView":
    """Show a roll's photo over the screen until a tap."""
    view = RollPhotoView(photo=photo_texture(jpeg), caption=caption)
    view.open()
    return view


def photo_texture(jpeg: bytes) -> Texture:
    """A JPEG as a texture."""
    return bgr_texture(decoded(jpeg))


def decoded(jpeg: bytes):
    """A JPEG as a BGR picture (decoded by OpenCV, which the camera source has already loaded)."""
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def bgr_texture(picture, texture: Texture | None = None) -> Texture:
    """An OpenCV (BGR) picture as a texture: a new one, or drawn into ``texture`` (of the picture's size)."""
    import cv2

    rgb = cv2.cvtColor(picture, cv2.COLOR_BGR2RGB)[::-1].copy()  # a texture's first row is the bottom
    if texture is None:
        texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
    texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


class RollPhotoView(ModalView):
    """The photo over the screen; any tap closes it."""

    photo = ObjectProperty(None, allownone=True)
    caption = StringProperty("")

    def on_touch_down(self, touch):
        self.dismiss()
        return True


#: How often the camera view looks again (seconds): enough to follow a hand and the dice settling, at
#: 0.9-2.4 ms of drawing a look on the UI thread (bench/bench_kivy_camera.py).
LOOK_SECONDS = 0.5


def open_camera_view() -> "CameraLiveView":
    """Show what the table's camera sees now, following it, until a tap."""
    view = CameraLiveView()
    view.open()
    return view


class CameraLiveView(RollPhotoView):
    """What the camera watching the game sees, twice a second: the tray outlined and the dice lying still
    framed with their faces (a table asking why a roll was not read, or aiming the camera mid-game, without
    leaving the game or taking the camera from the source); the caption says what the camera makes of it."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self._look = Clock.schedule_interval(lambda _dt: self.look(), LOOK_SECONDS)
        self.look()

    def look(self) -> None:
        app = App.get_running_app()
        if app is None:  # the app has stopped under an open view: it looks no more (and is closed)
            self._look.cancel()
            self.dismiss()
            return
        source = getattr(app, "source", None)
        view = source.view() if source is not None and hasattr(source, "view") else None
        if view is None:
            self.caption = app.tr("camera_view_none")
            return
        reuse = self.photo if self.photo is not None and tuple(self.photo.size) == (
            view.picture.shape[1], view.picture.shape[0]) else None
        self.photo = bgr_texture(view.picture, reuse)
        if reuse is not None:
            self.ids.photo.canvas.ask_update()  # the same texture drawn anew
        if view.phase == "moving":
            self.caption = app.tr("camera_view_moving")
        elif view.dice:
            self.caption = app.tr("camera_view_dice", dice=", ".join(str(d.face or "?") for d in sorted(
                view.dice, key=lambda d: d.centre[0])))
        elif view.phase == "settled":
            self.caption = app.tr("camera_view_no_dice")
        else:
            self.caption = app.tr("camera_view_looking")

    def on_dismiss(self):
        self._look.cancel()
