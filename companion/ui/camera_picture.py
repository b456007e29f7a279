"""The dice of a camera's roll as the camera read them, shown beside the roll on a game screen.

A roll read wrong by the camera is seen at a glance against the dice on the table and put right with Undo
and two taps.  A mixin for the screens that take rolls (the base game's and Starfarers'); the kv rule of each
screen shows ``dice_picture`` (a texture, or ``None``) under its roll.
"""

from __future__ import annotations

from kivy.graphics.texture import Texture
from kivy.properties import ObjectProperty, StringProperty


def rolls_recorded(game) -> int:
    """How many rolls the game has recorded (an undone one no longer counts)."""
    return sum(1 for event in game.events if event.get("type") == "roll")


class CameraPicture:
    """``dice_picture``: the last roll's dice as the camera saw them, while that roll is the last one."""

    dice_picture = ObjectProperty(None, allownone=True)
    #: The text key of the words beside it: the dice of a roll, or of a request to roll again.
    dice_picture_caption = StringProperty("camera_saw")
    _picture_of_roll = -1  # rolls_recorded() when the picture was shown

    def show_dice_picture(self, picture, caption: str = "camera_saw") -> None:
        """Show the dice of the roll just recorded as the camera saw them (a BGR array); ``None`` (a roll tapped
        or from a box) shows none.  ``caption="camera_saw_reroll"``: the dice of a request to roll again."""
        game = self.game
        if picture is None or game is None:
            self.dice_picture = None
            return
        import cv2

        rgb = cv2.cvtColor(picture, cv2.COLOR_BGR2RGB)[::-1].copy()  # a texture's first row is the bottom
        texture = Texture.create(size=(rgb.shape[1], rgb.shape[0]), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.dice_picture, self.dice_picture_caption = texture, caption
        self._picture_of_roll = rolls_recorded(game)

    def forget_stale_picture(self, game) -> None:
        """On every redraw: the picture goes once its roll is no longer the last (undone, or another came)."""
        if self.dice_picture is not None and (game is None or rolls_recorded(game) != self._picture_of_roll):
            self.dice_picture = None
