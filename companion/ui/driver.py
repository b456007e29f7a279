"""Drive the real app by simulated touches: for the UI tests and the screenshot run.

Touches go through Kivy's own input path (a ``MotionEvent`` posted to the event loop, dispatched by
the window to the widget tree), exactly as a finger's would; frames are drawn between steps so
that ``Clock.schedule_once`` work (dice-source callbacks, captions) runs as in the live app.
"""

from __future__ import annotations

import math
import random
import re
import time
from pathlib import Path
from typing import Callable, Iterator

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch
from kivy.uix.widget import Widget


def pump(frames: int = 2) -> None:
    """Let the app run ``frames`` frames (clock callbacks, layout, drawing).

    Frames run back to back: a test waits for the app, not for the 60 fps frame pacing.  Each frame is
    drawn into the window's back buffer but not presented (see :func:`keep_frames_in_the_back_buffer`).
    """
    from kivy.clock import Clock

    Clock._max_fps = 0
    keep_frames_in_the_back_buffer()
    for _ in range(frames):
        if _frame_clock is not None:
            _frame_clock.advance()
        EventLoop.idle()


def _not_presented(*_args) -> bool:
    return True  # handled: the window's own on_flip (the buffer swap) is not called


def keep_frames_in_the_back_buffer() -> None:
    """From now on the window draws each frame (the widgets' canvases, as GL commands) without presenting it.

    Nobody looks at the virtual screen: a test reads the app's state, a screenshot reads the back buffer
    (:func:`screenshot`).  Presenting is the costly part under Xvfb: the buffer swap makes the software
    rasteriser (Mesa's llvmpipe) paint the whole frame, 0.3-0.4 s a frame on a 2-core machine busy with
    other work; a UI test runs hundreds of frames, so the swaps were 80 % of its time there (the
    starfarers umpire-notes test: 120 s, its timeout, with the swaps; 17 s without).  Binding a handler
    that returns True is how Kivy lets a listener take an event over (the default handler is skipped)."""
    from kivy.core.window import Window

    global _window_kept
    if _window_kept is not Window:
        Window.fbind("on_flip", _not_presented)
        _window_kept = Window


_window_kept = None  # the window whose frames are kept in its back buffer


def frame_work_pending() -> bool:
    """Whether the clock holds work for the next frame: a layout, a label's texture, a redraw
    trigger, a ``schedule_once(..., 0)`` callback (one-shot events due at once; animations and
    other repeating events do not count)."""
    from kivy.clock import Clock

    return any(ev.is_triggered and not ev.loop and ev.timeout <= 0 for ev in Clock.get_events())


def settle(max_frames: int = 60) -> None:
    """Run frames until the app has nothing left to do in the next one (layouts done, texts and the
    board redrawn), rather than a fixed number of frames; at most ``max_frames``.  A list still springing
    back from past its edge (a panel that shrank under it) is let come to rest, as a finger waits for it:
    a tap aimed while it moves lands beside its target (seen: 31 px off in the first-game test)."""
    pump(1)
    for _ in range(max_frames):
        if not frame_work_pending():
            break
        pump(1)
    if scrolls_moving():
        wait_until(lambda: not scrolls_moving(), timeout=5)
        for _ in range(max_frames):
            if not frame_work_pending():
                return
            pump(1)


