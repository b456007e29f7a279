"""Dice sources behind one interface.

Every source -- a tap on the screen, a seeded virtual roller, the USB dice box, the camera over the
tray -- delivers the same value, :class:`DiceRolled`, to a callback, and reports its condition as a
:class:`SourceStatus`.  The app, the tests and the demo differ only in the URL-like name given to
:func:`open_source` (``manual:``, ``virtual://?seed=4``, ``box://auto``, ``box:///dev/ttyACM0``,
``sim://?seed=4&faults=1``, ``camera://0``), in the manner of pyserial's ``serial_for_url``.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class DiceRolled:
    """One settled roll, as a source saw it.

    ``values`` are the faces (two for Catan), ``source`` names the source (``"manual"``,
    ``"virtual"``, ``"box"``, ``"camera"``), ``confidence`` is in 0..1 (1 for a tap or a box),
    ``at`` is wall-clock seconds when the dice settled.  ``roll_id`` is the source's own id for
    the roll when it has one (the box's boot id + roll id; the camera's random id of its start + a
    count), used to drop duplicates: it must never repeat within a game, across restarts too.

    A camera's roll arrives carrying what the camera saw, so that nothing of the roll has to be fetched back
    from the source later: ``picture``, the dice as read, side by side (a BGR array, shown beside the roll),
    and ``photo``, the :class:`RollPhoto` kept with it in the journal.  Both are ``None`` for other sources,
    and neither takes part in comparing rolls.
    """

    values: tuple[int, ...]
    source: str
    confidence: float = 1.0
    at: float = field(default_factory=time.time)
    roll_id: str | None = None
    picture: Any = field(default=None, compare=False, repr=False)
    photo: "RollPhoto | None" = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.values or any(not 1 <= v <= 6 for v in self.values):
            raise ValueError(f"dice faces must be 1..6, got {self.values!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in 0..1, got {self.confidence!r}")

    @property
    def total(self) -> int:
        return sum(self.values)


@dataclass(frozen=True)
class RollPhoto:
    """A camera's evidence of one roll, kept with it in the journal: ``tray``, the tray as the camera saw it
    when the dice settled, the dice read framed with their faces (JPEG; what an umpire looks at), and ``dice``,
    the dice alone side by side as shown beside the roll (JPEG, or None; shown again after a restart); ``plain``,
    the same tray with nothing drawn on it (JPEG, or None), and ``boxes``, each die read in it as ``(x, y, w, h,
    face or None)``: once the table has said the roll, a labelled photo (``journal export --dataset``); ``checked``:
    a player looked at the faces read before the roll was recorded and agreed (OK, or the same dice tapped, while
    it waited for OK) -- a label a person vouched for, not only the camera's reading."""

    tray: bytes
    dice: bytes | None = None
    plain: bytes | None = None
    boxes: tuple = ()
    checked: bool = False


class SourceState(enum.Enum):
    """What a dice source is doing, for the dice panel."""

    IDLE = "idle"                  # not started
    SEARCHING = "searching"        # looking for the box / camera
    CONNECTED = "connected"        # ready, waiting for a roll
    ROLLING = "rolling"            # dice are moving
    DISCONNECTED = "disconnected"  # lost; retrying
    ERROR = "error"                # the device reported a fault; ``detail`` says which


#: Reasons whose ``detail`` is the port's own error text, for the log and the doctor, not for a table: the app says
#: the reason in plain words in every language (``why_<reason>``; companion.dice.serial_box.UNOPENED: the box's
#: port gone, the tablet asking for the USB permission, no access to the port, the port held by another program).
PLAIN_REASONS = frozenset({"box_unreachable", "box_permission_asked", "box_no_access", "box_busy"})


