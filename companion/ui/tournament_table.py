"""Menu → Tournament table: the tablet joins its table at the desk and plays the desk's game.

The players find the desk on the venue's network ("Find the desk": mDNS, :mod:`companion.desk_discovery`; one
tap on a desk found fills its address) or type the address the desk shows, then type the table's pairing code; the
desk answers with the table, the round, the players in seat order and the table's board, and "Start the game"
starts exactly that game. From then on :class:`DeskLinkKeeper` sends the game to the desk from the journal (the outbox) on a
thread of its own (:mod:`companion.desk_link`): play never waits on the network, and what the sender says (up
to date, offline, refused) reaches the screen through ``Clock.schedule_once``. The link is kept beside the
journal, so a restarted app resumes sending.

The tablet listens to the desk's stream (``/api/table/stream``, :class:`companion.desk_push.TableListener`, a thread
of its own): the round clock as the desk starts, pauses or resets it, the desk's end of the game by time and a
re-seat of the round arrive as they happen; while the stream is down the sender asks for the table every
:data:`FALLBACK_POLL` seconds instead. The clock is counted down here between what the desk says and shown on this
screen and, while a desk game is being sent, in a small badge over every screen; each warning (10, 5, 1 minutes,
time up) is shown once as it is passed. When the desk seats the round again, the screen says the table's new
players and "Start the game" starts the new game (the pairing stays). What the desk or the link says is shown in
the app's language (:mod:`.desk_link_text`).

Built in Python (no kv file of its own) and added to the app by :func:`install`, which also puts its button on
the start screen.
"""

from __future__ import annotations

import logging
import re
import threading
import time

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

from ..desk_discovery import FoundDesk, find_desks
from ..desk_link import Assignment, DeskLinkError, OutboxSender, join, load_link, request, save_link
from ..desk_push import TableListener
from ..tournament import clock as clock_mod
from .desk_link_text import link_text

log = logging.getLogger(__name__)

TEXTS = {
    "en": {"menu": "Tournament table", "title": "Join a table at the tournament desk",
           "address": "desk address (e.g. 192.168.1.20:8731)", "code": "table's pairing code", "join": "Join",
           "joining": "Asking the desk…", "start": "Start the game", "back": "Back",
           "joined": "{event}, round {round}, table {table}: {players}",
           "up to date": "Desk: up to date ({have} events)", "sending": "Desk: sending…",
           "offline": "Desk: not reachable, the game is kept and sent when it answers",
           "refused": "Desk refused: {message}",
           "not_taken": "Desk refused this game",
           "kept_other": "Desk: sent ({have} events), not taken: the desk already had a result for this table "
                         "(entered by {by})",
           "kept_other_short": "Desk kept the result it already had",
           "reseated": "The desk seated the round again. Table {table} now: {players}. Start the new game.",
           "clock": "Round clock {clock}", "clock_up": "Round clock: time is up",
           "ended_by_time": "The desk ended this game by the time limit.",
           "find": "Find the desk", "finding": "Looking for the desk on this network…",
           "found": "Tap the desk to use its address, then type the table's code.",
           "found_none": "No desk answered on this network. Type the address the desk shows "
                         "(e.g. 192.168.1.20:8731).",
           "chosen": "Desk of {event} at {address}: type the table's code."},
    "ja": {"menu": "大会の卓", "title": "大会本部で卓に参加", "address": "本部のアドレス（例 192.168.1.20:8731）",
           "code": "卓のペアリングコード", "join": "参加", "joining": "本部に問い合わせ中…", "start": "ゲームを始める",
           "back": "戻る", "joined": "{event} 第{round}ラウンド {table}卓：{players}",
           "up to date": "本部：送信済み（{have}件）", "sending": "本部：送信中…",
           "offline": "本部に届きません。記録は保存され、つながったら送ります",
           "refused": "本部が拒否：{message}",
           "not_taken": "本部がこのゲームを拒否",
           "kept_other": "本部：送信済み（{have}件）、ただし採用されていません：この卓の結果は本部にすでにあります"
                         "（入力：{by}）",
           "kept_other_short": "本部は先に入った結果のまま",
           "reseated": "本部が組み合わせをやり直しました。{table}卓は {players}。新しいゲームを始めてください。",
           "clock": "ラウンド残り {clock}", "clock_up": "ラウンド終了の時間です",
           "ended_by_time": "本部が時間切れでこのゲームを終了しました。",
           "find": "本部を探す", "finding": "このネットワークで本部を探しています…",
           "found": "本部をタップするとアドレスが入ります。次に卓のコードを入力してください。",
           "found_none": "このネットワークでは本部が見つかりませんでした。本部に表示されているアドレスを入力してください"
                         "（例 192.168.1.20:8731）。",
           "chosen": "{event}の本部（{address}）：卓のコードを入力してください。"},
}