def scrolls_moving() -> list[Widget]:
    """The window's ScrollViews whose content is moving: gliding, or springing back from past an edge."""
    from kivy.uix.scrollview import ScrollView

    moving = []
    for root in window_roots():
        for w in walk(root):
            if isinstance(w, ScrollView):
                effects = [e for e in (w.effect_x, w.effect_y) if e is not None]
                if any(abs(e.velocity) > 0.5 or abs(getattr(e, "overscroll", 0)) > 0.5 for e in effects):
                    moving.append(w)
    return moving


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Run frames until ``condition()`` holds (work arriving from another thread); False if the app has had
    ``timeout`` seconds to get there and it still does not hold.

    ``timeout`` guards against a hang; it is no measure of speed.  It counts the seconds the app has had:
    the wall clock's, or the CPU seconds this process (all its threads) has been given, whichever are
    fewer.  On a machine busy with other work the app gets a fraction of a CPU second each second, its
    threads and frames run that much slower, and the guard stretches with them.  A test so never fails
    for being on a loaded machine, only for waiting on something that does not come; when the app sits
    idle waiting for it, its CPU time hardly moves and pytest-timeout's guard (tests/hang_guard.py) ends
    the test instead, with every thread's stack.  Never wait here to see that something does *not*
    happen: settle, then look."""
    started = app_time()
    while app_time(started) < timeout:
        pump(1)
        if condition():
            return True
        time.sleep(0.01)  # the interpreter to the app's threads (a frame holds it)
    return condition()


def app_time(since: tuple[float, float] | None = None):
    """The clocks of :func:`wait_until`: now as (wall, CPU); with ``since``, the seconds the app has had."""
    now = (time.monotonic(), time.process_time())
    if since is None:
        return now
    return min(now[0] - since[0], now[1] - since[1])


#: Checks run on the screen after every tap (``tap``/``tap_at``): a test session adds one (tests/conftest.py
#: adds the coordinate scan) and each sees every screen state a UI test reaches by touch.
STEP_CHECKS: list[Callable[[], None]] = []


def after_step() -> None:
    for check in list(STEP_CHECKS):
        check()


def screen_shown() -> None:
    """Run frames until the app's current screen has been drawn: a finger taps what it has seen (the app's
    screens drop a touch read before a new screen was drawn, widgets.TapSafeScreens)."""
    from kivy.app import App

    root = getattr(App.get_running_app(), "root", None)
    while root is not None and hasattr(root, "shown") and not root.shown():
        pump(1)


def tap_at(x: float, y: float) -> UnitTestTouch:
    """A finger down and up at window coordinates ``(x, y)``; returns the touch."""
    screen_shown()
    touch = UnitTestTouch(x, y)
    touch.touch_down()  # dispatched at once, as the window does with a finger's event
    touch.touch_up()
    pump(1)  # what the tap set off: clock callbacks, kv rules, the redraw
    after_step()
    return touch


def finger_tap_at(x: float, y: float) -> UnitTestTouch:
    """A finger down and up at window coordinates ``(x, y)`` through the window's whole input path: queued as
    an input provider queues a finger's events, then Kivy's post-processing (which marks a second tap close in
    place and time as a double tap) and the dispatch.  :func:`tap_at` hands the touch to the window at once,
    past that post-processing; the live app has it (``runTouchApp`` adds it, a test's app does not)."""
    from kivy.base import EventLoop
    from kivy.input.postproc import kivy_postproc_modules

    EventLoop.add_postproc_module(kivy_postproc_modules["doubletap"])
    screen_shown()
    touch = UnitTestTouch(x, y)
    EventLoop._dispatch_input("begin", touch)
    EventLoop._dispatch_input("end", touch)
    pump(1)  # the frame reads the queue: post-processing, then the dispatch, then what the tap set off
    if not wait_until(lambda: not touch.grab_list, timeout=5):  # a ScrollView hands it on 0.2 s later
        raise AssertionError(f"the tap at {(x, y)} was never released")
    pump(1)
    after_step()
    return touch


def slow_drag(x: float, y: float, steps=(40, 60, 80, 60), rest_ms: float = 100) -> UnitTestTouch:
    """A finger down at window coordinates ``(x, y)``, still for ``rest_ms``, then moved up in ``steps`` px
    50 ms apart, and lifted: the pace of a real drag seen under xdotool (a player's finger resting before it
    moves).  The touch goes through Kivy's input path.

    The pace is the app's clock's, not the wall's (:class:`FrameClock`: it moves on :data:`FRAME_MS` a frame): a
    ScrollView decides between a drag and a tap by that clock (its hand-over of a still finger to the widget under
    it is a ``Clock.schedule_once``), so the finger rests ``rest_ms`` as the ScrollView counts it, however slowly
    the machine draws the frames.  (Timed by the wall clock, a rest of 270 ms came out at 300 ms and more on a
    loaded machine, where even a patient list hands the finger on.)  The list glides on, or springs back from
    past its end, by the same clock until it comes to rest."""
    screen_shown()
    with FrameClock() as clock:
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        clock.frames_for_ms(rest_ms)
        for step in steps:
            y += step
            touch.touch_move(x, y)
            clock.frames_for_ms(50)
        touch.touch_up()
        if not clock.frames_until(lambda: not touch.grab_list and not scrolls_moving(), max_ms=10_000):
            raise AssertionError(f"the drag from {(x, y)} was never let go, or its list never came to rest")
    settle()
    return touch


#: A frame of :class:`FrameClock`: 10 ms, so a rest or a step is timed to the app's clock within 10 ms.
FRAME_MS = 10

_frame_clock = None  # the FrameClock in use, if any: pump() moves it on a frame at a time


class FrameClock:
    """While in use (a ``with`` block), Kivy's clock reads a time that moves on :data:`FRAME_MS` with each frame
    the driver runs (:func:`pump`, and so :func:`settle`, :func:`wait_until`, :func:`tap` ...), whatever the frame
    took.  What the app schedules (``Clock.schedule_once``: a ScrollView's hand-over of a still finger, 300 ms
    after the touch came down) falls due after as many frames as the delay stands for, on a loaded machine as on a
    quiet one.  Nested blocks share the outer one's clock.

    The scroll effects read the same time: Kivy's ``KineticEffect`` times a finger's moves by ``time.time()`` to
    find the speed a list glides on with once the finger lifts, so a list glides, and springs back from past its
    end, as far on a loaded machine as on a quiet one.

    The clock never runs ahead of the wall's (a frame quicker than :data:`FRAME_MS` is waited out): when the
    block ends and the clock reads the wall's time again, the next frame is one long frame, as after a stall,
    never one with a negative length."""

    def __init__(self) -> None:
        import kivy.effects.kinetic as kinetic
        from kivy.clock import Clock

        self._clock = Clock
        self._wall = Clock.__class__.time  # the clock's own source, a staticmethod (Clock is a proxy: its __class__)
        self._kinetic, self._kinetic_time = kinetic, kinetic.time
        self._outer = None
        self.now = 0.0

    def __enter__(self) -> "FrameClock":
        global _frame_clock
        if _frame_clock is not None:  # inside another block: its clock goes on
            self._outer = _frame_clock
            return _frame_clock
        pump(1)  # a frame read on the wall's time, so the app's clock starts from now
        self.now = self._clock.get_time()
        self._wall_start, self._start = self._wall(), self.now
        self._clock.time = lambda: self.now
        self._kinetic.time = lambda: self.now
        _frame_clock = self
        return self

    def __exit__(self, *_exc) -> None:
        global _frame_clock
        if self._outer is not None:
            return
        _frame_clock = None
        del self._clock.time  # the class's own again: the wall's
        self._kinetic.time = self._kinetic_time

    def advance(self) -> None:
        """The next frame's time: :data:`FRAME_MS` on, once the wall clock has come as far."""
        self.now += FRAME_MS / 1000
        ahead = (self.now - self._start) - (self._wall() - self._wall_start)
        if ahead > 0:
            time.sleep(ahead)

    def frames_for_ms(self, ms: float) -> None:
        """Frames run until the app's clock has moved on ``ms``: ``ceil(ms / FRAME_MS)`` frames."""
        pump(max(1, math.ceil(ms / FRAME_MS - 1e-9)))

    def frames_until(self, condition: Callable[[], bool], max_ms: float) -> bool:
        """Frames run until ``condition()`` holds; False if it still does not after ``max_ms`` of this clock."""
        for _ in range(math.ceil(max_ms / FRAME_MS)):
            if condition():
                return True
            pump(1)
        return condition()


def dropdown_closing() -> bool:
    """Whether a list that was chosen from (a Spinner's DropDown) is still over the screen, its closing
    scheduled ``min_state_time`` (35 ms) after the choice.  While it is there it takes the next touch
    anywhere on the window and only closes (auto_dismiss): the widget under the finger never gets it."""
    from kivy.clock import Clock
    from kivy.uix.dropdown import DropDown

    return any(ev.is_triggered and getattr(ev.get_callback(), "__func__", None) is DropDown._real_dismiss
               for ev in Clock.get_events())


def tap(widget: Widget) -> None:
    """Tap the centre of ``widget`` (scrolled into view first, as a user would)."""
    from kivy.uix.scrollview import ScrollView

    settle()  # layout first, so the widget is where it is drawn
    if dropdown_closing():
        # Frames run back to back, faster than a finger: a tap right after a choice from a list would
        # land on the list still closing (Settings' Save tapped then did nothing).  A finger comes later.
        wait_until(lambda: not dropdown_closing(), timeout=5)
        settle()
    parent, scroller = widget.parent, None
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            scroller = parent
            x, y = widget.to_window(*widget.center)
            if not scroller.collide_point(*scroller.to_parent(*scroller.to_widget(x, y))):
                # out of sight: scrolled into view first; a finger taps what it sees without scrolling
                scroller.scroll_to(widget, padding=0, animate=False)
                settle()  # the scroll (deferred while a layout is pending) and the viewport's move
            break
        parent = parent.parent
    pressed: list[bool] = []
    # A tap must press what it aims at (a list moving under the finger makes it press a neighbour).  A widget
    # that a rebuilt panel has already replaced is not watched: the finger meets its replacement.
    watch = widget.fbind("on_press", lambda *_a: pressed.append(True)) \
        if hasattr(widget, "trigger_action") and _on_window(widget) else None
    aimed_at = widget.to_window(*widget.center)
    scrolled = getattr(scroller, "scroll_y", None)
    touch = tap_at(*aimed_at)
    if scroller is not None:
        # A ScrollView hands a tap's release to its child 0.2 s later (it first waits to see
        # whether the finger scrolls): run frames until the child has let go of the touch.
        if not wait_until(lambda: not touch.grab_list, timeout=5):
            raise AssertionError(f"the tap on {widget!r} was never released by its ScrollView")
        pump(1)  # what the release set off
        after_step()
    if watch is not None:
        widget.unbind_uid("on_press", watch)
        if not pressed and not widget.disabled:
            raise AssertionError(
                f"a tap aimed at {getattr(widget, 'text', widget)!r} at {aimed_at} did not press it: it is now at "
                f"{widget.to_window(*widget.center)}, scroll_y {scrolled} -> {getattr(scroller, 'scroll_y', None)}; "
                f"under the finger now: {[getattr(w, 'text', type(w).__name__) for w in _under_point(*aimed_at)]}")


def _on_window(widget: Widget) -> bool:
    """Whether ``widget`` is in the window's widget tree (not taken off by a panel rebuilt since)."""
    from kivy.core.window import Window

    node = widget
    while node.parent is not None and node.parent is not node:
        node = node.parent
    return node is Window


def _under_point(x: float, y: float) -> list[Widget]:
    """The button-like widgets of the window whose box holds window point (x, y)."""
    found = []
    for root in window_roots():
        for w in walk(root):
            if hasattr(w, "trigger_action"):
                left, bottom, right, top = _window_box(w)
                if left <= x <= right and bottom <= y <= top:
                    found.append(w)
    return found


def walk(root: Widget) -> Iterator[Widget]:
    yield root
    for child in root.children:
        yield from walk(child)


def find(root: Widget, text: str, *, startswith: bool = False, timeout: float = 5.0) -> Widget:
    """The enabled button-like widget under ``root`` whose text is ``text`` (or starts with it).

    A panel rebuilt by the last tap may appear a few frames later (a ScrollView hands its child the
    tap 0.2 s after the finger lifts, which on a loaded machine can span many frames), so frames are
    run until the button is there (``timeout``: the hang guard of :func:`wait_until`).  To say that a
    button is *not* there, :func:`settle` and then look with ``timeout=0``: nothing waited for.
    """
    def matching() -> list[Widget]:
        return [w for w in walk(root) if isinstance(getattr(w, "text", None), str)
                and hasattr(w, "trigger_action")
                and (w.text.startswith(text) if startswith else w.text == text)]

    matches = matching()
    if not matches:
        wait_until(lambda: bool(matching()), timeout=timeout)
        matches = matching()
    if not matches:
        raise LookupError(f"no button with text {text!r}")
    return matches[0]


def find_label(root: Widget, text: str) -> Widget:
    """The widget under ``root`` whose text starts with ``text`` (labels included)."""
    for w in walk(root):
        if isinstance(getattr(w, "text", None), str) and w.text.startswith(text):
            return w
    raise LookupError(f"no widget with text starting {text!r}")


def start_app(data_dir, size=(1280, 800), **kwargs):
    """A new :class:`CompanionApp` over ``data_dir``, on the (one) window, at its start screen.

    ``player="null"`` unless given: tests look at captions, not at the sound card.
    """
    from kivy.core.window import Window

    from .app import CompanionApp

    if tuple(Window.size) != tuple(size):
        Window.size = size  # the tablet's landscape 1280x800 unless a test asks for portrait
    kwargs.setdefault("player", "null")
    app = CompanionApp(data_dir, **kwargs)
    app._run_prepare()  # what App.run does before its loop: build, add to the window, on_start
    # The window's resize arrives from the X server in a later frame: wait for the screens to fill it.
    if not wait_until(lambda: tuple(app.root.size) == tuple(Window.size), timeout=10):
        raise AssertionError(f"the app is {app.root.size}, the window {Window.size}")
    settle()
    return app


def stop_app(app) -> None:
    """Close the app as at exit (source, announcer, journal) and take it off the window."""
    from kivy.core.window import Window

    # on_stop, as App.stop sends it: the app shuts down its parts, and kv's ``app`` proxy lets go
    # of this instance (it caches the running app until that event).
    app.dispatch("on_stop")
    if app.root is not None:
        Window.remove_widget(app.root)
    from kivy.uix.modalview import ModalView
    for view in [w for w in Window.children if isinstance(w, ModalView)]:
        view.dismiss(animation=False)  # a view the app left open (a test that failed before closing it) goes too
    pump(1)
    # As App.stop does last: no running app.  kv's ``app`` proxy may have looked this instance up
    # again while the screens re-evaluated during shutdown; let go of it so the next app gets its own.
    from kivy.app import App
    from kivy.lang.parser import global_idmap

    App._running_app = None
    object.__setattr__(global_idmap["app"], "_obj", None)


def pixel_at(image, x: float, y: float) -> tuple[float, float, float]:
    """The colour (0-1 per channel) at window point ``(x, y)`` of a :func:`screenshot` loaded as a Kivy image
    (``kivy.core.image.Image(path, keep_data=True)``): the picture's rows run top-down, the window's bottom-up."""
    r, g, b, *_ = image.read_pixel(int(x), image.height - 1 - int(y))
    return r, g, b


def screenshot(path: Path) -> Path:
    """The window as it is now, written to ``path`` (a PNG): what a user sees, for docs/screens.

    The window's own pixels (export_to_png's offscreen render left stale widgets in the picture).  Frames
    are kept in the back buffer unpresented (:func:`keep_frames_in_the_back_buffer`), and under Xvfb the
    software rasteriser paints a frame only when it is presented: read straight after a draw, the back
    buffer held a black screen or scraps of earlier frames (docs/screens came out garbled).  So one frame
    is drawn and presented (the rasteriser paints it), then the same frame drawn again and read before
    anything else touches the buffer: the picture is the window as a user would see it."""
    from kivy.core.window import Window

    settle()  # layouts, texts and the board drawn before the picture
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Window.dispatch("on_draw")
    Window.flip()  # presented: the one swap a picture costs (the window's own, not the on_flip event we hold)
    Window.dispatch("on_draw")
    written = Window.screenshot(str(path.with_name(f"tmp-{path.name}")))  # Kivy numbers the name it writes
    Path(written).replace(path)
    assert path.stat().st_size > 8_000, f"{path} looks empty"
    return path


# --- flows shared by the UI tests and the screenshot run ----------------------------------------------

def base_game_after_setup(names=("Aki", "Ben", "Chie"), *, board_seed: int = 2, setup_seed: int = 5):
    """A base-game record played through its set-up (random legal placements, seeded) up to the first
    roll, and its game: a test adds the events it needs, then journals the record to resume it.

    A name "" leaves the player unnamed (the app then names them by colour)."""
    import random

    from ..record import COLORS, Record, new_game as record_game
    from ..rules import standard_board
    from ..rules.random_play import random_events

    record = Record("base", [{"name": n, "color": COLORS[i]} for i, n in enumerate(names)],
                    standard_board(board_seed, separate_red_numbers=True).to_json())
    game = record_game(record)
    for event in random_events(game, random.Random(setup_seed)):  # played on ``game`` as they come
        record.events.append(event)
        if game.state.phase == "roll":
            break
    return record, game


def journal_main_phase_game(data_dir) -> int:
    """Journal a 4-player base game (Aki, Ben, Chie, Dan) in Aki's second turn after the roll, Aki holding the
    cards for a road and a settlement (and more) and one development card bought on the turn before, so that
    every build button and Play card can be used; returns the game's id (the start screen resumes it)."""
    record, _game = base_game_after_setup(("Aki", "Ben", "Chie", "Dan"))
    record.events += [{"type": "roll", "dice": [3, 5]},
                      {"type": "set_hand", "player": 0, "cards": {"ore": 1, "grain": 1, "wool": 1}},
                      {"type": "buy_development", "player": 0, "card": None}, {"type": "end_turn"}]
    for _other in range(3):
        record.events += [{"type": "roll", "dice": [2, 2]}, {"type": "end_turn"}]
    record.events += [{"type": "roll", "dice": [3, 5]},
                      {"type": "set_hand", "player": 0, "cards": {"lumber": 3, "brick": 3, "wool": 2, "grain": 2}}]
    return journal(data_dir, record)


def journal(data_dir, record, title: str | None = None) -> int:
    """Store ``record`` in the data directory's journal, as a game the start screen offers to resume."""
    from ..record.journal import Journal

    with Journal(Path(data_dir) / "journal.sqlite3") as stored:
        return stored.create_game(record, title)


def resume(app, game_id: int):
    """Start screen → the journalled game's line (``#id …``) tapped, as a player resumes it: the play screen."""
    tap(find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
    assert app.root.current == "play"
    return app.root.get_screen("play")


def unreachable_road_side(game, legal):
    """A land side the turn player's road may not take now: not in ``legal``, no piece on it and no building
    on its corners -- so a tap there is refused for want of a connection (the refusal the tests read)."""
    return next(e for e in sorted(game.board.edges)
                if game.board.edge_is_land(e) and e not in legal and e not in game.state.pieces
                and not any(v in game.state.buildings for v in game.board.edge_vertices[e]))


def dice_for(n: int) -> tuple[int, int]:
    a = max(1, n - 6)
    return a, n - a


def tap_dice(play, n: int) -> None:
    for face in dice_for(n):  # the row is read anew for each die: a tap may rebuild it
        tap(play.ids.dice_row.children[::-1][face - 1])  # children are stored last-first


def open_new_game(app, game: str | None = None):
    """Start screen → New game by a tap, and ``game``'s toggle (e.g. "seafarers") when named: the new-game
    screen."""
    tap(app.root.get_screen("start").ids.new_game)
    assert app.root.current == "new_game"
    ng = app.root.get_screen("new_game")
    if game is not None:
        tap(ng.ids["g_" + game.replace("-", "_")])
    return ng


def new_game(app, players: int = 3, game: str = "base") -> None:
    """Start screen → new game → ``game`` with ``players`` → start, all by taps (to the game's own screen:
    Starfarers' and the card game's are their own)."""
    from .app import GAME_SCREENS

    ng = open_new_game(app, game)
    tap(ng.ids[f"n{players}"])
    tap(ng.ids.start)
    assert app.root.current == GAME_SCREENS.get(game, "play"), ng.message


def submit_seeded_setup(app, seed: int) -> None:
    """The open game's set-up placed through the table as taps would send it, each placement a legal one drawn
    with ``seed`` (played first on a copy of the record); the screens are told after."""
    from ..record import new_game as record_game
    from ..rules.random_play import random_events

    shadow = record_game(app.table.record)
    for event in random_events(shadow, random.Random(seed)):
        app.table.submit(event)
        if shadow.state.phase == "roll":
            break
    app.changed()


def open_board_editor(app, players: int = 3):
    """Start screen → new game → ``players`` → Edit board, all by taps: the board editor screen, shown."""
    new_game_screen = open_new_game(app)
    tap(new_game_screen.ids[f"n{players}"])
    tap(new_game_screen.ids.edit)
    assert app.root.current == "board_editor", new_game_screen.message
    return app.root.get_screen("board_editor")


def open_board_check(data_dir, record, size=(1280, 800), lang: str = "en"):
    """``record`` journalled, the app started on it (``size``, ``lang``), the game opened from the start screen
    and Check board tapped: the app and the board check screen, shown (one tap from play)."""
    game_id = journal(data_dir, record)
    app = start_app(data_dir, size=size)
    app.lang = lang
    settle()
    tap(find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
    tap(app.root.get_screen("play").ids.check_board)
    assert app.root.current == "board_check"
    return app, app.root.get_screen("board_check")


def place_setup(app) -> None:
    """Tap each set-up settlement and road where the board offers them (the rules' legal spots)."""
    play = app.root.get_screen("play")
    game = app.table.game
    board = play.ids.board
    for step in range(2 * game.n_players):
        assert board.pick == "vertex"
        offered = sorted(board.legal)
        assert offered == sorted(game.legal_settlement_spots_setup())
        rich = [v for v in offered if len(game.board.vertex_land[v]) == 3]
        spot = rich[(7 * step) % len(rich)]
        before = len(app.table.record.events)
        tap_at(*board.vertex_pos(spot))
        assert len(app.table.record.events) == before + 1, play.message
        assert game.state.buildings[spot][1] == "settlement"
        assert board.pick == "edge"
        edge = sorted(board.legal)[0]
        tap_at(*board.edge_pos(edge))
        assert edge in game.state.pieces, play.message
    assert game.state.phase == "roll"


def producing_number(game, player: int) -> int:
    """A number (not 7) on a hex beside one of ``player``'s buildings, away from the robber."""
    for v, (p, _) in sorted(game.state.buildings.items()):
        if p != player:
            continue
        for h in game.board.vertex_land[v]:
            t = game.board.tiles[h]
            if t.number is not None and h != game.state.robber:
                return t.number
    raise AssertionError("no producing hex")


def counter(root: Widget, resource: str, key: str | None = None, timeout: float = 5.0):
    """The − n + of ``resource`` (its interchange name: "lumber") in a choice panel under ``root``: its ``minus``
    and ``plus`` buttons and its count ``n``.  ``key`` names the choice where a panel has two counters a resource
    (a trade with a player: "give", "get"); a discard, gold and Year of plenty count "cards", the umpire's hand
    "hand".  Found afresh each time: a tap rebuilds the panel (and, as :func:`find`, waits a few frames for it)."""
    from .choices import Counter

    def matching() -> list[Widget]:
        return [w for w in walk(root) if isinstance(w, Counter) and w.resource == resource
                and (key is None or w.key == key)]

    if not matching():
        wait_until(lambda: bool(matching()), timeout=timeout)
    found = matching()
    if len(found) != 1:
        raise LookupError(f"{len(found)} counters of {resource!r}" + (f" for {key!r}" if key else "")
                          + (f" (keys {[w.key for w in found]}): name the key" if found else ""))
    return found[0]


def submit_discard(app, who: int, need: int) -> None:
    """Pick ``need`` of ``who``'s known cards with the + buttons of the 7 helper, then OK."""
    play = app.root.get_screen("play")
    game = app.table.game
    hand = dict(game.state.players[who].hand.known)
    picked = 0
    for r in game.resources:
        for _ in range(min(hand.get(r, 0), need - picked)):
            tap(counter(play.ids.actions, r, "cards").plus)
            picked += 1
    tap(find(play.ids.actions, app.tr("ok"), startswith=True))


def discard_by_kind(app, who: int, cards: dict[str, int]) -> int:
    """Discard ``cards`` as a player says them ("two lumber, two brick and one ore"), in the order given: a tap
    on each resource's name (it takes all of it the hand is known to hold, up to what is still owed), then − or +
    to the count said (+ past the known cards: unseen ones), then OK.  Returns the taps it took."""
    play = app.root.get_screen("play")
    taps = 0

    def step(widget) -> None:
        nonlocal taps
        assert not widget.disabled, f"{getattr(widget, 'text', widget)!r} is disabled"
        tap(widget)
        taps += 1

    for r, want in cards.items():
        step(counter(play.ids.actions, r, "cards").name)
        while counter(play.ids.actions, r, "cards").n > want:
            step(counter(play.ids.actions, r, "cards").minus)
        while counter(play.ids.actions, r, "cards").n < want:
            step(counter(play.ids.actions, r, "cards").plus)
    step(find(play.ids.actions, app.tr("ok"), startswith=True))
    return taps


# --- layout checks (a tablet held either way) -----------------------------------------------------------

def _window_box(w: Widget) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    return x0, y0, x1, y1


def _shown(w: Widget) -> bool:
    """Whether ``w`` and every parent are drawn with some size (a collapsed row hides its buttons)."""
    node = w
    while node is not None and node is not node.parent:
        if node.opacity == 0 or node.height <= 0 or node.width <= 0:
            return False
        node = node.parent
    return True


def _scroller(w: Widget):
    from kivy.uix.scrollview import ScrollView

    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            return node
        node = node.parent
    return None


def layout_problems(root: Widget, *, min_target: float = 48) -> list[str]:
    """What a finger or an eye trips on under ``root``, as sentences naming the widget (empty: none).

    - every shown control (anything with ``trigger_action``: buttons, toggles) is at least
      ``min_target`` px high and wide;
    - every shown control and text lies inside the window; inside a ScrollView it lies inside the
      view's width (its height is reached by scrolling) and the view itself is on the window and,
      when its contents scroll, at least two targets high;
    - no two shown controls or texts overlap (compared only within the same scrolled content), and none lies over
      a picture (a widget with ``is_picture``: the board, the scanned photo, the tray) that it is not part of: a
      panel laid over the photo hid the hexes a player was to check and passed this check before (session 15);
    - no text runs past its widget (a label's or button's rendered text fits its size);
    - no text is set in letters under 9 sp (the least any fit in the app goes to is 10-11 sp; a button's letters
      fitted from a width of 0 came out below 0: no letters at all);
    - no line of a text breaks inside a word (English) or a phrase (Japanese): ``wrapping.broken_words``;
    - no button's short Japanese command (``wrapping.short_command``: 元に戻す) is broken onto two lines;
    - no text meant for one line (``one_line``: a resource's name and its count, "lumber (16)") wraps.
    """
    from kivy.core.window import Window
    from kivy.metrics import sp
    from kivy.uix.label import Label

    from .wrapping import broken_words, short_command, short_command_fits

    settle()  # measured as drawn: layouts and texts done
    problems: list[str] = []
    width, height = Window.size
    eps = 1.0

    def name(w: Widget) -> str:
        text = getattr(w, "text", "")
        return f"{type(w).__name__} {text[:40]!r}" if text else type(w).__name__

    leaves = []
    pictures = [(w, _window_box(w)) for w in walk(root) if getattr(w, "is_picture", False) and _shown(w)]
    for w in walk(root):
        is_control = hasattr(w, "trigger_action")
        is_text = isinstance(w, Label) and bool(w.text.strip())
        if not (is_control or is_text) or not _shown(w):
            continue
        x0, y0, x1, y1 = _window_box(w)
        scroller = _scroller(w)
        if is_control and (w.height < min_target - eps or w.width < min_target - eps):
            problems.append(f"{name(w)} is {w.width:.0f}x{w.height:.0f} px, under the {min_target:.0f} px touch target")
        if scroller is None:
            if x0 < -eps or y0 < -eps or x1 > width + eps or y1 > height + eps:
                problems.append(f"{name(w)} at ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}) runs off the {width}x{height} window")
        else:
            sx0, sy0, sx1, sy1 = _window_box(scroller)
            if x0 < sx0 - eps or x1 > sx1 + eps:
                problems.append(f"{name(w)} runs past its scrolling panel's sides ({x0:.0f}-{x1:.0f} in {sx0:.0f}-{sx1:.0f})")
        if isinstance(w, Label) and w.text.strip():
            tw, th = w.texture_size
            if w.font_size < sp(9) - 0.01:
                problems.append(f"{name(w)}: its letters are {w.font_size:.1f} px, under 9 sp ({sp(9):.1f} px)")
            if tw > w.width + 2 or th > w.height + 2:
                problems.append(f"{name(w)}: its text ({tw:.0f}x{th:.0f}) runs past its {w.width:.0f}x{w.height:.0f} box")
            for cut in broken_words(w):
                problems.append(f"{name(w)}: a line breaks inside a word ({cut})")
            lines = len(getattr(w._label, "_cached_lines", ()))
            if lines > 1 and short_command(w, w.text, getattr(w, "markup", False)) and short_command_fits(w, w.text):
                problems.append(f"{name(w)}: a short command broken onto {lines} lines")  # (one line would fit)
            elif lines > 1 and getattr(w, "one_line", False) and "\n" not in w.text:
                problems.append(f"{name(w)}: meant for one line, it wraps onto {lines}")
        leaves.append((w, (x0, y0, x1, y1), scroller))
    from kivy.uix.scrollview import ScrollView

    for s in walk(root):
        if isinstance(s, ScrollView) and _shown(s):
            x0, y0, x1, y1 = _window_box(s)
            if x0 < -eps or y0 < -eps or x1 > width + eps or y1 > height + eps:
                problems.append(f"a scrolling panel at ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f}) runs off the window")
            if s.height < 2 * min_target and s.children and s.children[0].height > s.height:
                problems.append(f"a scrolling panel is {s.height:.0f} px high: too little to find one's way in")
    for i, (a, ba, sa) in enumerate(leaves):
        for b, bb, sb in leaves[i + 1:]:
            if sa is not sb or _contains(a, b) or _contains(b, a):
                continue
            overlap_x = min(ba[2], bb[2]) - max(ba[0], bb[0])
            overlap_y = min(ba[3], bb[3]) - max(ba[1], bb[1])
            if overlap_x > 2 and overlap_y > 2:
                problems.append(f"{name(a)} and {name(b)} overlap ({overlap_x:.0f}x{overlap_y:.0f} px)")
    for a, ba, sa in leaves:
        for picture, bp in pictures:
            if _contains(picture, a) or _contains(a, picture) or (sa is not None and sa is not _scroller(picture)):
                continue
            overlap_x = min(ba[2], bp[2]) - max(ba[0], bp[0])
            overlap_y = min(ba[3], bp[3]) - max(ba[1], bp[1])
            if overlap_x > 2 and overlap_y > 2:
                problems.append(f"{name(a)} lies over the picture {type(picture).__name__} ({overlap_x:.0f}x{overlap_y:.0f} px)")
    return problems


def _contains(outer: Widget, inner: Widget) -> bool:
    node = inner.parent
    while node is not None and node is not node.parent:
        if node is outer:
            return True
        node = node.parent
    return False


# --- what the screen says and where its targets are (checks for every screen state) -------------------------

#: A coordinate as the record writes it: ``[0, -1]`` or ``(0, -1)`` (a vertex or an edge is a list of them).
COORDINATES = re.compile(r"[\[(]\s*-?\d+\s*,\s*-?\d+\s*[\])]")


def window_roots() -> list[Widget]:
    """Everything on the window: the app's screens and any view opened over them (a photo, a popup)."""
    from kivy.core.window import Window

    return list(Window.children)


def screen_texts(root: Widget | None = None) -> list[str]:
    """Every text shown under ``root`` (default: the whole window): labels, buttons, fields, hints."""
    from kivy.uix.textinput import TextInput

    texts = []
    for top in ([root] if root is not None else window_roots()):
        for w in walk(top):
            if not _shown(w):
                continue
            text = getattr(w, "text", None)
            if isinstance(text, str) and text.strip():
                texts.append(text)
            if isinstance(w, TextInput) and not w.text and w.hint_text:
                texts.append(w.hint_text)
    return texts


def coordinate_texts(root: Widget | None = None) -> list[str]:
    """The texts on screen that show a coordinate (players say places, the board rings them): empty when none."""
    return [t for t in screen_texts(root) if COORDINATES.search(t)]


def touch_targets(root: Widget | None = None, *, exclude: Widget | None = None
                  ) -> dict[tuple[str, str, int], tuple[float, float, float, float]]:
    """Where every shown touch target is: buttons, toggles, fields, check boxes, sliders, spinners and the
    board, keyed by (kind, text, n-th of that kind and text on screen), each a window box (x0, y0, x1, y1).

    A target inside a scrolling panel counts where it is drawn (a panel the user scrolled moves its targets).
    ``exclude``: leave out the targets under that widget (a panel a turn change fills anew)."""
    from kivy.uix.checkbox import CheckBox
    from kivy.uix.slider import Slider
    from kivy.uix.textinput import TextInput

    from .board_view import BoardView

    settle()  # where they are drawn: layouts done
    out: dict[tuple[str, str, int], tuple[float, float, float, float]] = {}
    seen: dict[tuple[str, str], int] = {}
    for top in ([root] if root is not None else window_roots()):
        for w in walk(top):
            if not isinstance(w, (BoardView, TextInput, CheckBox, Slider)) and not hasattr(w, "trigger_action"):
                continue
            if not _shown(w) or exclude is not None and _under(w, exclude):
                continue
            text = w.text if isinstance(getattr(w, "text", None), str) and not isinstance(w, TextInput) else ""
            kind = type(w).__name__
            n = seen.get((kind, text), 0)
            seen[(kind, text)] = n + 1
            out[(kind, text, n)] = tuple(round(c, 1) for c in _window_box(w))
    return out


def _under(w: Widget, panel: Widget) -> bool:
    """Whether ``w`` is ``panel`` or inside it (``panel`` may be an ``ids`` entry: a weak proxy)."""
    target = panel.proxy_ref
    node = w
    while node is not None:
        if node.proxy_ref is target:
            return True
        if node is node.parent:
            return False
        node = node.parent
    return False


def moved_targets(before: dict, after: dict, *, may_move: Callable[[tuple[str, str, int]], bool] = lambda _k: False,
                  tolerance: float = 1.0) -> list[str]:
    """The targets shown in both snapshots (``touch_targets``) that moved or changed size, as sentences; a
    target ``may_move(key)`` allows (one the user asked to move: a panel they opened scrolls its own rows) is
    left out.  Targets that came or went are not moves."""
    moves = []
    for key, box in before.items():
        if key in after and not may_move(key):
            new = after[key]
            if max(abs(a - b) for a, b in zip(box, new)) > tolerance:
                kind, text, n = key
                moves.append(f"{kind} {text!r}#{n} moved from {box} to {new}")
    return moves


class StillTargets:
    """A watch on the touch targets across a game: ``check(what)`` compares the window's targets with those at
    the last check and records every move (``moves``) with ``what`` happened in between; the targets the user
    asked to move are named by ``may_move``.  A message, a payout, a panel or a turn change moves nothing."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.checks = 0
        self._last = touch_targets()

    def check(self, what: str, may_move: Callable[[tuple[str, str, int]], bool] = lambda _k: False,
              new_panel: Widget | None = None) -> list[str]:
        """``new_panel``: a panel the change filled anew (a turn's or a phase's actions), whose targets are new
        ones wherever they are; everything else must stay where it was."""
        now = touch_targets(exclude=new_panel)
        moved = moved_targets(self._last, now, may_move=may_move)
        self.moves += [f"{what}: {m}" for m in moved]
        self.checks += 1
        self._last = now
        return moved