@dataclass(frozen=True)
class SourceStatus:
    """``reroll`` marks the moment the dice settled but cannot be read (a die cocked on an edge, one
    too many or too few in the tray): the players must roll again, and the app says so out loud.

    ``detail`` is English.  Where a source knows it, ``reason`` and ``params`` say the same for the app
    to put in its user's language (``companion.ui.i18n``: ``why_<reason>``).  A re-roll's: ``"crooked_dice"``
    (the box saw its dice settle crooked), ``"cocked"``, ``"count"`` (``seen``, ``expected``) or
    ``"unreadable"`` (``count``) from the camera (:class:`vision.rolls.RollEvent`); the camera's others:
    ``"opening"`` (``spec``), ``"watching"`` and ``"watching_uncalibrated"`` (no tray set yet: the whole picture
    is read), ``"end_of_video"``, ``"no_frames"`` (``name``), ``"moving"``,
    ``"still"``.

    A camera's request to roll again carries, as a roll does, what the camera saw: ``picture`` (the dice as
    read, the unreadable one framed red) and ``photo`` (:class:`RollPhoto`); ``None`` otherwise."""

    state: SourceState
    detail: str = ""
    reroll: bool = False
    reason: str = ""
    params: tuple[tuple[str, object], ...] = ()
    picture: Any = field(default=None, compare=False, repr=False)
    photo: RollPhoto | None = field(default=None, compare=False, repr=False)


RollCallback = Callable[[DiceRolled], None]
StatusCallback = Callable[[SourceStatus], None]


class DiceSource:
    """Base class of every dice source.

    Callbacks may be called from the source's own thread; a UI must hand them over to its main
    thread (Kivy: ``Clock.schedule_once``).  ``start`` returns at once; ``stop`` joins any thread.
    """

    name = "source"
    #: Whether :meth:`request_roll` can roll (a virtual roller, a box with a shaker): the app shows its
    #: "Roll" button only then — not for a camera, nor for the tapped dice.
    rolls_on_request = False

    def __init__(self) -> None:
        self._on_roll: RollCallback | None = None
        self._on_status: StatusCallback | None = None
        self.status = SourceStatus(SourceState.IDLE)

    def start(self, on_roll: RollCallback, on_status: StatusCallback | None = None) -> None:
        self._on_roll = on_roll
        self._on_status = on_status

    def stop(self) -> None:
        pass

    def request_roll(self) -> bool:
        """Ask the source to roll by itself (a virtual roller, a box with a shaker); False if it cannot."""
        return False

    def show(self, values: tuple[int, ...], colour: tuple[int, int, int]) -> None:
        """Show a roll and a player's colour on the source's own display, where it has one."""

    # For subclasses.
    def _emit_roll(self, roll: DiceRolled) -> None:
        if self._on_roll is not None:
            self._on_roll(roll)

    def _set_status(self, state: SourceState, detail: str = "", reroll: bool = False, reason: str = "",
                    params: tuple[tuple[str, object], ...] = (), picture=None, photo: RollPhoto | None = None) -> None:
        self.status = SourceStatus(state, detail, reroll, reason, params, picture, photo)
        if self._on_status is not None:
            self._on_status(self.status)


_SCHEMES: dict[str, Callable[[str], DiceSource]] = {}


def register_scheme(scheme: str, factory: Callable[[str], DiceSource]) -> None:
    """Make ``open_source("scheme:...")`` build a source with ``factory(url)``."""
    _SCHEMES[scheme] = factory


def open_source(url: str) -> DiceSource:
    """Open a dice source by its URL-like name (see the module docstring)."""
    scheme = url.split(":", 1)[0]
    if scheme not in _SCHEMES:
        _load_builtin_schemes()
    try:
        factory = _SCHEMES[scheme]
    except KeyError:
        known = ", ".join(sorted(_SCHEMES)) or "none"
        raise ValueError(f"unknown dice source {url!r} (known schemes: {known})") from None
    return factory(url)


def _load_builtin_schemes() -> None:
    # Imported lazily so that opening a manual source never imports pyserial or OpenCV.
    import importlib

    for module in ("companion.dice.manual", "companion.dice.virtual", "companion.dice.serial_box",
                   "companion.dice.camera"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