WARNING_CLIPS = {600.0: "clock_10", 300.0: "clock_5", 60.0: "clock_1"}  # warnings said aloud (announce clips)
FIND_SECONDS = 3.0  # how long "Find the desk" listens: a desk on the LAN answers mDNS within a second
FALLBACK_POLL = 30.0  # seconds between asking for the table while the desk's stream is down (it was 10 s, always)
STREAM_CHECK = 300.0  # ... and while it is up (belt and braces: the stream says everything the answer would)


def text(key: str, **values) -> str:
    app = App.get_running_app()
    lang = getattr(app, "lang", "en") if app is not None else "en"
    return TEXTS.get(lang, TEXTS["en"]).get(key, TEXTS["en"][key]).format(**values)


def clock_line(view: clock_mod.ClockView, lang: str) -> str:
    """The round clock's line: the time left, or once it has run out that the round's time is up (it said
    「ラウンド残り 時間です」, "time left: Time!": session 17's trial)."""
    return text("clock_up") if view.time_up else text("clock", clock=clock_mod.clock_text(view, lang))


# The desk's note on a game whose table already had a result (tournament.referee.note_for_a_result_there)
KEPT_OTHER = re.compile(r"the desk already has a result for round \d+ table \d+ \(entered by (?P<by>.*)\);")


def kept_other(note) -> str | None:
    """Who entered the result the desk kept instead of this game's (its note says so), else None."""
    found = KEPT_OTHER.match(str(note or ""))
    return found.group("by") if found else None


def players_text(players) -> str:
    """The table's players as a list in the screen's language: "Aki, Ben" / 「佐藤、中村」 (the Japanese screen
    said 「佐藤, 中村, 田中, 山本」: session 16's trial)."""
    app = App.get_running_app()
    return ("、" if getattr(app, "lang", "en") == "ja" else ", ").join(players)


