"""The Kivy app: one :class:`CompanionApp` wiring the journal, the live table, the dice source and
the announcer to the screens.

Screens (a ``ScreenManager``; one module per screen, listed in :mod:`.screens`, each with its kv file):
``start`` → ``new_game`` (→ ``board_editor``) → ``play`` ↔ ``statistics``, ``settings``, and
``tournament`` when the tournament desk is installed.

Threads: a dice source and the announcer call back on their own threads; everything they report
is handed to Kivy's main thread with ``Clock.schedule_once`` before it touches the table or a
widget.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
import threading
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.text import DEFAULT_FONT, LabelBase
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition

from .. import assets
from ..record import Record
from ..record.journal import Journal, data_dir
from ..table import Table
from . import i18n
from .camera_picture import CameraPicture
from .settings import Settings

log = logging.getLogger(__name__)
FONT = assets.path("fonts", "NotoSansCJKjp-Regular-subset.otf")


def register_font() -> None:
    """Make the bundled font (Latin and Japanese glyphs) every label's default."""
    if FONT.exists():
        LabelBase.register(DEFAULT_FONT, str(FONT))


#: What is said when a source's connection goes and comes back (the players keep rolling otherwise, unheard).
CONNECTION_NOTICES = {"box": ("box_disconnected", "box_reconnected"), "camera": ("camera_lost", "camera_back")}


