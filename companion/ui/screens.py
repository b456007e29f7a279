"""The screens' behaviour (their layout is in ``companion.kv``).

Screens read the live game through ``app.table`` and send it inputs as record events; every
legality question goes to the rules core (``legal_*`` queries, the last :class:`Outcome`, or the
``RulesError`` a refused event raises, whose message is shown as it is).  Nothing here decides
what the rules allow.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.utils import escape_markup
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ..dice import DiceRolled, RollPhoto
from ..dice.camera import camera_entry
from ..record import COLORS, Record
from ..rules import IllegalAction, RulesError, board_from_json, board_problems, game_class, standard_board
from ..rules.board import BASE_SPEC, EXTENSION_SPEC, Board, Tile
from ..rules.errors import BoardError
from .board_view import PLAYER_COLORS
from .camera_picture import (CameraPicture, CameraRollButton, camera_rolls, faces_text, open_roll_photo,
                             photo_texture, roll_events)
from .choices import BigButton, BigToggle, ChoicePanels
from .i18n import cards_text
from .name_voice import SetupVoices, say_name_button
from .play_panels import (build_row, buy_button, confirmation, cost_card, reveal_button, reveal_panel,
                          tile_details)
from .refusals_text import app_describe, app_places, places_for, refusal_spots
from .tide_text import tide_text
from .settings import SOURCE_KINDS
from .umpire_notes import add_note_rows

from ..assets import read_json as read_asset_json
GAMES = ("base", "base56", "seafarers", "high-tide", "starfarers", "card-game")
OWN_SCREEN = ("starfarers", "card-game")  # games with their own live screen and no hex board
DEFAULT_NAMES = ("Aki", "Ben", "Chie", "Dan", "Emi", "Fumi")


def app() -> Any:
    return App.get_running_app()


def as_json(spot) -> list:
    """An interchange name (vertex, edge or hex) as JSON lists."""
    if isinstance(spot[0], tuple):
        return [list(h) for h in spot]
    return list(spot)


log = logging.getLogger(__name__)

# --- start -----------------------------------------------------------------------------------------

class StartScreen(Screen):
    def __init__(self, **kw):
        super().__init__(name="start", **kw)

    def refresh(self) -> None:
        a = app()
        box = self.ids.games
        box.clear_widgets()
        rescue = getattr(a, "journal_rescue", None)
        if rescue is not None:  # the journal could not be opened: what was kept aside, what was carried over
            from .journal_notice import notice_label

            box.add_widget(notice_label(rescue, a.lang))
        games = a.journal.games(unfinished_only=True) if a.journal is not None else []
        if not games:
            box.add_widget(Label(text=a.tr("no_unfinished"), size_hint_y=None, height=dp(56), font_size=sp(20)))
        for info in sorted(games, key=lambda g: -g.updated):
            button = BigButton(text=resume_line(a, info))
            button.bind(on_release=lambda _b, gid=info.id: a.resume_game(gid))
            box.add_widget(button)
        self.ids.tournament.disabled = not a.has_screen("tournament")
        self.ids.tournament.opacity = 1 if a.has_screen("tournament") else 0


def resume_line(a, info) -> str:
    """A game on the resume list as a table remembers it: the game, the turn, each player's points, the date
    it was last played ("#3 Base 3–4 — turn 12 — Aki 5, Ben 4, Chie 3 — 26 Nov 14:05")."""
    import time

    from ..record import replay

    when = time.strftime("%d %b %H:%M" if a.lang == "en" else "%m/%d %H:%M", time.localtime(info.updated))
    names = [p.get("name") or a.tr(p["color"]) for p in info.players]
    try:
        game = replay(a.journal.load(info.id))
        points = [(game.victory_points(p, hidden=False) if hasattr(game, "victory_points") else None)
                  for p in range(len(names))]
        turn = game.state.turn_number if hasattr(game.state, "turn_number") else None
    except Exception:  # a record that no longer replays still gets its line (resuming it says why)
        points, turn = [None] * len(names), None
    players = ", ".join(f"{n} {v}" if v is not None else n for n, v in zip(names, points))
    turn_text = a.tr("resume_setup") if not turn else a.tr("resume_turn", n=turn)
    return a.tr("resume_line", id=info.id, game=a.tr("g_" + info.game), turn=turn_text, players=players, when=when)


# --- new game --------------------------------------------------------------------------------------

class NewGameScreen(Screen):
    game = StringProperty("base")
    count = NumericProperty(4)
    message = StringProperty("")
    board_json = ObjectProperty(None, allownone=True)

    def __init__(self, **kw):
        super().__init__(name="new_game", **kw)
        self.names: list[str] = list(DEFAULT_NAMES)
        self.colors: list[str] = list(COLORS)
        self.voices = SetupVoices()  # each player's name said into the microphone (said in the place of the colour)
        Clock.schedule_once(lambda dt: self.refresh())
        # the seats' colour buttons are words too: in the new language at once
        Clock.schedule_once(lambda _dt: app().bind(lang=lambda *_: self._players_rows()))

    def refresh(self) -> None:
        self._players_rows()
        if self.board_json is None:
            self.generate()
        self._show_board()

    def allowed_counts(self) -> tuple[int, ...]:
        cls = game_class(self.game)
        return tuple(range(cls.min_players, cls.max_players + 1))

    def set_game(self, game: str) -> None:
        self.game = game
        counts = self.allowed_counts()
        if self.count not in counts:
            self.count = counts[0] if game == "base56" else min(4, counts[-1])
        self.board_json = None
        self.refresh()

    def set_count(self, n: int) -> None:
        if n not in self.allowed_counts():
            self.message = f"{self.game}: {self.allowed_counts()[0]}-{self.allowed_counts()[-1]}"
            return
        size_changed = (n >= 5) != (self.count >= 5)
        self.count = n
        if size_changed:
            self.board_json = None
        self.refresh()

    def _players_rows(self) -> None:
        a = app()
        grid = self.ids.players
        grid.clear_widgets()
        for i in range(self.count):
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))  # a finger's height (48 dp and more)
            seat = Label(text=str(i + 1), size_hint_x=None, width=dp(30), font_size=sp(20))
            name = TextInput(text=self.names[i], multiline=False, font_size=sp(20), write_tab=False)
            name.bind(text=lambda _w, text, i=i: self.names.__setitem__(i, text))
            colour = Button(text=a.tr(self.colors[i]), size_hint_x=None, width=dp(130), font_size=sp(18),
                            background_normal="", background_color=(*PLAYER_COLORS[self.colors[i]], 1),
                            color=(0, 0, 0, 1) if self.colors[i] in ("white", "orange") else (1, 1, 1, 1))
            colour.bind(on_release=lambda _b, i=i: self.next_color(i))
            up = Button(text="↑", size_hint_x=None, width=dp(52), font_size=sp(22), disabled=i == 0)
            up.bind(on_release=lambda _b, i=i: self.move_up(i))
            say = say_name_button(self.voices, i, a.tr)
            for w in (seat, name, colour, up, say):
                row.add_widget(w)
            grid.add_widget(row)

    def next_color(self, i: int) -> None:
        """Cycle seat ``i`` to the next colour nobody else at the table uses."""
        taken = set(self.colors[:self.count]) - {self.colors[i]}
        k = COLORS.index(self.colors[i])
        for step in range(1, len(COLORS) + 1):
            c = COLORS[(k + step) % len(COLORS)]
            if c not in taken:
                j = self.colors.index(c)
                self.colors[i], self.colors[j] = self.colors[j], self.colors[i]
                break
        self._players_rows()

    def move_up(self, i: int) -> None:
        """Seat order: swap seat ``i`` with the one before it."""
        for seq in (self.names, self.colors):
            seq[i - 1], seq[i] = seq[i], seq[i - 1]
        self.voices.swap(i - 1, i)
        self._players_rows()

    def seed(self) -> int:
        try:
            return int(self.ids.seed.text)
        except ValueError:
            return 1

    def generate(self) -> None:
        """A seeded standard board (or the High Tide map for this table size)."""
        if self.game in OWN_SCREEN:
            from .starfarers_screen import new_game_board

            self.board_json = new_game_board(self.game, self.count)
        elif self.game == "high-tide":
            size = "5-6" if self.count >= 5 else "3-4"
            self.board_json = read_asset_json("boards", f"high-tide-{size}.json")
        else:
            spec = EXTENSION_SPEC if self.count >= 5 else BASE_SPEC
            separate = self.ids.separate.active if "separate" in self.ids else True
            before = self.board_json
            self.board_json = standard_board(self.seed(), spec=spec, separate_red_numbers=separate).to_json()
            if before is not None and self.board_json == before:  # a tap that seemed to do nothing: say why
                self.message = app().tr("same_board", seed=self.seed())
                self._show_board()
                return
        self.message = ""
        self._show_board()

    def _show_board(self) -> None:
        if self.game in OWN_SCREEN:
            self.ids.preview.board = None
            return
        self.ids.preview.marked = []
        try:
            self.ids.preview.board = board_from_json(self.board_json, check=False)
        except BoardError as error:
            self.message = app_describe(error)

    def board_problems(self, board: Board) -> list:
        """What Start refuses about ``board`` for the game and options chosen here: the one check the board
        editor shows while a board is entered and Start makes before the game begins (the format, the 6s and
        8s kept apart when the table chose so, the standard set's pieces for the base game)."""
        spec = None
        if self.game in ("base", "base56"):
            spec = EXTENSION_SPEC if self.count >= 5 else BASE_SPEC
        separate = bool(self.options().get("separate_red_numbers"))
        return board_problems(board, standard=spec, separate_red_numbers=separate)

    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.game not in ("high-tide", *OWN_SCREEN) and self.ids.separate.active:
            out["separate_red_numbers"] = True
        if self.game == "high-tide":
            for key, opt in (("leader_vp8", "leader_vp"), ("robber_to_desert", "robber_to_desert"),
                             ("flood_all", "flood_all"), ("spring_tide", "spring_tide")):
                if self.ids[key].active:
                    out[opt] = 8 if opt == "leader_vp" else True
        return out

    def record(self) -> Record:
        from .player_names import typed_name  # NFC, nothing invisible; refused in the player's language

        players = [{"name": typed_name(self.names[i], i + 1, app().lang) or app().tr(self.colors[i]),
                    "color": self.colors[i]} for i in range(self.count)]
        return Record(self.game, players, dict(self.board_json), self.options())

    def start(self) -> None:
        a = app()
        if self.game not in OWN_SCREEN:
            try:
                board = board_from_json(self.board_json, check=False)
            except BoardError as error:
                self.message = app_describe(error)
                return
            problems = self.board_problems(board)
            if problems:  # said as the editor says them, the hexes ringed on the preview; nothing starts
                self.message = problems_text(problems, board)
                self.ids.preview.marked = problem_spots(problems)
                return
        try:
            self.voices.stop()  # a name being said now is kept
            a.start_game(self.record(), voices=self.voices.recorded(self.count))
        except (ValueError, RulesError) as error:
            self.message = app_describe(error)

    def edit_board(self) -> None:
        editor = app().root.get_screen("board_editor")
        editor.load(self.board_json, back="new_game")
        app().go("board_editor")


# --- board entry -------------------------------------------------------------------------------------

class BoardEditorScreen(Screen):
    """Enter the board on the table: tap a hex, then a terrain or a number; validation names each problem."""

    selected = ObjectProperty(None, allownone=True)
    message = StringProperty("")
    valid = BooleanProperty(False)  # the message says the board is good (shown as success, not as a problem)
    path = StringProperty("")
    mode = StringProperty("hex")

    def __init__(self, **kw):
        super().__init__(name="board_editor", **kw)
        self.tiles: dict = {}
        self.harbors: dict = {}
        self.robber = None
        self.pirate = None
        self.back = "new_game"
        self.path = str(Path.home() / "catan-board.json")
        # the problems (or "Board is valid."), the selection's name and the harbor words follow the language
        Clock.schedule_once(lambda _dt: app().bind(lang=lambda *_: self._update() if self.tiles else None))

    def load(self, data: dict | None, back: str = "new_game") -> None:
        self.back = back
        board = board_from_json(data, check=False) if data else standard_board(1)
        self.tiles = dict(board.tiles)
        self.harbors = dict(board.harbors)
        self.robber, self.pirate = board.robber, board.pirate
        self.selected = None
        self._update()

    def refresh(self) -> None:
        if not self.tiles:
            self.load(None, self.back)
        self._update()

    def board(self) -> Board:
        return Board(dict(self.tiles), dict(self.harbors), self.robber, self.pirate)

    def to_json(self) -> dict:
        return self.board().to_json()

    def on_hex(self, hex_) -> None:
        self.selected = hex_
        self.ids.board.flash = hex_
        self._update()

    def set_mode(self, mode: str) -> None:
        """``"hex"``: taps pick hexes (terrain, number); ``"harbor"``: taps pick coast sides."""
        self.mode = mode
        self.selected = None
        self.ids.board.flash = None
        self._update()

    def on_edge(self, edge) -> None:
        self.selected = edge
        self.ids.board.flash = edge
        self._update()

    def set_harbor(self, trade: str | None) -> None:
        """Put a harbor (``"3:1"`` or a resource; None removes it) on the selected side."""
        if self.selected is None or self.mode != "harbor":
            return
        if trade is None:
            self.harbors.pop(self.selected, None)
        else:
            self.harbors[self.selected] = trade
        self._update()

    def set_terrain(self, terrain: str) -> None:
        if self.selected is None or self.mode != "hex":
            return
        old = self.tiles.get(self.selected)
        number = old.number if old is not None and terrain not in ("sea", "desert") else None
        self.tiles[self.selected] = Tile(terrain, number, old.islet if old else False)
        if terrain == "desert" and (self.robber is None or not self.tiles.get(self.robber, Tile("sea")).is_land):
            self.robber = self.selected
        self._update()

    def set_number(self, number: int | None) -> None:
        if self.mode != "hex" or self.selected is None or self.selected not in self.tiles:
            return
        t = self.tiles[self.selected]
        self.tiles[self.selected] = Tile(t.terrain, number, t.islet)
        self._update()

    def problems(self) -> list:
        """The new-game screen's check (the one Start makes) of the board as entered."""
        return app().root.get_screen("new_game").board_problems(self.board())

    def _update(self) -> None:
        a = app()
        view = self.ids.board
        view.board = self.board()
        view.robber, view.pirate = self.robber, self.pirate
        board = view.board
        if self.mode == "harbor":
            # the sides a harbor can take: land on one side, sea (or nothing) on the other
            view.pick = "edge"
            view.legal = frozenset(e for e in board.edges if board.is_land(e[0]) != board.is_land(e[1]))
        else:
            view.pick = "hex"
            view.legal = frozenset()
        problems = self.problems()
        view.marked = problem_spots(problems)  # the hexes a problem names, both of two that clash
        self.valid = not problems
        self.message = problems_text(problems, board) if problems else a.tr("board_ok")
        sel = self.selected
        places = app_places(board)
        if sel is None:
            self.ids.selected.text = ""
        elif self.mode == "harbor":
            trade = self.harbors.get(sel)
            self.ids.selected.text = f"{places.edge(sel)} — {a.tr('harbor')}: {harbor_word(trade) if trade else '—'}"
        else:
            self.ids.selected.text = places.hex(sel) if sel in self.tiles else ""

    def export(self) -> None:
        self.valid = False  # the message now says where the board went (or why not)
        path = Path(self.ids.path.text.strip() or self.path)
        try:
            path.write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")
        except OSError as error:
            self.message = f"{path}: {error.strerror or error}"
            return
        self.message = app().tr("saved_to", path=str(path))

    def import_(self) -> None:
        self.valid = False
        path = Path(self.ids.path.text.strip() or self.path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.load(data, self.back)
        except OSError as error:
            self.message = f"{path}: {error.strerror or error}"
        except json.JSONDecodeError as error:
            self.message = f"{path}: not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        except BoardError as error:
            self.message = f"{path}: {app_describe(error)}"

    def use(self) -> None:
        problems = self.problems()
        if problems:
            return  # the message already names them; nothing changes
        new_game = app().root.get_screen("new_game")
        new_game.board_json = self.to_json()
        app().go(self.back)


def problem_spots(problems) -> list:
    """Every spot the board problems name, once each (what the board view rings)."""
    spots: list = []
    for p in problems:
        for spot in refusal_spots(p):
            if spot not in spots:
                spots.append(spot)
    return spots


def problems_text(problems, board) -> str:
    """The board problems as a list in the user's language, places said as players say them (at most four,
    then "…")."""
    a = app()
    listed = "\n".join(f"• {app_describe(p, board)}" for p in problems[:4]) + ("\n…" if len(problems) > 4 else "")
    return a.tr("problems", n=len(problems), first="") + "\n" + listed


def harbor_word(trade: str) -> str:
    """A harbor as the board says it in the user's language: "3:1" or "2:1 lumber"."""
    return trade if trade == "3:1" else f"2:1 {app().tr(trade)}"


# --- live play --------------------------------------------------------------------------------------

class PlayScreen(CameraPicture, ChoicePanels, Screen):
    """The board with all pieces, the turn, the dice panel, the 7 helper, building, undo/redo."""

    prompt = StringProperty("")
    phase = StringProperty("")
    message = StringProperty("")
    roll_text = StringProperty("")
    payout_text = StringProperty("")
    tide_text = StringProperty("")
    build_piece = StringProperty("")     # the piece a main-phase tap builds
    die_a = NumericProperty(0)
    selection = DictProperty({})         # discard / gold / trade choices
    refused = DictProperty({})           # the last event the rules refused: {"event", "why"} (umpire offer)
    confirming = BooleanProperty(False)  # the umpire's "record anyway" awaits its confirmation

    def __init__(self, **kw):
        super().__init__(name="play", **kw)
        Clock.schedule_once(self._bind)

    def _bind(self, _dt) -> None:
        app().bind(revision=lambda *_: self.refresh(), lang=lambda *_: self.refresh())
        board = self.ids.board
        board.bind(on_vertex=lambda _w, v, ok: self.tap_vertex(v, ok), on_edge=lambda _w, e, ok: self.tap_edge(e, ok),
                   on_hex=lambda _w, h, ok: self.tap_hex(h, ok))
        self.ids.actions.parent.bind(scroll_y=keep_in_view)

    # --- state ---------------------------------------------------------------------------------
    @property
    def game(self):
        t = app().table
        return t.game if t is not None and app().game_screen() == "play" else None

    def submit(self, event: dict) -> bool:
        """Send one input to the table; a refusal is shown with the rules' reason and changes nothing."""
        kept = (self.selection, self.build_piece)
        # Cleared before the table publishes, so the refresh it sets off draws the panel closed.
        self.selection, self.build_piece, self.message = {}, "", ""
        self.refused, self.confirming = {}, False
        self.ids.board.marked = []
        try:
            outcome = app().table.submit(event)
        except RulesError as error:
            self.selection, self.build_piece = kept  # a refusal changes nothing, the choices included
            self.message = app().tr("illegal", why=app_describe(error))
            self.ids.board.marked = refusal_spots(error)  # the places the words name, ringed
            if isinstance(error, IllegalAction) and not event.get("forced"):
                # A rule breach (not a malformed entry): the umpire may record it anyway, flagged.
                self.refused = {"event": dict(event), "why": app_describe(error)}
            self.refresh()
            return False
        if outcome.warnings:  # a forced entry: say which rules it broke
            self.message = app().tr("forced_done", why="; ".join(app_describe(w) for w in outcome.warnings))
        said = confirmation(self.game, outcome, event)
        if said:  # a card bought, a trade made, VP cards shown: the caption under the board confirms it
            app().caption = said
        return True

    def reset_for_new_game(self) -> None:
        """Forget everything this screen showed of the game before: a refusal and its umpire offer, the choices
        being made, the armed build, the first die tapped, a note being typed, the camera's picture.  Called when
        a game starts or is resumed and when the language changes (a sentence in the old language would stay)."""
        self.selection, self.build_piece, self.message = {}, "", ""
        self.refused, self.confirming = {}, False
        self.die_a = 0
        self.note_draft = ""
        self.roll_text = self.payout_text = ""
        if "board" in self.ids:
            self.ids.board.flash, self.ids.board.marked = None, []
        # the last game's camera picture goes; the new game's own (kept in the journal) is looked up again
        self.dice_picture, self._picture_of_roll, self._kept_picture_sought = None, -1, None

    def reset_for_new_language(self) -> None:
        """The language changed: a refusal said in the old language goes, and with it its umpire offer; the
        choices being made (an armed build, a trade half filled in, the first die tapped) stay."""
        self.message, self.refused, self.confirming = "", {}, False
        if "board" in self.ids:
            self.ids.board.flash, self.ids.board.marked = None, []

    def force(self) -> None:
        """The umpire's "record anyway": first ask, then resubmit the refused event with ``forced``."""
        if not self.refused:
            return
        if not self.confirming:
            self.confirming = True
            self.refresh()
            return
        event = {**self.refused["event"], "forced": True}
        if self.submit(event):
            self.ids.board.flash = None

    def cancel_force(self) -> None:
        self.refused, self.confirming = {}, False
        self.refresh()

    def submit_roll(self, roll: DiceRolled, photo: RollPhoto | None = None, corrects: DiceRolled | None = None) -> bool:
        """Record a settled roll (and its ``photo``, a camera's, kept with it; ``corrects``: the camera's roll it
        puts right before it was recorded, whose photo that is); False (and the rules' reason shown) when the
        table does not take it."""
        if app().table is None:
            return False
        try:
            if app().table.roll(roll, photo, corrects) is None:
                return False  # a roll the game already holds (a box resending it): nothing new to show
        except RulesError as error:
            self.message = app().tr("illegal", why=app_describe(error))
            return False
        self.message = ""
        self.selection = {}
        self.refused, self.confirming = {}, False  # a new state: an earlier refusal is no longer on offer
        self.die_a = 0
        self.refresh_dice_buttons()
        return True

    def roll_box(self) -> None:
        """Ask the source to roll (the simulator in the demo, a box with a roller)."""
        if not app().request_roll():
            self.message = app().tr("illegal", why=app().source_status)

    def _auto_roll(self, _dt=None) -> None:
        """Demo: the simulated player rolls whenever the table waits for a roll."""
        g = self.game
        if app().demo and g is not None and g.state.phase in ("roll", "special_build") and self.manager.current == "play":
            app().request_roll()

    def tap_die(self, value: int) -> None:
        """Manual dice: the first tap is one die, the second the other; then the roll goes in."""
        if self.die_a == 0:
            self.die_a = value
            self.refresh_dice_buttons()
            return
        a, self.die_a = self.die_a, 0
        app().manual_roll(a, value)

    def undo(self) -> None:
        t = app().table
        if t is not None and t.undo() is not None:
            self.message = ""
            self.refused, self.confirming = {}, False
            app().changed()

    def redo(self) -> None:
        t = app().table
        if t is None:
            return
        self.refused, self.confirming = {}, False
        try:
            if t.redo() is None:
                return
        except RulesError as error:
            self.message = app().tr("illegal", why=app_describe(error))
        app().changed()

    # --- taps on the board --------------------------------------------------------------------------
    def tap_vertex(self, v, legal: bool) -> None:
        g = self.game
        if self.selection.get("mode") == "umpire":
            self._remove_piece(v)
            return
        who = g.waiting_for()
        piece = "settlement" if g.state.phase == "setup_settlement" else (self.build_piece or "settlement")
        ok = self.submit({"type": "build", "player": who, "piece": piece, "at": as_json(v)})
        self.ids.board.flash = None if ok else v

    def tap_edge(self, e, legal: bool) -> None:
        g = self.game
        if self.selection.get("mode") == "umpire":
            self._remove_piece(e)
            return
        who = g.waiting_for()
        if g.state.phase == "setup_road":
            pieces = [p for p, x in g.legal_setup_links() if x == e]
            piece = self.build_piece if self.build_piece in pieces else (pieces[0] if pieces else "road")
        else:
            piece = self.build_piece or "road"
        ok = self.submit({"type": "build", "player": who, "piece": piece, "at": as_json(e)})
        self.ids.board.flash = None if ok else e

    def _remove_piece(self, spot) -> None:
        """Umpire: take the tapped piece off the board (the rules refuse a spot with nothing on it)."""
        ok = self.submit({"type": "remove_piece", "at": as_json(spot)})
        self.ids.board.flash = None if ok else spot

    def tap_hex(self, h, legal: bool) -> None:
        g = self.game
        if self.selection.get("mode") == "umpire":
            return
        phase = g.state.phase
        if phase == "move_robber":
            kind = "move_pirate" if h in g.board.sea else "move_robber"
            event = {"type": kind, "to": list(h)}
        elif phase == "flood":
            event = {"type": "flood", "at": list(h)}
        else:  # a dike
            event = {"type": "build", "player": g.waiting_for(), "piece": "dike", "at": list(h)}
        ok = self.submit(event)
        self.ids.board.flash = None if ok else h

    # --- drawing ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        a = app()
        g = self.game
        if g is None or "board" not in self.ids:
            return
        s = g.state
        view = self.ids.board
        view.colors = [p["color"] for p in a.table.record.players]
        view.board = g.board
        view.buildings = dict(s.buildings)
        view.pieces = dict(s.pieces)
        view.robber, view.pirate = s.robber, s.pirate
        tide = getattr(g, "tide", None)
        view.dikes = [tuple(h) for h in tide.dikes] if tide is not None else []
        who = g.waiting_for()
        name = a.player_name(who)
        phase = self.phase = s.phase
        last = a.table.last_outcome
        n_owed = s.discards_owed.get(who, 0) if phase == "discard" else s.gold_owed.get(who, 0)
        if phase == "game_over":
            name = a.player_name(s.winner)
        self.prompt = a.tr(f"p_{phase}", name=name, n=n_owed)
        self._offer(g, phase, who, last)
        self._vp_board(g)
        self._last_roll(g, last)
        self._tide(g, last)
        self._actions(g, phase, who)
        self.refresh_dice_buttons()
        if a.demo and phase == "roll":
            Clock.unschedule(self._auto_roll)
            Clock.schedule_once(self._auto_roll, 2.0)

    def _offer(self, g, phase: str, who, last) -> None:
        """Which spots the board offers now -- all from the rules core."""
        view = self.ids.board
        pick, legal = "", frozenset()
        if self.selection.get("mode") == "umpire":
            # Umpire: the pieces on the board, to take one off (buildings or roads/ships, as chosen).
            remove = self.selection.get("u_remove")
            if remove == "vertex":
                pick, legal = "vertex", frozenset(g.state.buildings)
            elif remove == "edge":
                pick, legal = "edge", frozenset(g.state.pieces)
        elif phase == "setup_settlement":
            pick, legal = "vertex", frozenset(g.legal_settlement_spots_setup())
        elif phase == "setup_road":
            pick, legal = "edge", frozenset(e for _, e in g.legal_setup_links())
        elif phase == "move_robber":
            hexes = (last.robber_hexes + last.pirate_hexes) if last is not None and last.next == "move_robber" else ()
            if not hexes:
                hexes = tuple(g.robber_hexes()) + tuple(getattr(g, "pirate_hexes", tuple)())
            pick, legal = "hex", frozenset(hexes)
        elif phase == "flood":
            pick, legal = "hex", frozenset(g.tide.flood_choices)
        elif phase in ("main", "special_build") and self.build_piece:
            piece = self.build_piece
            if piece == "road":
                pick, legal = "edge", frozenset(g.legal_road_spots(who))
            elif piece == "ship":
                pick, legal = "edge", frozenset(g.legal_ship_spots(who))
            elif piece == "settlement":
                pick, legal = "vertex", frozenset(g.legal_settlement_spots(who))
            elif piece == "city":
                pick, legal = "vertex", frozenset(g.legal_city_spots(who))
            elif piece == "dike":
                pick, legal = "hex", frozenset(g.legal_dike_spots(who))
        view.pick, view.legal = pick, legal
        if pick == "":
            view.flash = None

    def _vp_board(self, g) -> None:
        a = app()
        box = self.ids.vpboard
        box.clear_widgets()
        s = g.state
        tide = getattr(g, "tide", None)
        for p, info in enumerate(a.table.record.players):
            rgb = PLAYER_COLORS[info["color"]]
            badges = []
            if s.longest_road == p:
                badges.append(f"[color=ffd54f]{a.tr('longest_road')}[/color]")
            if s.largest_army == p:
                badges.append(f"[color=ffd54f]{a.tr('largest_army')}[/color]")
            if tide is not None and tide.leader == p:
                badges.append(f"[color=80d8ff]{a.tr('leader')}[/color]")
            turn = "▶ " if p == g.waiting_for() else ""
            text = (f"{turn}[b]{escape_markup(a.player_name(p))}[/b]  [size={int(sp(24))}]{g.victory_points(p)}[/size] {a.tr('vp')}"
                    f"   {s.players[p].hand.size} {a.tr('card' if s.players[p].hand.size == 1 else 'cards')}"
                    f"\n[size={int(sp(13))}]{tile_details(g, p)}[/size]"
                    + (f"\n[size={int(sp(14))}]" + " · ".join(badges) + "[/size]" if badges else ""))
            label = PlayerTag(text=text, markup=True, swatch=(*rgb, 1))
            box.add_widget(label)

    def _last_roll(self, g, last) -> None:
        a = app()
        s = g.state
        view = self.ids.board
        self.forget_stale_picture(g)
        if s.last_dice is None or not rolled_this_turn(g):
            # (the last player's "Rolled 8" goes when the turn passes: the next player has not rolled yet)
            self.roll_text, self.payout_text = "", ""
            view.highlight = []
            return
        number = sum(s.last_dice)
        self.roll_text = f"{a.tr('rolled', n=number)}  ({s.last_dice[0]} + {s.last_dice[1]})"
        lines = [a.tr("receives", name=a.player_name(p), cards=cards_text(c, a.lang))
                 for p, c in sorted(s.last_payouts.items()) if c]
        roll_outcome = next((o for o in reversed(g.outcomes) if o.kind == "roll"), None)
        if roll_outcome is not None:
            lines += [a.tr("shortage", res=a.tr(r)) for r in roll_outcome.shortages]
        if number != 7 and not lines:
            lines = [a.tr("nobody_gets")]
        if roll_outcome is not None and a.table is not None:  # a roll put right: the wrong one's cards go back
            lines[0:0] = [a.tr("gives_back", name=a.player_name(p), cards=cards_text(c, a.lang))
                          for p, c in sorted(a.table.replaced_payouts.get(roll_outcome.index, {}).items())]
        self.payout_text = "\n".join(lines)
        view.highlight = list(g.board.hexes_by_number.get(number, ())) if number != 7 else []

    def _tide(self, g, last) -> None:
        a = app()
        tide = getattr(g, "tide", None)
        if tide is None:
            self.tide_text = ""
            return
        # what is happening and what comes next (tide_text.py); a flooded hex said as it was dealt
        dealt = board_from_json(a.table.record.board, check=False)
        self.tide_text = tide_text(g, last, a.tr, a.player_name, app_places(), a.lang,
                                   places_for(dealt, a.lang, a.player_name))

    def refresh_dice_buttons(self) -> None:
        for i, button in enumerate(self.ids.dice_row.children[::-1], start=1):
            button.state = "down" if self.die_a == i else "normal"

    # --- the action area (depends on the phase) ------------------------------------------------------
    def _actions(self, g, phase: str, who) -> None:
        a = app()
        box = self.ids.actions
        box.clear_widgets()
        if "umpire" in self.ids:
            self.ids.umpire.state = "down" if self.selection.get("mode") == "umpire" else "normal"
        # (a refusal's "record anyway" sits beside the message, in companion.kv: it moves no button)
        if self.selection.get("mode") == "umpire":
            self._umpire_panel(g)
        elif phase in ("main", "special_build"):
            box.add_widget(cost_card(g))
            box.add_widget(build_row(self, g, who))  # each button says why it cannot be used now
            row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
            # The buyer sees the card, the table does not: recorded unseen (hidden information stays hidden).
            row.add_widget(buy_button(self, g, who))
            if phase == "main":
                for mode, key in (("play", "play_card"), ("trade", "trade")):
                    b = BigToggle(text=a.tr(key), group="mode",
                                  state="down" if self.selection.get("mode") == mode else "normal")
                    b.bind(on_release=lambda btn, mode=mode: self.set_mode(mode if btn.state == "down" else ""))
                    row.add_widget(b)
                row.add_widget(reveal_button(self, g, who))
            box.add_widget(row)
            if phase == "main" and self.selection.get("mode") == "play":
                self._play_panel(g, who)
            if phase == "main" and self.selection.get("mode") == "trade":
                self._trade_panel(g, who)
            if phase == "main" and self.selection.get("mode") == "reveal":
                reveal_panel(self, g, who)
        elif phase == "roll":
            row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
            knight = BigButton(text=a.tr("knight"), height=dp(64))
            knight.bind(on_release=lambda _b: self.submit({"type": "play_development", "player": who, "card": "knight"}))
            row.add_widget(knight)
            row.add_widget(reveal_button(self, g, who))  # VP cards may be shown before the roll too
            box.add_widget(row)
            if self.selection.get("mode") == "reveal":
                reveal_panel(self, g, who)
        elif phase in ("discard", "gold"):
            owed = (g.state.discards_owed if phase == "discard" else g.state.gold_owed).get(who, 0)
            if phase == "gold":
                owed = min(owed, sum(g.state.bank.values()))
            self._card_picker(g, who, owed, phase)
        elif phase == "steal":
            for victim in g.state.steal_candidates:
                b = BigButton(text=a.tr("rob", name=a.player_name(victim)) + f" ({a.tr('unseen')})")
                b.bind(on_release=lambda _b, v=victim: self.submit({"type": "steal", "from": v, "card": None}))
                box.add_widget(b)
        elif phase == "game_over":
            ranking = g.outcomes[-1].ranking if g.outcomes and g.outcomes[-1].ranking else g.ranking()
            lines = [f"{i + 1}. {a.player_name(p)} — {g.victory_points(p)} {a.tr('vp')}" for i, p in enumerate(ranking)]
            box.add_widget(Label(text=a.tr("ranking") + "\n" + "\n".join(lines), font_size=sp(22),
                                 size_hint_y=None, height=dp(40) * (len(lines) + 1)))
        box.add_widget(Widget())

    def end_turn(self) -> None:
        self.submit({"type": "end_turn"})

    # --- umpire ---------------------------------------------------------------------------------------
    def _force_offer(self) -> None:
        """After a refusal: "record anyway (umpire)", then a confirmation naming the broken rule."""
        a = app()
        box = self.ids.actions
        if not self.confirming:
            b = BigButton(text=a.tr("force"), background_color=(1, 0.6, 0.2, 1))
            b.bind(on_release=lambda _b: self.force())
            box.add_widget(b)
            return
        box.add_widget(Label(text=a.tr("force_confirm", why=self.refused["why"]), font_size=sp(17),
                             size_hint_y=None, height=dp(64), text_size=(dp(380), None), halign="center"))
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
        yes = BigButton(text=a.tr("force_yes"), background_color=(1, 0.45, 0.2, 1))
        yes.bind(on_release=lambda _b: self.force())
        no = BigButton(text=a.tr("cancel"))
        no.bind(on_release=lambda _b: self.cancel_force())
        row.add_widget(yes)
        row.add_widget(no)
        box.add_widget(row)

    def toggle_umpire(self, down: bool) -> None:
        """The Umpire button: open (or close) the corrections panel in any phase."""
        self.set_mode("umpire" if down else "")

    def _umpire_panel(self, g) -> None:
        """Corrections the table makes (recorded as such): a player's hand as it really is, a piece off."""
        a = app()
        box = self.ids.actions
        box.add_widget(Label(text=a.tr("umpire_title"), font_size=sp(19), size_hint_y=None, height=dp(34)))
        players = list(range(g.n_players))
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
        row.add_widget(Label(text=a.tr("set_hand"), size_hint_x=None, width=dp(90), font_size=sp(17)))
        for p in players:
            b = BigToggle(text=a.player_name(p), font_size=sp(15),
                          state="down" if self.selection.get("u_player") == p else "normal")
            # Start from what the table knows the player holds.
            b.bind(on_release=lambda _b, p=p: self._pick_many(
                u_player=p, hand=dict(g.state.players[p].hand.known), u_remove=None))
            row.add_widget(b)
        box.add_widget(row)
        who = self.selection.get("u_player")
        if who is not None:
            hand = g.state.players[who].hand
            if hand.unknown:
                box.add_widget(Label(text=a.tr("hand_unseen", n=hand.unknown), font_size=sp(16),
                                     size_hint_y=None, height=dp(28)))
            cards = self._counter_rows("hand", g.resources)
            self._ok(True, {"type": "set_hand", "player": who, "cards": dict(cards)},
                     a.tr("set_hand_ok", name=a.player_name(who), n=sum(cards.values())))
        self._toggle_row(a.tr("remove"), "u_remove", ["vertex", "edge"],
                         [a.tr("remove_building"), a.tr("remove_link")], font=15)
        add_note_rows(self, box)  # a remark for the record, and the notes so far (umpire_notes.py)

    def _pick_many(self, **values) -> None:
        self.selection = {**self.selection, **values}
        self.refresh()

    def choose_piece(self, piece: str) -> None:
        self.build_piece = piece
        self.refresh()

    def _card_picker(self, g, who: int, owed: int, phase: str) -> None:
        """Discard (from the hand) or gold (from the bank): +/- per resource, OK at exactly ``owed``."""
        a = app()
        box = self.ids.actions
        chosen = self.selection.get("cards", {})
        title = a.tr("discard_title", name=a.player_name(who), n=owed) if phase == "discard" else \
            a.tr("p_gold", name=a.player_name(who), n=owed)
        box.add_widget(Label(text=title, font_size=sp(20), size_hint_y=None, height=dp(40)))
        held = dict(g.state.players[who].hand.known) if phase == "discard" else dict(g.state.bank)
        chosen = self._counter_rows("cards", g.resources, held)
        self._ok(sum(chosen.values()) == owed, {"type": phase, "player": who, "cards": dict(chosen)},
                 f"{a.tr('ok')} ({sum(chosen.values())}/{owed})")

    def adjust(self, resource: str, delta: int) -> None:
        self._count("cards", resource, delta)

    def set_mode(self, mode: str) -> None:
        """Open the development-card or the trade panel (or close it with "")."""
        self.selection = {"mode": mode} if mode else {}
        self.build_piece = ""
        self.refresh()

    def _play_panel(self, g, who: int) -> None:
        """Play a development card: knight, road building, year of plenty (two from the bank), monopoly."""
        a = app()
        cards = ("knight", "road_building", "year_of_plenty", "monopoly")
        self._toggle_row("", "card", cards, [a.tr("c_" + c) for c in cards], font=15)
        card = self.selection.get("card")
        event: dict | None = {"type": "play_development", "player": who, "card": card}
        if card == "year_of_plenty":
            chosen = self._counter_rows("cards", g.resources)
            event["resources"] = [r for r, n in sorted(chosen.items()) for _ in range(n)]
            enabled = 1 <= len(event["resources"]) <= 2
        elif card == "monopoly":
            self._toggle_row("", "resource", g.resources, [a.tr(r) for r in g.resources], font=15)
            event["resource"] = self.selection.get("resource")
            enabled = event["resource"] is not None
            if enabled:
                event["taken"] = self._taken_rows(g, who, event["resource"])
        else:
            enabled = card is not None
        self._ok(enabled, event)

    def _taken_rows(self, g, who: int, resource: str) -> dict[str, int]:
        """Monopoly: how many ``resource`` each other player hands over, one stepper per player.

        The record needs the counts whenever a hand holds cards nobody has seen (hand sizes stay
        exact).  Each count starts at the cards of that kind the table knows of (the exact count
        when the hand holds nothing unseen) and stays within 0..the player's hand size; the rules
        judge the rest (fewer than the known cards is refused with their reason).
        """
        a = app()
        key = "taken_" + resource  # one choice per resource: picking another starts afresh
        chosen = dict(self.selection.get(key, {}))
        self.ids.actions.add_widget(Label(text=a.tr("taken_title", res=a.tr(resource)), font_size=sp(18),
                                          size_hint_y=None, height=dp(30)))
        taken: dict[str, int] = {}
        for p in range(g.n_players):
            if p == who:
                continue
            hand = g.state.players[p].hand
            n = chosen.get(str(p), hand.count(resource))
            taken[str(p)] = n
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
            text = a.tr("taken_of", name=a.player_name(p), n=hand.size)
            minus = BigButton(text="−", size_hint_x=None, width=dp(60), height=dp(52), disabled=n <= 0)
            minus.bind(on_release=lambda _b, p=p, n=n: self._pick(key, {**taken, str(p): n - 1}))
            plus = BigButton(text="+", size_hint_x=None, width=dp(60), height=dp(52), disabled=n >= hand.size)
            plus.bind(on_release=lambda _b, p=p, n=n: self._pick(key, {**taken, str(p): n + 1}))
            count = Label(text=str(n), font_size=sp(22), size_hint_x=None, width=dp(36))
            for w in (Label(text=text, font_size=sp(18)), minus, count, plus):
                row.add_widget(w)
            self.ids.actions.add_widget(row)
        return taken


def keep_in_view(scroller, scroll_y: float) -> None:
    """A guard on the action panel's scroll: a panel rebuilt under a finger (a tap's own refresh) can leave
    Kivy's scroll effect with the old panel's offset over a content barely taller than the view, which throws
    ``scroll_y`` millions of screens away and every button with it (seen in the first-game test: a tap on
    Trade, then no panel).  Far out of range, the panel goes back to its top; an overscroll bounce (a little
    past 0 or 1) is left alone."""
    if not -1 <= scroll_y <= 2:
        scroller.scroll_y = 1


def rolled_this_turn(g) -> bool:
    """Whether the last roll belongs to the turn being played (no ``end_turn`` recorded after it)."""
    for outcome in reversed(g.outcomes):
        if outcome.kind == "roll":
            return True
        if outcome.kind == "end_turn":
            return False
    return False


class PlayerTag(Label):
    """One row of the VP board: a colour swatch, the name, points, cards and award badges."""

    swatch = ListProperty([1, 1, 1, 1])


# --- statistics --------------------------------------------------------------------------------------

EXPECTED = {n: (6 - abs(7 - n)) / 36 for n in range(2, 13)}


def chi_squared(counts: dict[int, int]) -> tuple[float, float]:
    """Pearson's chi-squared of roll totals against two fair dice, and its p-value (10 d.f.).

    For an even number of degrees of freedom the survival function has a closed form:
    Q = exp(-x/2) · Σ_{i<5} (x/2)^i / i!.
    """
    n = sum(counts.values())
    chi = sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in EXPECTED.items())
    return chi, chi2_sf_10(chi)


def chi2_sf_10(x: float) -> float:
    """P(X >= x) for a chi-squared variable with 10 degrees of freedom (closed form, even d.f.)."""
    half = x / 2
    return math.exp(-half) * sum(half ** i / math.factorial(i) for i in range(5))


class Histogram(Widget):
    counts = DictProperty({})

    def on_counts(self, *_):
        self.redraw()

    def on_size(self, *_):
        self.redraw()

    def on_pos(self, *_):
        self.redraw()

    def redraw(self) -> None:
        from kivy.core.text import Label as CoreLabel
        from kivy.graphics import Color, Line, Rectangle

        self.canvas.clear()
        n = sum(self.counts.values())
        top = max([self.counts.get(k, 0) for k in range(2, 13)] + [n * max(EXPECTED.values()), 1])
        w = self.width / 11
        base = self.y + dp(28)
        height = self.height - dp(36)
        with self.canvas:
            for i, k in enumerate(range(2, 13)):
                x = self.x + i * w
                Color(0.3, 0.6, 0.95, 1)
                Rectangle(pos=(x + w * 0.15, base), size=(w * 0.7, height * self.counts.get(k, 0) / top))
                label = CoreLabel(text=str(k), font_size=sp(16))
                label.refresh()
                Color(1, 1, 1, 1)
                Rectangle(texture=label.texture, size=label.texture.size,
                          pos=(x + w / 2 - label.texture.width / 2, self.y + dp(4)))
            Color(1, 0.8, 0.2, 1)
            points = []
            for i, k in enumerate(range(2, 13)):
                points += [self.x + i * w + w / 2, base + height * n * EXPECTED[k] / top]
            Line(points=points, width=2)


#: Statistics offers "Camera rolls wait for OK" once at least this share of the camera's rolls were put right.
CAMERA_ADVICE_SHARE = 0.05


class StatisticsScreen(Screen):
    summary = StringProperty("")
    production = StringProperty("")
    camera_rolls_text = StringProperty("")  # "" when no roll has a camera photo: the row is hidden
    camera_accuracy = StringProperty("")  # "Rolls the camera read: N; put right by hand: M." ("" without a camera)

    def __init__(self, **kw):
        super().__init__(name="statistics", **kw)

    def refresh(self) -> None:
        a = app()
        t = a.table
        counts: dict[int, int] = {}
        produced: dict[int, dict[str, int]] = {}
        if t is not None:
            for event in t.record.events:
                if event.get("type") == "roll":
                    k = sum(event["dice"])
                    counts[k] = counts.get(k, 0) + 1
            for o in t.game.outcomes:
                if o.kind in ("roll", "gold"):
                    for p, cards in o.payouts.items():
                        mine = produced.setdefault(p, {})
                        for r, n in cards.items():
                            mine[r] = mine.get(r, 0) + n
        self.ids.histogram.counts = counts
        n = sum(counts.values())
        lines = [a.tr("rolls_n", n=n)]
        if n >= 36:
            chi, p = chi_squared(counts)
            lines.append(a.tr("fairness", chi=chi, p=p))
        else:
            lines.append(a.tr("too_few_rolls", n=n))
        self.summary = "\n".join(lines)
        if t is not None:
            self.production = "\n".join(
                f"{a.player_name(p)}: {cards_text(produced.get(p, {}), a.lang) or '—'}"
                for p in range(len(t.record.players)))
        else:
            self.production = ""
        self._list_camera_rolls()

    def _list_camera_rolls(self) -> None:
        """How often the camera was put right by hand, and one button per photo the journal keeps: first the
        camera's misreads that the players put right (undone, entered by hand), then its rolls in the record,
        newest first; a tap shows the photo (a roll disputed later in the game, or by a tournament umpire)."""
        a, row = app(), self.ids.camera_rolls
        row.clear_widgets()
        t = a.table
        if t is None:
            self.camera_rolls_text = self.camera_accuracy = ""
            return
        photo_ids = t.journal.roll_photo_ids(t.game_id)
        rolls = camera_rolls(t.game, photo_ids)
        fixed = t.journal.roll_corrections(t.game_id)
        read = sum(1 for e in roll_events(t.game) if e.get("source") == "camera") + len(fixed)
        self.camera_accuracy = a.tr("camera_accuracy", read=read, fixed=len(fixed)) if read else ""
        if fixed and len(fixed) >= CAMERA_ADVICE_SHARE * read and not a.settings.confirm_camera:
            self.camera_accuracy += a.tr("camera_advice")  # misreads reach this table often: offer the check
        shown = [(a.tr("camera_misread_button", read=faces_text(r), entered=faces_text(e)), roll_id,
                  a.tr("misread_photo", read=faces_text(r), entered=faces_text(e)))
                 for roll_id, r, e in reversed(fixed) if roll_id in photo_ids]
        for number, event in reversed(rolls):
            dice = faces_text(event["dice"])
            shown.append((a.tr("camera_roll_button", n=number, total=sum(event["dice"]), dice=dice),
                          event["roll_id"], a.tr("roll_photo", dice=dice)))
        self.camera_rolls_text = a.tr("camera_rolls", n=len(shown)) if shown else ""
        for text, roll_id, caption in shown:
            kept = t.journal.dice_picture(t.game_id, roll_id)
            button = CameraRollButton(text=text, picture=photo_texture(kept) if kept is not None else None)
            button.bind(on_release=lambda _b, r=roll_id, c=caption: open_roll_photo(
                a.table.journal.roll_photo(a.table.game_id, r), c))
            row.add_widget(button)


# --- settings --------------------------------------------------------------------------------------

class SettingsScreen(Screen):
    """The settings as typed, until Save.  A camera entry that names no camera is said under the fields and
    nothing is saved; going to the camera calibration and back keeps what was typed."""

    #: The dice source kind the spinner shows (``manual``, ``box``, ``camera``, ``sim``, or another scheme).
    kind = StringProperty("manual")
    #: What is wrong with the entries, in the player's language ("" when nothing is).
    problem = StringProperty("")
    #: The dice boxes and cameras this device has, in the player's language (looked for on a thread).
    found = StringProperty("")

    def __init__(self, **kw):
        super().__init__(name="settings", **kw)
        self._finder: threading.Thread | None = None
        self._editing = False  # back from the calibration: the fields keep what was typed
        self.ids.source.bind(text=lambda _spinner, text: setattr(self, "kind", self._kind_of(text)))

    def refresh(self) -> None:
        a = app()
        if getattr(a, "came_from", "calibration") not in ("calibration", "settings"):
            self.back_to = a.came_from  # Save and Back return there (the camera calibration is a detour)
        if self._editing:
            self._editing = False
            return
        s = app().settings
        self.ids.lang_en.state = "down" if s.lang == "en" else "normal"
        self.ids.lang_ja.state = "down" if s.lang == "ja" else "normal"
        self.ids.voice.active = s.voice
        self.ids.volume.value = s.volume
        kind = s.source_kind
        if a.demo:  # the demo plays with the dice-box simulator whatever is saved: show what is in use
            kind = "sim"
        self.ids.source.text = (app().tr("source_" + kind) if kind in SOURCE_KINDS else s.dice_source)
        self.kind = kind
        self.ids.port.text = s.box_port
        self.ids.camera.text = camera_entry(s.dice_source) if s.source_kind == "camera" else s.camera
        self.ids.camera.cursor = (0, 0)  # a long address or path shows its beginning
        self.ids.confirm_camera.active = s.confirm_camera
        self.problem = ""
        self.look_for_devices()

    def look_for_devices(self) -> None:
        """Say which dice boxes and cameras this device has (the ports answering identify, the cameras giving a
        picture), so that a player sees what to choose.  Asking opens the ports and cameras, so never while the
        open game's own source reads one; the asking runs on a thread (a probe waits for an answer) and its
        words reach the screen through the clock."""
        a = app()
        if a.table is not None and a.source is not None:
            self.found = a.tr("found_in_use")
            return
        if self._finder is not None and self._finder.is_alive():
            return
        self.found = a.tr("found_looking")
        named = [self.ids.port.text] if self.ids.port.text not in ("", "auto") else []
        self._finder = threading.Thread(target=self._find, args=(named,), name="settings-device-finder",
                                        daemon=True)
        self._finder.start()

    def _find(self, named: list[str]) -> None:
        from companion import doctor

        try:
            boxes = [(port, box) for port, box in doctor.boxes_answering(0.4, named) if box is not None]
            cameras = [(device, size) for device, size in doctor.camera_pictures() if size is not None]
        except Exception:  # pragma: no cover - a driver failing while asked: say nothing rather than crash
            log.exception("looking for dice boxes and cameras failed")
            boxes, cameras = [], []
        Clock.schedule_once(lambda _dt: self._say_found(boxes, cameras))

    def _say_found(self, boxes, cameras) -> None:
        tr = app().tr
        box_words = ", ".join(tr("found_box", model=box.model, port=port) for port, box in boxes)
        camera_words = ", ".join(tr("found_camera", number=device.rsplit("video", 1)[-1], size=f"{w}×{h}")
                                 for device, (w, h) in cameras)
        self.found = tr("found_here", boxes=box_words or tr("found_no_box"),
                        cameras=camera_words or tr("found_no_camera"))

    def stop_looking(self, timeout: float = 5.0) -> None:
        """The app stops: the finder's last probe ends (bounded by its answer wait) before the interpreter."""
        if self._finder is not None:
            self._finder.join(timeout)

    def _kind_of(self, label: str) -> str:
        for kind in SOURCE_KINDS:
            if label in (app().tr("source_" + kind, lang) for lang in ("en", "ja")):
                return kind
        return app().settings.source_kind  # a source set outside Settings, shown as its URL

    def _camera_problem(self, error, saving: bool) -> str:
        words = app().tr("camera_problem_" + error.reason, entry=error.entry, scheme=error.scheme)
        return words + app().tr("nothing_saved") if saving else words

    def calibrate(self) -> None:
        """The camera calibration, of the camera typed here (saved or not)."""
        from companion.dice.camera import CameraChoiceError, camera_url

        a = app()
        try:
            url = camera_url(self.ids.camera.text, a.settings.dice_source)
        except CameraChoiceError as error:
            self.problem = self._camera_problem(error, saving=False)
            return
        a.root.get_screen("calibration").chosen_camera = url
        self._editing = True
        a.go("calibration")

    def save(self) -> None:
        from companion.dice.camera import CameraChoiceError

        a = app()
        kind = a.settings.source_kind if a.demo and self.kind == "sim" else self.kind  # (the demo's is not saved)
        try:
            chosen = a.settings.choose_source(kind, self.ids.camera.text, self.ids.port.text)
        except CameraChoiceError as error:
            self.problem = self._camera_problem(error, saving=True)
            return
        settings = replace(chosen, lang="ja" if self.ids.lang_ja.state == "down" else "en",
                           voice=self.ids.voice.active, volume=round(float(self.ids.volume.value), 2),
                           confirm_camera=self.ids.confirm_camera.active)
        a.apply_settings(settings)
        self.back()

    back_to = "start"

    def back(self) -> None:
        """Back where Settings was opened from (the start screen, or the game)."""
        a = app()
        a.go(self.back_to if a.has_screen(self.back_to) and (self.back_to != "play" or a.table) else "start")