class DeskLinkKeeper:
    """The app's one outbox sender: started for the desk's game, woken by every journalled event, stopped with
    the app. ``status`` is the sender's last word, as the screen shows it."""

    def __init__(self, app):
        self.app = app
        self.sender: OutboxSender | None = None
        self._table = None
        self.on_status = None  # the screen's callback, on the main thread
        self.on_clock = None  # the screen's callback: (clock line, warning line) once a second
        self.told: dict | None = None  # the round clock as the desk last said it
        self.told_at = 0.0  # when (time.monotonic)
        self._heard = None  # the sender's stamp of the desk's last word (a status repeats it)
        self.ended_by_time = False  # the desk's note on this table's game says the time limit ended it
        self.last_view: clock_mod.ClockView | None = None
        self.warnings_said: list[str] = []  # each warning as shown, once
        self.badge: Label | None = None
        self._tick = None
        self.listener: TableListener | None = None  # the desk's stream for this table
        self.assignment: Assignment | None = None  # the table listened to (joined, its game maybe not started)
        self._asker: threading.Thread | None = None  # asks for the table after a re-seat heard before the start
        self._sender_note = None
        self.pushes = 0  # pushes heard from the desk (a status line and tests)
        self.clock_from = ""  # where the clock shown came from: "push" (the stream) or "poll" (the sender's ask)
        # the desk refused this table's game or its pairing (the table paired again, an event the desk's rules
        # refuse): said beside the play screen's prompt, where the table plays on (session 19's floor trial: a
        # tablet whose pairing was replaced mid-game played on with nothing said, the desk keeping none of it)
        self.refused = False
        # who entered the result the desk already had for this table when this game's win came (the desk kept that
        # one: its note), else None. Session 19's floor trial: such a tablet said only "Desk: sent (40)"
        self.kept_other: str | None = None

    def listen(self, assignment: Assignment) -> None:
        """Joined, the game not started yet: the desk's stream already brings the round clock and a re-seat. (Not
        while an earlier game is still being sent: that one keeps its link until the new game starts.)"""
        sender = self.sender
        if (sender is not None and sender.running and sender.status.get("state") != "reseated"
                and not self._sent_and_over(sender)):
            return
        # (a sender that reported a re-seat is done, though its thread may still be on its way out: under load the
        # report reached the screen first, this returned, and the old game's link was kept beside the new seating)
        # (so is one whose game is over and all at the desk: kept, the next round's joined screen still showed the
        # last round's "The desk ended this game by the time limit." and "Time!" and no clock of its own)
        self.stop()
        self.ended_by_time, self._sender_note, self.told, self.last_view = False, None, None, None
        self.listener = self._listener(assignment).start()
        self._tick = Clock.schedule_interval(lambda dt: self.tick(), 1.0)

    def _sent_and_over(self, sender) -> bool:
        """The sender's game is over in the journal and the desk has all of it: nothing is left to send."""
        if sender.status.get("state") != "up to date" or self.app.journal is None:
            return False
        game_id = sender.assignment.game_id
        return any(g.id == game_id and g.finished for g in self.app.journal.games())

    def start(self, assignment: Assignment) -> None:
        self.stop()
        self.ended_by_time, self._sender_note = False, None
        save_link(self.app.data_dir, assignment)
        listener = self._listener(assignment)
        self.sender = OutboxSender(self.app.journal.path, assignment,
                                   on_status=lambda s: Clock.schedule_once(lambda dt: self._status(s)),
                                   heartbeat=lambda: STREAM_CHECK if listener.connected.is_set() else FALLBACK_POLL
                                   ).start()
        self.listener = listener.start()
        self._watch(self.app.table)
        self._tick = Clock.schedule_interval(lambda dt: self.tick(), 1.0)

    def _listener(self, assignment: Assignment) -> TableListener:
        """The table's stream; what it hears goes to the main thread."""
        self.assignment = assignment
        return TableListener(assignment.desk, assignment.token,
                             on_push=lambda push: Clock.schedule_once(lambda dt: self._pushed(push)),
                             on_refused=lambda message: Clock.schedule_once(lambda dt: self._status(
                                 {"state": "refused", "message": message})))

    def resume(self) -> None:
        """At the app's start: a game joined before (and still in the journal) is sent on."""
        link = load_link(self.app.data_dir)
        if link is None or link.game_id is None or self.app.journal is None:
            return
        if any(g.id == link.game_id for g in self.app.journal.games()):
            self.start(link)

    def _watch(self, table) -> None:
        """Wake the sender whenever the open game journals an event (Table listeners run on the main thread)."""
        if self._table is not None:
            try:
                self._table.remove_listener(self._wake)
            except ValueError:
                pass
        self._table = table
        if table is not None:
            table.add_listener(self._wake)

    def _wake(self, _outcome) -> None:
        if self.sender is not None:
            self.sender.wake()

    def _status(self, status: dict) -> None:
        """The sender's word (on the main thread): its state, and what the desk answered (note, clock, end)."""
        if "note" in status and status["note"] != self._sender_note:  # (a status repeats the sender's last note)
            self._sender_note = status["note"]
            self.ended_by_time = str(status["note"] or "").startswith("ended by time limit")
            self.kept_other = kept_other(status["note"])
        if status.get("time_limit") is not None:
            self._journal_time_limit(int(status["time_limit"]))
        if status.get("state") in ("refused", "up to date"):
            self.refused = status["state"] == "refused"
        if status.get("clock") is not None and status.get("heard") != self._heard:
            self._heard = status.get("heard")
            self._told(status["clock"], "poll")
        if self.on_status is not None:
            self.on_status(status)

    def _pushed(self, push: dict) -> None:
        """The desk's stream (on the main thread): the round clock, the desk's view of the game, the players."""
        sender, assignment = self.sender, self.assignment
        if self.listener is None or assignment is None or not isinstance(push, dict):
            return  # (stopped meanwhile)
        self.pushes += 1
        if push.get("clock") is not None and isinstance(push["clock"], dict):
            self._told(push["clock"], "push")
        elif "clock" in push and push["clock"] is None:  # this round's clock not started (a new round's)
            self.told, self.last_view = None, None
        game = push.get("game")
        if sender is not None and isinstance(game, dict) and game.get("game") == sender.assignment.game_id:
            self.ended_by_time = str(game.get("note") or "").startswith("ended by time limit")
            self.kept_other = kept_other(game.get("note"))
            after = game.get("time_limit")
            if isinstance(after, int) and not isinstance(after, bool) and after >= 0:
                self._journal_time_limit(after)
        players = push.get("players")
        if isinstance(players, list) and [str(p) for p in players] != list(assignment.players):
            if sender is not None:
                sender.recheck()  # seated again: the sender asks for the table and reports the new game
            else:
                self._ask_for_table(assignment)
        self.tick()

    def _ask_for_table(self, assignment: Assignment) -> None:
        """A re-seat heard before the game started: the table's new game from the desk (on a thread), reported as
        the sender reports one (``reseated``)."""
        if self._asker is not None and self._asker.is_alive():
            return

        def ask():
            try:
                answer = request(assignment.desk, "GET", "/api/table", token=assignment.token)
                new = Assignment(assignment.desk, assignment.token, str(answer["event"]), int(answer["round"]),
                                 int(answer["table"]), tuple(str(p) for p in answer["players"]),
                                 dict(answer["header"]))
                new.record()
            except (DeskLinkError, KeyError, TypeError, ValueError) as error:
                log.info("the table could not be asked for after a re-seat: %s", error)
                return  # the next push asks again
            if new.header != assignment.header:
                Clock.schedule_once(lambda dt: self._status({"state": "reseated", "assignment": new.to_json()}))

        self._asker = threading.Thread(target=ask, name="desk-ask", daemon=True)
        self._asker.start()

    def _told(self, clock: dict, source: str) -> None:
        self.told, self.told_at, self.clock_from = clock, time.monotonic(), source
        self.tick()

    def _journal_time_limit(self, after: int) -> None:
        """The desk ended the table's game by time: the game's record says so too (the open game's table, so the
        play screen sees the game over; else the journal's game), where the desk's result stood. Said again at
        every heartbeat, so an end taken back at the table comes back."""
        game_id = self.sender.assignment.game_id if self.sender is not None else None
        table = getattr(self.app, "table", None)
        try:
            if table is not None and table.game_id == game_id:
                table.end_by_time(after)
            elif game_id is not None and self.app.journal is not None:
                from ..table import Table
                if Table(self.app.journal, game_id).end_by_time(after) is not None:
                    # the start screen listed it under "Resume a game" (a tablet restarted before the desk's end
                    # reached it): it is a finished game now
                    manager = getattr(self.app, "root", None)
                    if getattr(manager, "current", "") == "start":
                        manager.get_screen("start").refresh()
        except Exception:  # a journal that cannot be written says so elsewhere; the desk keeps its result
            log.exception("the desk's end by time could not be journalled")

    def clock_view(self) -> clock_mod.ClockView | None:
        return clock_mod.from_told(self.told, time.monotonic() - self.told_at)

    def tick(self) -> None:
        """Once a second: the clock's lines on the screen and the badge; a warning passed since the last look is
        said once."""
        view = self.clock_view()
        lang = getattr(self.app, "lang", "en")
        if self.refused and self.sender is not None:  # (the Tournament table screen says the desk's reason)
            self._show_badge(text("not_taken"))
            return
        if self.kept_other is not None and self.sender is not None:  # (the Tournament table screen says by whom)
            self._show_badge(text("kept_other_short"))
            return
        if view is not None and self.assignment is not None and view.round != self.assignment.round:
            view = None  # another round's clock (a desk from before session 16 told the last round's): not this one's
        if view is None:
            if self.sender is None and self.assignment is not None and self.on_clock is not None:
                self.on_clock(clock_mod.clock_text(None, lang, self.assignment.round), "")
            return
        if self.sender is None:  # joined, the game not started: shown here; said (once, aloud) when it is on
            warning = ""
            if view.time_up:
                warning = clock_mod.text(lang, "time_up")
            elif view.warning is not None:
                warning = clock_mod.text(lang, "warning", minutes=int(view.warning // 60))
            if self.on_clock is not None:
                self.on_clock(clock_line(view, lang), warning)
            return
        passed = clock_mod.new_warnings(self.last_view, view)
        for w in passed:
            self.warnings_said.append(clock_mod.text(lang, "warning", minutes=int(w // 60)))
        if passed and not view.time_up:  # said aloud: only the latest (a tablet joining late says one)
            self._announce(WARNING_CLIPS.get(passed[-1]))
        if view.time_up and not (self.last_view and self.last_view.time_up and self.last_view.round == view.round):
            self.warnings_said.append(clock_mod.text(lang, "time_up"))
            self._announce("clock_time_up")
            # the desk ends the games at time when it next looks at its clock; asking now brings its end at once
            # (the stream would say it at the desk's next look, up to 10 s later)
            self.sender.recheck()
        self.last_view = view
        line = clock_line(view, lang)
        if self.ended_by_time:
            line = text("ended_by_time")
        warning = self.warnings_said[-1] if view.warning is not None or view.time_up else ""
        self._show_badge(line)
        if self.on_clock is not None:
            self.on_clock(line, warning)

    def _announce(self, clip: str | None) -> None:
        """Said by the open game's announcer (its language, its volume), as the dice box's notices are."""
        announcer = getattr(self.app, "announcer", None)
        if clip is None or announcer is None:
            return
        try:
            announcer.on_notice(clip)
        except Exception:  # a missing clip or a closed player must not stop the clock
            log.exception("the round clock's warning could not be said")

    def _show_badge(self, line: str) -> None:
        """The clock's line: the play screen shows it beside its prompt (``app.desk_line``); over every other
        screen a small line at the top right (over the play screen's prompt it hid the prompt's words)."""
        from kivy.core.window import Window
        if self.badge is None:
            self.badge = Label(size_hint=(None, None), size=(dp(220), dp(28)), font_size=sp(16),
                               color=(1, 1, 1, 0.9), halign="right")
            Window.add_widget(self.badge)
            Window.bind(size=lambda *_: self._fit_badge())
            manager = getattr(self.app, "root", None)
            if manager is not None and hasattr(manager, "current"):
                manager.bind(current=lambda *_: self._place_badge())
        changed = self.badge.text != line
        self.badge.text = line
        self.app.desk_line = line
        if changed:
            self._fit_badge()
        else:
            self._place_badge()

    def _fit_badge(self) -> None:
        """The badge as wide as its line (a fixed 220 dp cut "The desk ended this game by the time limit." at the
        screen's right edge), wrapped only where the window is narrower than the line."""
        from kivy.core.window import Window
        badge = self.badge
        if badge is None:
            return
        limit = max(dp(40), Window.width - dp(16))
        badge.text_size = (None, None)
        badge.texture_update()
        if badge.texture_size[0] > limit:
            badge.text_size = (limit, None)
            badge.texture_update()
        badge.size = badge.texture_size
        self._place_badge()

    def _place_badge(self) -> None:
        from kivy.core.window import Window
        if self.badge is not None:
            self.badge.pos = (Window.width - self.badge.width - dp(8), Window.height - self.badge.height - dp(4))
            manager = getattr(self.app, "root", None)
            on_play = getattr(manager, "current", "") == "play"
            self.badge.opacity = 0 if on_play else 1

    def stop(self) -> None:
        self.refused, self.kept_other = False, None
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        if self._asker is not None:
            self._asker.join(15)
            self._asker = None
        if self.sender is not None:
            self.sender.stop()
            self.sender = None
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if self.badge is not None:
            from kivy.core.window import Window
            Window.remove_widget(self.badge)
            self.badge = None
            self.app.desk_line = ""
        self._watch(None)


class TournamentTableScreen(Screen):
    assignment = ObjectProperty(None, allownone=True)
    message = StringProperty("")
    link_status = StringProperty("")

    def __init__(self, keeper: DeskLinkKeeper, **kw):
        super().__init__(name="tournament_table", **kw)
        self.keeper = keeper
        keeper.on_status = self.show_status
        keeper.on_clock = self.show_clock
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
        self.title_label = Label(font_size=sp(24), size_hint_y=None, height=dp(48))
        self.address = TextInput(multiline=False, font_size=sp(22), write_tab=False)
        self.find_button = Factory.BigButton(size_hint_x=0.4)
        self.find_button.bind(on_release=lambda *_: self.find_desk())
        address_row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))
        address_row.add_widget(self.address)
        address_row.add_widget(self.find_button)
        # the desks "Find the desk" found, one button each (no height while there are none)
        self.found_row = BoxLayout(size_hint_y=None, height=0, spacing=dp(8))
        self.found: list[FoundDesk] = []
        self._finder: threading.Thread | None = None
        self.code = TextInput(multiline=False, size_hint_y=None, height=dp(56), font_size=sp(22), write_tab=False)
        self.join_button = Factory.BigButton(size_hint_y=None, height=dp(64))
        self.join_button.bind(on_release=lambda *_: self.join())
        self.info = Label(font_size=sp(20), size_hint_y=None, height=dp(80))
        self.info.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
        self.start_button = Factory.BigButton(size_hint_y=None, height=dp(64), disabled=True)
        self.start_button.bind(on_release=lambda *_: self.start_game())
        self.status_label = Label(font_size=sp(18), size_hint_y=None, height=dp(56))
        self.status_label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
        self.clock_label = Label(font_size=sp(28), size_hint_y=None, height=dp(44))
        self.warning_label = Label(font_size=sp(18), size_hint_y=None, height=dp(32), color=(1, 0.8, 0.3, 1))
        self.back_button = Factory.BigButton(size_hint_y=None, height=dp(64))
        self.back_button.bind(on_release=lambda *_: App.get_running_app().go("start"))
        for widget in (self.title_label, address_row, self.found_row, self.code, self.join_button, self.info,
                       self.start_button, self.status_label, self.clock_label, self.warning_label, self.back_button):
            box.add_widget(widget)
        box.add_widget(Label())  # the rest of the height
        self.add_widget(box)
        self.refresh()

    def on_pre_enter(self, *args) -> None:
        self.refresh()  # the language may have changed since the screen was built

    def refresh(self) -> None:
        """Texts in the app's language; the address joined last time, typed again for the players."""
        self.title_label.text = text("title")
        self.address.hint_text, self.code.hint_text = text("address"), text("code")
        self.join_button.text, self.start_button.text, self.back_button.text = text("join"), text("start"), text("back")
        self.find_button.text = text("find")
        app = App.get_running_app()
        if not self.address.text and app is not None:
            link = load_link(app.data_dir)
            if link is not None:
                self.address.text = link.desk.removeprefix("http://")

    # --- finding the desk ------------------------------------------------------------------------------------
    def find_desk(self) -> None:
        """Listen for desks on the network (mDNS) on a thread of its own for :data:`FIND_SECONDS`; what answered
        comes back to the main thread as one button per desk."""
        if self._finder is not None and self._finder.is_alive():
            return
        self.find_button.disabled = True
        self.info.text = text("finding")
        self._show_found([])

        def look():
            try:
                found = find_desks(FIND_SECONDS)
            except Exception:  # zeroconf's own trouble: nothing found, the typed address still works
                log.exception("looking for the desk failed")
                found = []
            Clock.schedule_once(lambda dt: self._found(found))

        self._finder = threading.Thread(target=look, name="desk-find", daemon=True)
        self._finder.start()

    def _found(self, found: list[FoundDesk]) -> None:
        self.find_button.disabled = False
        self._show_found(found)
        self.info.text = text("found") if found else text("found_none")
        if len(found) == 1:  # one desk on the network: its address is the one
            self.choose_desk(found[0])

    def _show_found(self, found: list[FoundDesk]) -> None:
        self.found = list(found)
        self.found_row.clear_widgets()
        for desk in found[:3]:  # a venue has one desk (two events at once at most); the rest is typed
            button = Factory.BigButton(text=f"{desk.event} — {desk.address}", font_size=sp(16))
            button.bind(on_release=lambda _b, d=desk: self.choose_desk(d))
            self.found_row.add_widget(button)
        self.found_row.height = dp(56) if found else 0

    def choose_desk(self, desk: FoundDesk) -> None:
        self.address.text = desk.address
        self.info.text = text("chosen", event=desk.event, address=desk.address)

    def stop_finding(self) -> None:
        """At exit: the finder ends by itself within a few seconds (zeroconf has no cancel); waited for here."""
        if self._finder is not None:
            self._finder.join(FIND_SECONDS + 5)
            self._finder = None

    # --- joining ---------------------------------------------------------------------------------------------
    def join(self) -> None:
        """Ask the desk on a thread of its own (a venue's Wi-Fi may take seconds); the answer comes back to the
        main thread."""
        address, code = self.address.text, self.code.text
        self.info.text = text("joining")
        self.join_button.disabled = True

        def ask():
            try:
                result: Assignment | DeskLinkError = join(address, code)
            except DeskLinkError as error:
                result = error
            Clock.schedule_once(lambda dt: self._joined(result))

        threading.Thread(target=ask, name="desk-join", daemon=True).start()

    def _joined(self, result) -> None:
        self.join_button.disabled = False
        if isinstance(result, DeskLinkError):
            self.assignment = None
            self.info.text = link_text(str(result), App.get_running_app().lang, result.key, result.values)
            self.start_button.disabled = True
            return
        self.assignment = result
        # A code works once: the field is emptied for the next round's (the used code stayed, the next one was typed
        # after it, and the desk refused "V7YNG7SAS39Y": session 17's trial)
        self.code.text = ""
        self.info.text = text("joined", event=result.event, round=result.round, table=result.table,
                              players=players_text(result.players))
        self.start_button.disabled = False
        self.keeper.listen(result)  # the clock and a re-seat are heard before the game starts
        if self.keeper.sender is None:  # (the last round's game, all at the desk, is not this table's any more)
            self.link_status = self.status_label.text = ""
            self.clock_label.text = self.warning_label.text = ""

    def start_game(self) -> None:
        """Start the desk's game (its players in seat order, its board) and send it to the desk as it is played."""
        a = self.assignment
        if a is None:
            return
        app = App.get_running_app()
        table = app.start_game(a.record(), title=f"{a.event}: round {a.round}, table {a.table}")
        self.keeper.start(a.with_game(table.game_id))
        self.start_button.disabled = True

    def show_clock(self, line: str, warning: str) -> None:
        self.clock_label.text, self.warning_label.text = line, warning

    def show_status(self, status: dict) -> None:
        state = status.get("state", "")
        if state == "reseated":  # the same pairing, the table's new players: the next Start starts their game
            self.assignment = Assignment.from_json(status["assignment"])
            self.keeper.listen(self.assignment)  # the old game's link stops; the table is still listened to
            self.link_status = text("reseated", table=self.assignment.table, players=players_text(self.assignment.players))
            self.info.text = text("joined", event=self.assignment.event, round=self.assignment.round,
                                  table=self.assignment.table, players=players_text(self.assignment.players))
            self.start_button.disabled = False
        elif state == "up to date" and self.keeper.kept_other is not None:
            self.link_status = text("kept_other", have=status.get("have", 0), by=self.keeper.kept_other)
        elif state in ("up to date", "sending", "offline"):
            self.link_status = text(state, have=status.get("have", 0))
        else:
            self.link_status = text("refused", message=link_text(str(status.get("message", "")),
                                                                 App.get_running_app().lang,
                                                                 str(status.get("key") or ""), status.get("values")))
        self.status_label.text = self.link_status


def install(app, manager) -> None:
    """Add the screen to the app and its button to the start screen (beside Tournament); the keeper resumes a
    joined game's sending and stops with the app."""
    try:
        keeper = DeskLinkKeeper(app)
        app.desk_link = keeper
        screen = TournamentTableScreen(keeper)
        manager.add_widget(screen)
        start = manager.get_screen("start")
        menu = start.ids.tournament.parent
        button = Factory.BigButton(text=text("menu"))
        button.bind(on_release=lambda *_: app.go("tournament_table"))
        app.bind(lang=lambda *_: setattr(button, "text", text("menu")))
        menu.add_widget(button)
        def stop(*_) -> None:  # (returns None: a handler returning a true value would keep the app's own on_stop
            keeper.stop()    # -- its announcer, source and journal closing -- from running)
            screen.stop_finding()

        app.bind(on_start=lambda *_: keeper.resume(), on_stop=stop)
        app.bind(table=lambda _app, table: keeper._watch(table) if keeper.sender is not None else None)
    except Exception:  # an optional screen must not stop the table app
        log.exception("the tournament table screen could not be added")