class CompanionApp(App):
    """The tablet app.  ``data_dir``: where the journal and settings live (tests pass a temp dir)."""

    lang = StringProperty("en")
    table = ObjectProperty(None, allownone=True)
    revision = NumericProperty(0)          # bumped after every change of the table: kv rebinds on it
    source_status = StringProperty("")     # the dice panel's status line
    source_state = StringProperty("idle")  # SourceState value: idle, searching, connected, rolling, ...
    caption = StringProperty("")           # the last announcement, as text
    demo = BooleanProperty(False)
    box_rolls = BooleanProperty(False)     # the dice source can roll on request (shows a button)
    camera_watching = BooleanProperty(False)  # the dice come from a camera (shows "Camera view")
    pending_roll = StringProperty("")      # "3 + 5" while a camera roll waits for OK (Settings), else ""
    desk_line = StringProperty("")         # a tournament table's round clock (the play screen shows it by its prompt)
    sound_notice = StringProperty("")      # "No audio device: ... captions only." while no sound can be played, else ""

    def __init__(self, data_dir_path: str | Path | None = None, *, demo: bool = False,
                 source_url: str | None = None, player: str = "auto", **kwargs: Any):
        super().__init__(**kwargs)
        self.title = "Catan companion"
        self.data_dir = Path(data_dir_path) if data_dir_path is not None else data_dir()
        self.settings = Settings.load(self.data_dir)
        self.lang = self.settings.lang
        self.demo = demo
        # The demo's simulated player rolls when the app asks (see PlayScreen), not on a timer.
        self._source_url = source_url or ("sim://?seed=7&every=0" if demo else None)
        self._audio_player = player
        self.journal: Journal | None = None
        self.source = None
        self._camera_lent = False  # the calibration screen holds the table's camera (lend_camera)
        #: A camera roll (a DiceRolled, carrying its picture and photo) waiting for a player's OK (Settings), else None.
        self.held_camera_roll = None
        self.reroll_photo = None  # the photo of the camera's latest request to roll again (it carried it)
        self._last_status = None  # the dice source's last status (shown again after a language switch)
        self._source_lost = False  # the box was unplugged and has not come back yet
        self.announcer = None
        self.ready_at: float | None = None
        self._listeners: list = []

    # --- texts --------------------------------------------------------------------------------------
    def tr(self, key: str, _lang: str | None = None, **values: Any) -> str:
        """Text in the current language; kv passes ``app.lang`` as ``_lang`` so it re-evaluates."""
        return i18n.tr(key, _lang or self.lang, **values)

    def player_name(self, player: int | None) -> str:
        if player is None or self.table is None:
            return ""
        info = self.table.record.players[player]
        return info.get("name") or self.tr(info["color"])

    # --- building --------------------------------------------------------------------------------------
    def load_kv(self, filename=None):
        """Kivy loads the kv file named after the app (companion.kv) on every start of an app; a second
        app in the same process (a restart, the tests) would then get every screen's rule twice and
        draw each widget twice.  Load the shared rules once per process instead (each screen's module
        loads its own the same way)."""
        from .widgets import load_rules

        load_rules()
        return True

    def build(self):
        register_font()
        from .steady_scroll import install as scroll_steadily

        scroll_steadily()  # a slow frame must not fling a list off the screen (steady_scroll.py)
        self.load_kv()
        from . import screens

        from ..record.rescue import open_journal

        # A journal that cannot be opened (damaged, newer, another program's) is kept aside untouched and a fresh
        # one used, its readable games carried over; the start screen says so (journal_rescue).
        self.journal, self.journal_rescue = open_journal(self.data_dir / "journal.sqlite3")
        from .widgets import TapSafeScreens

        # a double tap's second tap goes nowhere when its first changed the screen (Start's, onto the board)
        manager = TapSafeScreens(transition=NoTransition())
        games = _game_screens()  # first: they add their texts, which the new-game screen shows
        for cls in screens.APP_SCREENS:
            manager.add_widget(cls())
        tournament = _tournament_screen()
        if tournament is not None:
            manager.add_widget(tournament)
        from .tournament_table import install as install_tournament_table

        install_tournament_table(self, manager)  # Menu → Tournament table: join the desk, send the game to it
        from .board_scan import install as install_board_scan

        install_board_scan(self, manager)  # the board editor's "Scan the board": a photo read, corrected, used
        from .board_check import install as install_board_check

        install_board_check(self, manager)  # play's "Check board": a photo's pieces against the game's
        calibration = _calibration_screen()
        if calibration is not None:
            manager.add_widget(calibration)
        for screen in games:
            manager.add_widget(screen)
        manager.current = "start"
        return manager

    def on_start(self):
        self.root.get_screen("start").refresh()
        import time
        self.ready_at = time.perf_counter()

    def on_stop(self):
        self.shutdown()

    def shutdown(self) -> None:
        """Stop the dice source and the announcer, close the journal (idempotent)."""
        if self.has_screen("calibration"):
            self.root.get_screen("calibration").close()  # its camera and its reading threads end with the app
        if self.has_screen("settings"):
            self.root.get_screen("settings").stop_looking()  # a port or camera being asked is let go
        self._stop_source()
        from .name_voice import stop_all

        stop_all()  # a name being recorded: its microphone closes before the app ends
        if self.announcer is not None:
            try:
                self.announcer.close()
            except Exception:  # pragma: no cover - closing is best effort at exit
                log.exception("closing the announcer failed")
            self.announcer = None
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def has_screen(self, name: str) -> bool:
        return self.root is not None and self.root.has_screen(name)

    def go(self, name: str) -> None:
        screen = self.root.get_screen(name)
        self.came_from = self.root.current  # (Settings returns there)
        if hasattr(screen, "refresh"):
            screen.refresh()
        self.root.current = name

    # --- games ---------------------------------------------------------------------------------------
    def start_game(self, record: Record, title: str | None = None, voices: dict | None = None) -> Table:
        """Start ``record`` as a new game; ``voices``: the names players said at set-up, seat → clip, kept with
        the game (beside the journal) before the first announcement."""
        table = Table.create(self.journal, record, title)
        for seat, clip in (voices or {}).items():
            try:
                self.name_voices.save(self._voices_key(table), seat, clip)
            except (OSError, ValueError) as error:  # that player is said by colour; the game goes on
                log.warning("player %s's recorded name was not kept: %s", seat, error)
        self._open_table(table)
        return table

    def _voices_key(self, table: Table) -> str:
        """Where a game's recorded names are kept: its journal id and creation time (a new journal file may
        give the same id to another game)."""
        from ..announce.name_voices import game_key

        created = next(g.created for g in self.journal.games() if g.id == table.game_id)
        return game_key(table.game_id, created)

    @property
    def name_voices(self):
        """The names players recorded, per game, beside the journal (looked up when a game opens: numpy and the
        announcer stay out of the start screen)."""
        from ..announce.name_voices import FOLDER, NameVoices

        return NameVoices(self.data_dir / FOLDER)

    def resume_game(self, game_id: int) -> Table:
        table = Table(self.journal, game_id)
        self._open_table(table)
        return table

    def _open_table(self, table: Table) -> None:
        if self.table is not None:
            self.close_table()
        self.table = table
        self.caption, self._captioned = "", None
        self.held_camera_roll, self.pending_roll = None, ""  # (a reading held for another game's OK)
        self.reset_game_screens()  # nothing of the game before (a refusal, its umpire offer, choices) stays
        table.add_listener(self._on_outcome)
        self._start_announcer()
        self._start_source()
        self.revision += 1
        self.go(self.game_screen())

    def reset_game_screens(self, language_only: bool = False) -> None:
        """Clear every live screen's per-game state (refusal, umpire offer, selections, panels, last tap); with
        ``language_only``, only what was said in the old language (choices in progress stay)."""
        method = "reset_for_new_language" if language_only else "reset_for_new_game"
        for screen in self.root.screens if self.root is not None else ():
            if hasattr(screen, method):
                getattr(screen, method)()

    def game_screen(self) -> str:
        """The live screen of the open game: Starfarers and the card game have their own."""
        name = GAME_SCREENS.get(self.table.record.game, "play") if self.table is not None else "play"
        return name if self.has_screen(name) else "play"

    def close_table(self) -> None:
        self._stop_source()
        if self.announcer is not None:
            self.announcer.close()
            self.announcer = None
        self.sound_notice = ""
        self.table = None

    def _on_outcome(self, outcome) -> None:
        # Table listeners run on the caller's thread; every caller here is the main thread.
        self.revision += 1

    def changed(self) -> None:
        """Something changed the table outside ``submit`` (undo): redraw."""
        self.revision += 1
        self._forget_undone()

    def _forget_undone(self) -> None:
        """After an Undo: the caption of an undone event goes, and the voice drops what it still had to say of it
        ("Aki steals wool from Ben." stayed under the board after the rob was undone, read as still standing)."""
        if self.table is None:
            return
        left = len(self.table.record.events)
        if self.announcer is not None:
            self.announcer.forget_from(left)
        shown = getattr(self, "_captioned", None)
        index = getattr(shown, "event_index", None)
        if index is not None and index >= left:
            self.caption, self._captioned = "", None

    # --- settings ----------------------------------------------------------------------------------------
    def apply_settings(self, settings: Settings) -> None:
        old_url, old_lang = self.settings.source_url(), self.settings.lang  # (Settings may show its choice already)
        self.settings = settings
        settings.save(self.data_dir)
        self.lang = settings.lang
        if settings.lang != old_lang:
            self._recaption()
            self.reset_game_screens(language_only=True)  # a refusal said in the old language goes
            if self._last_status is not None and self.source is not None:
                self._show_status(self._last_status)  # the dice panel's line in the new language too
        if self.announcer is not None:
            self.announcer.language = settings.lang
            self.announcer.volume = settings.volume
            self.announcer.muted = not settings.voice
            self._show_sound_notice(self.announcer)  # in the new language
        if self.table is not None and settings.source_url() != old_url and self._source_url is None:
            self._stop_source()
            self._start_source()

    def calibration_saved(self) -> None:
        """The camera calibration was saved: a camera source watching the table now starts again, so that it
        reads the new tray, colours and light (it loads the file when it starts)."""
        if self._camera_lent:
            return  # it starts, with the new calibration, when the calibration screen gives the camera back
        if self.table is not None and self.source is not None and self.source.name == "camera":
            self._stop_source()
            self._start_source()

    def lend_camera(self) -> None:
        """The calibration screen takes the camera: a camera source watching the table lets it go until
        :meth:`camera_returned` (a webcam, or a tablet's camera, opens for one user at a time: the screen's
        pictures would fail beside it)."""
        if self.table is not None and self.source is not None and self.source.name == "camera":
            self._stop_source()
            self._camera_lent = True
            self._set_status_text("idle", "")

    def camera_returned(self) -> None:
        """The calibration screen let the camera go: the table's camera source watches again (and reads what
        was saved meanwhile)."""
        if self._camera_lent:
            self._camera_lent = False
            if self.table is not None and self.source is None:
                self._start_source()

    # --- the announcer -----------------------------------------------------------------------------------
    def _start_announcer(self) -> None:
        try:
            from ..announce import Announcer

            players = self.table.record.players
            colors = [p["color"] for p in players]
            # Captions say the typed names; the voice says a name its player recorded, else the colour.
            voices = self.name_voices.load(self._voices_key(self.table))
            self.announcer = Announcer(colors, lang=self.settings.lang, player=self._audio_player,
                                       volume=self.settings.volume, muted=not self.settings.voice,
                                       names=[p.get("name") for p in players],
                                       voices={s: v for s, v in voices.items() if s < len(players)})
            # (shown at once when the table published on this thread -- a roll tapped or a camera's roll handed
            # over -- so the caption is drawn in the frame that shows the roll, not one frame later: under
            # load a frame was ~0.4 s; from another thread, a notice, on the next frame)
            self.announcer.add_caption_listener(self._caption_from_any_thread)
            # No sound device at the start, or the device lost mid-game: the table is told it gets captions only
            # (the listener runs on the announcer's thread, or at once here when the device was missing).
            announcer = self.announcer
            announcer.add_problem_listener(
                lambda problem: Clock.schedule_once(lambda dt: self._show_sound_notice(announcer)))
            # a device missing at the start is known now: the notice is there in the screen's first frame
            self._show_sound_notice(announcer)
            self.table.add_listener(self._announce)
        except Exception as error:  # the app works silently when the announcer cannot start
            log.warning("announcer unavailable: %s", error)
            self.announcer = None

    def _show_sound_notice(self, announcer) -> None:
        """The one-line "captions only" notice under the caption, in the app's language (shown, never said); a
        closed game's announcer reporting late changes nothing.  With the voice turned off in Settings the table
        asked for captions only: a missing sound device is then no news, and the line goes (back with the voice)."""
        if announcer is self.announcer:
            self.sound_notice = "" if announcer.muted else (announcer.audio_notice or "")

    def _announce(self, outcome) -> None:
        """Say what an event meant; a roll the camera read is said with its faces, so the table hears a misread."""
        from ..announce.phrases import read_by_camera

        if self.announcer is not None and self.table is not None:
            self.announcer.on_outcome(outcome, faces=read_by_camera(outcome, self.table.record.events),
                                      given_back=self.table.replaced_payouts.get(outcome.index),
                                      event=self.table.record.events[outcome.index])  # a trade said with its cards

    def _caption_from_any_thread(self, announcement) -> None:
        if threading.current_thread() is threading.main_thread():
            self._show_caption(announcement)
        else:
            Clock.schedule_once(lambda _dt: self._show_caption(announcement))

    def _show_caption(self, announcement) -> None:
        index = announcement.event_index
        if index is not None and self.table is not None and index >= len(self.table.record.events):
            return  # its event was undone before this frame showed it
        self.caption = announcement.caption
        self._captioned = announcement

    def _recaption(self) -> None:
        """After a language switch: the caption on screen in the new language -- its outcome phrased again --
        rather than a sentence left in the old one (a device notice's caption just goes)."""
        shown, self.caption = getattr(self, "_captioned", None), ""
        if shown is not None and shown.source == "reading" and self.held_camera_roll is not None:
            from ..announce.phrases import phrase_for_reading

            self.caption = phrase_for_reading(self.held_camera_roll.values, self.lang).caption
            return
        if shown is None or shown.source != "outcome" or self.table is None:
            return
        from ..announce import phrase_for_outcome
        from ..announce.phrases import read_by_camera

        outcomes, i = self.table.game.outcomes, shown.event_index
        if i is not None and i < len(outcomes) and outcomes[i].index == i:
            colors = [p["color"] for p in self.table.record.players]
            camera = read_by_camera(outcomes[i], self.table.record.events)
            phrase = phrase_for_outcome(outcomes[i], colors, self.lang, camera, self.table.replaced_payouts.get(i),
                                        [p.get("name") for p in self.table.record.players], self.table.record.events[i])
            self.caption = phrase.caption if phrase is not None else ""

    # --- the dice source -----------------------------------------------------------------------------------
    def source_url(self) -> str:
        return self._source_url or self.settings.source_url()

    def _start_source(self) -> None:
        from ..dice import open_source

        url = self.source_url()
        try:
            self.source = open_source(url)
        except (ValueError, OSError) as error:
            self.source = None
            # the source's own sentence is English (it names the option or port at fault): other languages say
            # where to put it right, with the address as typed
            self._set_status_text("error", str(error) if self.lang == "en" else self.tr("source_unusable", url=url))
            return
        self._source_lost = False
        if self.source.name == "camera":
            self.source.data_dir = self.data_dir  # the table's calibration lives beside its settings
        self.source.start(lambda roll: Clock.schedule_once(lambda dt: self.on_roll(roll)),
                          lambda status: Clock.schedule_once(lambda dt: self._on_status(status)))
        self._show_status(self.source.status)
        self.box_rolls = self.can_request_roll
        self.camera_watching = self.source.name == "camera"

    @property
    def can_request_roll(self) -> bool:
        """The source can roll on request (the simulator, a box with a roller)."""
        return self.source is not None and self.source.rolls_on_request

    def request_roll(self) -> bool:
        return bool(self.can_request_roll and self.source.request_roll())

    def manual_roll(self, a: int, b: int) -> None:
        """Dice tapped on the screen: through the manual source when it is the one in use, else
        straight in as a manual roll (the box is out of reach or broken: the table goes on)."""
        from ..dice import DiceRolled

        if self.source is not None and self.source.name == "manual":
            self.source.tap(a, b)  # calls back at once, on this (the main) thread
        else:
            self.on_roll(DiceRolled((a, b), "manual"))

    def _stop_source(self) -> None:
        self.box_rolls = self.camera_watching = False
        if self.source is not None:
            try:
                self.source.stop()
            except Exception:  # pragma: no cover - best effort
                log.exception("stopping the dice source failed")
            self.source = None

    def _on_status(self, status) -> None:
        self._show_status(status)
        state = status.state.value
        notice = None
        lost, back = CONNECTION_NOTICES.get(getattr(self.source, "name", ""), (None, None))
        if status.reroll:
            notice = "camera_reroll"  # "Please roll again": a crooked die, in the box or under the camera
            self._show_reroll_picture(status)
        elif lost is None:
            pass  # a tap or a simulated roller has no connection to lose
        elif state == "disconnected" and not self._source_lost:
            notice, self._source_lost = lost, True  # once per loss, not once per retry
        elif state == "connected" and self._source_lost:
            notice, self._source_lost = back, False
        if self.announcer is not None and notice is not None:
            try:
                if notice == "camera_reroll":  # with why: a die cocked, a spare die in the tray
                    self.announcer.on_reroll(status.reason, dict(status.params))
                else:
                    self.announcer.on_notice(notice)
            except Exception:
                log.exception("announcing %s failed", notice)

    def _show_reroll_picture(self, status) -> None:
        """A camera asked to roll again: show the dice it saw (the unreadable one framed red), which the request
        carries, where the roll would have been shown; its photo is kept for "show the photo"."""
        self.reroll_photo = status.photo
        screen = self._game_screen_widget() if self.table is not None else None
        if status.picture is not None and isinstance(screen, CameraPicture):
            screen.show_dice_picture(status.picture, caption="camera_saw_reroll")

    def _game_screen_widget(self):
        """The screen the live game is played on (None before the app is built)."""
        return self.root.get_screen(self.game_screen()) if self.root is not None else None

    def _show_status(self, status) -> None:
        """The dice panel's line for a source's status, in the app's language (again after a switch)."""
        from ..dice import PLAIN_REASONS

        self._last_status = status
        detail = status.detail
        if status.reason == f"box_{status.state.value}":
            # the box's own state word, the same as the line's ("simulated box: rolling… (rolling)", 「転がり中…（振って
            # います）」; session 18): said once
            detail = ""
        elif status.reason in PLAIN_REASONS:
            # said in plain words in every language: the error text of the port, twice "[Errno 2]", helps nobody at
            # a table (session 19: a cable pulled mid-game); it goes to the log
            log.info("dice source: %s", detail)
            detail = self.tr(f"why_{status.reason}", **dict(status.params))
        elif status.reason and self.lang != "en":
            # What the source says (why roll again, what it watches) in the user's language; its own
            # detail is English, with its singulars right ("1 die seen, expected 2").
            detail = self.tr(f"why_{status.reason}", **dict(status.params))
        elif self.lang != "en":
            detail = ""  # a detail with no words in the user's language: the state alone, not English
        self._set_status_text(status.state.value, detail, status.reroll)

    def _set_status_text(self, state: str, detail: str, reroll: bool = False) -> None:
        self.source_state = state
        url = self.source_url()
        scheme = url.split(":", 1)[0]
        name = self.tr(f"source_name_{scheme}") if f"source_name_{scheme}" in i18n.TEXT else scheme
        text = self.tr("source_line", source=name, state=self.tr("src_reroll" if reroll else f"src_{state}"))
        self.source_status = text + (self.tr("source_detail", detail=detail) if detail else "")

    def on_roll(self, roll) -> None:
        """A settled roll from any source (main thread)."""
        if self.journal is None:  # handed over just as the app shut down: nothing to record it in
            log.warning("a %s roll %s arrived after shutdown; not recorded", roll.source, roll.values)
            return
        if self.table is not None and roll.roll_id and self.table.holds_roll(roll.roll_id):
            # A box sending again a roll the game holds (its ack lost to a restart or a pulled cable): not
            # counted twice, and said on the dice panel, so that dice that seem ignored are explained.
            self._set_status_text(self.source_state, self.tr("roll_already_recorded",
                                                             dice=" + ".join(map(str, roll.values))))
            return
        play = self._game_screen_widget()
        # A camera's roll carries its picture and its photo of the settled dice (kept with the roll: the evidence
        # if it is disputed later); nothing of it is fetched back from the source.
        if roll.source == "camera" and self.settings.confirm_camera and play is not None and "confirm_roll" in play.ids:
            self._hold_for_ok(play, roll)  # recorded, shown and said once a player taps OK
            return
        held, self.held_camera_roll = self.held_camera_roll, None
        self.pending_roll = ""
        if held is not None and roll.source != "camera":
            # The dice tapped while the camera's reading waited: the same faces are its OK; others put it right
            # before anything was handed out (kept as a correction, with the camera's photo).
            if sorted(roll.values) == sorted(held.values):  # a player looked and agreed: a vouched label
                roll = dataclasses.replace(held, photo=held.photo and dataclasses.replace(held.photo, checked=True))
            elif play is not None:
                if not play.submit_roll(roll, held.photo, corrects=held):
                    self._hold_for_ok(play, held)  # refused by the rules: it still waits
                return
        recorded = play is not None and play.submit_roll(roll, roll.photo)
        if not recorded and held is not None and play is not None:
            self._hold_for_ok(play, held)  # refused by the rules (the reason is shown): the reading still waits
        elif recorded and isinstance(play, CameraPicture):
            # A camera's roll is shown as the camera saw it, so a misread is seen at once (Undo puts it right).
            play.show_dice_picture(roll.picture)

    def _hold_for_ok(self, play, roll) -> None:
        """A camera roll that waits for a player's OK (Settings: for a table that wants every roll checked
        before anything is handed out): shown as the camera read it (the roll carries its picture and photo),
        not recorded yet."""
        from .camera_picture import faces_text

        self.held_camera_roll = roll
        self.pending_roll = faces_text(roll.values)
        if self.announcer is not None:
            self.announcer.on_reading(roll.values)  # "Three and five.": checked against the dice before OK
        play.show_dice_picture(roll.picture, caption="camera_saw_confirm")

    def confirm_roll(self) -> None:
        """OK on the camera's reading that waits: recorded, shown and said as any camera roll."""
        from ..dice import DiceRolled

        if self.held_camera_roll is not None:
            self.on_roll(DiceRolled(self.held_camera_roll.values, "manual"))  # the same faces: its OK


