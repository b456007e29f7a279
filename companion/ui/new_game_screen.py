"""The new-game screen: the game, the table's size, the players in their seats (names, colours, each name said
into the microphone), the board (generated, entered or imported) and the one board check that both Start and
the board editor make (its layout is ``new_game.kv``)."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

from ..assets import read_json as read_asset_json
from ..record import COLORS, Record
from ..rules import RulesError, board_from_json, board_problems, game_class, standard_board
from ..rules.board import BASE_SPEC, EXTENSION_SPEC, Board, may_be_as_laid
from ..rules.errors import BoardError
from ..rules.seafarers_board import deal_map
from .board_view import PLAYER_COLORS
from .name_voice import SetupVoices, say_name_button
from .refusals_text import app_describe, refusal_spots
from .widgets import app, load_rules

load_rules("new_game.kv")

OWN_SCREEN = ("starfarers", "card-game")  # games with their own live screen and no hex board
DEFAULT_NAMES = ("Aki", "Ben", "Chie", "Dan", "Emi", "Fumi")
BASE_BOXES = ("base", "base56")  # the base game's two boxes: 3-4 players, the 5-6 extension
GAME_TOGGLES = (*BASE_BOXES, "seafarers", "high-tide", *OWN_SCREEN)  # the games the form starts


class NameField(TextInput):
    """A seat's name.  Tapped (or tabbed to), its whole text is selected, so the name typed replaces the one
    suggested: the cursor landed after "Aki" and "Mika" typed made "AkiMika" (by real taps, 1280x800).  A tap
    on a field already focused places the cursor, as ever."""

    def on_focus(self, _field, focused: bool) -> None:
        if focused:  # after the tap that focused it has placed the cursor (its release would undo it)
            Clock.schedule_once(lambda _dt: self.select_all() if self.focus and self._touch_taking is None else None)

    _touch_taking = None  # the touch that is focusing the field, until it is lifted

    def on_touch_down(self, touch):
        if not self.focus and self.collide_point(*touch.pos):
            self._touch_taking = touch.uid
        return super().on_touch_down(touch)

    def on_touch_up(self, touch):
        done = super().on_touch_up(touch)
        if touch.uid == self._touch_taking:
            self._touch_taking = None
            if self.focus:
                self.select_all()
        return done


class NewGameScreen(Screen):
    game = StringProperty("base")
    count = NumericProperty(4)
    message = StringProperty("")
    board_json = ObjectProperty(None, allownone=True)
    #: The board is the table's own, played as it lies (the editor's "Use it as it is"): its set's counts and a 6
    #: beside an 8 are not held to the standard set's (``rules.board.AS_LAID``).  False again when a board is dealt.
    board_as_laid = BooleanProperty(False)
    sea_map = StringProperty("new_world")  # Seafarers: the map family Generate board deals (seafarers_board.MAPS)

    def __init__(self, **kw):
        super().__init__(name="new_game", **kw)
        self.names: list[str] = list(DEFAULT_NAMES)
        self.colors: list[str] = list(COLORS)
        self.voices = SetupVoices()  # each player's name said into the microphone (said in the place of the colour)
        Clock.schedule_once(lambda dt: self.refresh())
        # the seats' colour buttons are words too: in the new language at once
        Clock.schedule_once(lambda _dt: app().bind(lang=lambda *_: self._language_changed()))

    def _language_changed(self) -> None:
        self._players_rows()
        self.message = self._words()  # the message on screen, said again in the new language (it stayed)

    #: The message on screen as words made in the app's language of the moment (see :meth:`say`).
    _words = staticmethod(lambda: "")

    def say(self, words) -> None:
        """Show the message ``words()``, made again in the new language when the language changes."""
        self._words = words
        self.message = words()

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

    def set_sea_map(self, name: str) -> None:
        """Seafarers: deal the other map family (a main island and islets, or four islands of one size)."""
        if name != self.sea_map:
            self.sea_map = name
            self.board_json = None
            self.refresh()

    def count_open(self, n: int, game: str | None = None) -> bool:
        """Whether the table-size toggle ``n`` can be chosen for ``game``: a size the game is played by, or, for
        the base game, any of 3-6 (the size picks the box: 5 or 6 at a Base 3-4 table is the 5-6 game)."""
        game = game or self.game
        cls = game_class(game)
        return cls.min_players <= n <= cls.max_players or (game in BASE_BOXES and 3 <= n <= 6)

    def set_count(self, n: int) -> None:
        if self.game in BASE_BOXES and n not in self.allowed_counts() and self.count_open(n):
            # five players at Base 3-4 (or three at Base 5-6): the size chooses the box; it was refused with
            # "base56: 5-6" in English on a Japanese screen and the 3 shown chosen while five seats stayed
            self.set_game("base56" if n >= 5 else "base")
        if n not in self.allowed_counts():
            self.say(lambda counts=self.allowed_counts(): app().tr(
                "count_refused", game=app().tr(f"g_{self.game}"), low=counts[0], high=counts[-1]))
            self._show_count()
            return
        size_changed = (n >= 5) != (self.count >= 5)
        self.count = n
        if size_changed:
            self.board_json = None
        self.refresh()

    def _show_count(self) -> None:
        """The table-size toggles show the size chosen (a refused tap left its toggle down)."""
        for k in range(2, 7):
            self.ids[f"n{k}"].state = "down" if self.count == k else "normal"

    def _players_rows(self) -> None:
        a = app()
        grid = self.ids.players
        grid.clear_widgets()
        for i in range(self.count):
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))  # a finger's height (48 dp and more)
            seat = Label(text=str(i + 1), size_hint_x=None, width=dp(30), font_size=sp(20))
            name = NameField(text=self.names[i], multiline=False, font_size=sp(20), write_tab=False)
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

    def same_table(self, record: Record) -> None:
        """After ``record``'s game: the form holds its table -- the game, the table's size, each seat's name and
        colour -- and the next board seed, so that the same friends play again with one tap on Start (a game's
        end led only to Menu, and New game opened Base 3-4 for four with the default names and the board just
        played: playtest s11).  A player named by colour (no name typed) is left unnamed again."""
        from . import i18n

        players = record.players
        self.game = record.game if record.game in GAME_TOGGLES else "base"
        self.count = len(players)
        for i, player in enumerate(players):
            colour = player.get("color", self.colors[i])
            if colour in self.colors:  # the colours stay one each: the seat's colour swaps with the one it takes
                j = self.colors.index(colour)
                self.colors[i], self.colors[j] = self.colors[j], self.colors[i]
            name = player.get("name", "")
            self.names[i] = "" if name in {i18n.tr(colour, lang) for lang in ("en", "ja")} else name
        if "seed" in self.ids:  # the finished game's seed + 1 (kept in its record: the form's after a restart
            # was the default 1, so "same players" dealt from 2); a record without one: the form's + 1, as before
            self.ids.seed.text = str((self.seed() if record.seed is None else record.seed) + 1)
        self.board_json = None
        self.say(lambda: "")
        self.refresh()
        self._show_count()

    def seed(self) -> int:
        try:
            return int(self.ids.seed.text)
        except ValueError:
            return 1

    def generate(self) -> None:
        """A seeded standard board (a Seafarers map of islands for Seafarers, the High Tide map for this table size)."""
        self.board_as_laid = False
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
            self.board_json = (deal_map(self.sea_map, self.seed(), self.count) if self.game == "seafarers"  # islands
                               else standard_board(self.seed(), spec=spec, separate_red_numbers=separate)).to_json()
            if before is not None and self.board_json == before:  # a tap that seemed to do nothing: say why
                self.say(lambda seed=self.seed(): app().tr("same_board", seed=seed))
                self._show_board()
                return
        self.say(lambda: "")
        self._show_board()

    def _show_board(self) -> None:
        if self.game in OWN_SCREEN:
            self.ids.preview.board = self.ids.preview.robber = self.ids.preview.pirate = None
            return
        preview = self.ids.preview
        preview.marked = []
        try:
            board = board_from_json(self.board_json, check=False)
        except BoardError as error:
            self.say(lambda error=error: app_describe(error))
            return
        # the figures where the game starts them, drawn as the play board draws them (the view draws what it is
        # given: a board alone showed no robber, and a table sets it up from the preview)
        preview.board, preview.robber, preview.pirate = board, board.robber, board.pirate

    def board_problems(self, board: Board, *, as_laid: bool | None = None) -> list:
        """What Start refuses about ``board`` for the game and options chosen here: the one check the board
        editor shows while a board is entered and Start makes before the game begins (the format, the 6s and
        8s kept apart when the table chose so, the standard set's pieces for the base game).  A board played as
        it lies (``as_laid``; default: this screen's ``board_as_laid``) is held to the format alone."""
        as_laid = self.board_as_laid if as_laid is None else as_laid
        spec = None
        if self.game in ("base", "base56") and not as_laid:
            spec = EXTENSION_SPEC if self.count >= 5 else BASE_SPEC
        separate = self.separate_chosen() and not as_laid
        # the base games' robber starts on the desert; a Seafarers scenario's map places its own
        on_desert = getattr(game_class(self.game), "robber_starts_on_desert", True)
        return board_problems(board, standard=spec, separate_red_numbers=separate, robber_on_desert=on_desert)

    def harbour_set(self) -> int | None:
        """How many harbours the standard set of the base game chosen here holds (9, or 11 at 5-6); None for a game
        whose map places its own."""
        if self.game not in ("base", "base56"):
            return None
        return sum((EXTENSION_SPEC if self.count >= 5 else BASE_SPEC).harbors.values())

    def separate_chosen(self) -> bool:
        """Whether the table chose "No 6 next to 8" for a game with a hex board of numbers."""
        return self.game not in ("high-tide", *OWN_SCREEN) and self.ids.separate.active

    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.separate_chosen() and not self.board_as_laid:
            out["separate_red_numbers"] = True  # (a board played as it lies was not dealt: the option is moot)
        if self.game == "high-tide":
            for key, opt in (("leader_vp8", "leader_vp"), ("robber_to_desert", "robber_to_desert"),
                             ("flood_all", "flood_all"), ("spring_tide", "spring_tide")):
                if self.ids[key].active:
                    out[opt] = 8 if opt == "leader_vp" else True
        return out

    def record(self) -> Record:
        from .player_names import names_apart, typed_name  # NFC, nothing invisible; refused in the player's language

        players = [{"name": typed_name(self.names[i], i + 1, app().lang) or app().tr(self.colors[i]),
                    "color": self.colors[i]} for i in range(self.count)]
        names_apart([p["name"] for p in players], app().lang)  # two alike: said, nothing starts
        dealt = self.game not in ("high-tide", *OWN_SCREEN)  # a board the seed deals (unless entered or edited)
        return Record(self.game, players, dict(self.board_json), self.options(),
                      seed=self.seed() if dealt and "seed" in self.ids else None)

    def start(self) -> None:
        a = app()
        if self.game not in OWN_SCREEN:
            try:
                board = board_from_json(self.board_json, check=False)
            except BoardError as error:
                self.say(lambda error=error: app_describe(error))
                return
            problems = self.board_problems(board)
            if problems:  # said as the editor says them, the hexes ringed on the preview; nothing starts
                self.say(lambda: problems_text(problems, board))
                self.ids.preview.marked = problem_spots(problems)
                return
        try:
            self.voices.stop()  # a name being said now is kept
            a.start_game(self.record(), voices=self.voices.recorded(self.count))
        except (ValueError, RulesError) as error:
            self.say(lambda error=error: app_describe(error))
            return
        # started: a refusal put right before this Start is not waiting on the form the next time it opens
        # ("Players 1 and 2 are both called Aki" stood over the next game's form, tried by touch)
        self.say(lambda: "")
        self.ids.preview.marked = []

    def edit_board(self) -> None:
        editor = app().root.get_screen("board_editor")
        editor.load(self.board_json, back="new_game")
        app().go("board_editor")



def problem_spots(problems) -> list:
    """Every spot the board problems name, once each (what the board view rings)."""
    spots: list = []
    for p in problems:
        for spot in refusal_spots(p):
            if spot not in spots:
                spots.append(spot)
    return spots


def problems_text(problems, board, at_most: int | None = 4) -> str:
    """The board problems as a list in the user's language, places said as players say them (at most
    ``at_most``, then "…"; None: every one, as the board editor's scrolled list shows them); headed by the way on
    when a table's own board may be so (``may_be_as_laid``)."""
    a = app()
    cut = at_most is not None and len(problems) > at_most
    listed = "\n".join(f"• {app_describe(p, board)}" for p in problems[:at_most]) + ("\n…" if cut else "")
    header = "problems_as_laid" if may_be_as_laid(problems) else "problems"
    return a.tr(header, n=len(problems), first="") + "\n" + listed