def _tournament_screen():
    """The tournament desk's screen, when that part is installed (it is written separately)."""
    try:
        from .tournament_screen import TournamentScreen
    except ImportError:
        return None
    try:  # (its kv rules were loaded with its module, by widgets.load_rules)
        return TournamentScreen(name="tournament")
    except Exception:  # a broken optional screen must not stop the table app
        log.exception("the tournament screen could not be built")
        return None


def _calibration_screen():
    """The camera calibration screen (reached from Settings); None when the vision part cannot load."""
    try:
        from .calibration_screen import CalibrationScreen
        from .widgets import load_rules

        load_rules("calibration.kv")
        return CalibrationScreen(name="calibration")
    except Exception:  # a broken optional screen must not stop the table app
        log.exception("the calibration screen could not be built")
        return None


GAME_SCREENS = {"starfarers": "starfarers", "card-game": "card_game"}


def _game_screens() -> list:
    """The Starfarers and card-game live screens (written separately, each with its own kv file)."""
    screens = []
    for module in ("starfarers_screen", "card_game_screen"):
        try:
            screens.append(importlib.import_module(f".{module}", __package__).build_screen())
        except Exception:  # a broken optional screen must not stop the table app
            log.exception("the %s could not be built", module)
    return screens


def configure_kivy(width: int = 1280, height: int = 800) -> None:
    """Environment Kivy reads at import: no argv parsing, a tablet-sized window."""
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")
