"""The board editor: the board on the table entered hex by hex (terrain, number) and harbor by harbor, checked
as it grows by the new-game screen's own check, saved to and read from a JSON file (its layout is
``board_editor.kv``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..rules import board_from_json, standard_board
from ..rules.board import Board, Tile, may_be_as_laid
from ..rules.errors import BoardError
from .new_game_screen import problem_spots, problems_text
from .refusals_text import app_describe, app_places
from . import i18n
from .widgets import app, load_rules

load_rules("board_editor.kv")

#: The editor's own words (merged into the app's table; its keys win).
TEXT = {
    "remove_all_harbors": {"en": "Remove all", "ja": "全部外す"},
    "put_harbors_back": {"en": "Put them back", "ja": "元に戻す"},
}
for _key, _entry in TEXT.items():
    i18n.TEXT.setdefault(_key, _entry)


class BoardEditorScreen(Screen):
    """Enter the board on the table: tap a hex, then a terrain or a number; validation names each problem."""

    selected = ObjectProperty(None, allownone=True)
    message = StringProperty("")
    valid = BooleanProperty(False)  # the message says the board is good (shown as success, not as a problem)
    #: The board differs from a standard one only as a table's own board may (its set's counts, a 6 beside an
    #: 8): "Use this board" becomes "Use it as it is" and plays it so (rules.board.AS_LAID)
    as_laid_offered = BooleanProperty(False)
    path = StringProperty("")
    mode = StringProperty("hex")
    #: The harbors "Remove all" took off, until a harbor is put on a side: one tap puts them back (a mistaken
    #: tap took up to 11 entered harbors with no way back).
    removed_harbors = ObjectProperty(None, allownone=True)

    def __init__(self, **kw):
        super().__init__(name="board_editor", **kw)
        self.tiles: dict = {}
        self.harbors: dict = {}
        self.robber = None
        self.pirate = None
        self._picked: set = set()
        self.back = "new_game"
        self.path = str(Path.home() / "catan-board.json")
        # the problems (or "Board is valid."), the selection's name and the harbor words follow the language
        shown = Clock.create_trigger(self.show_problems)
        self.bind(message=shown)
        Clock.schedule_once(lambda _dt: (self.ids.problems_box.bind(size=shown),
                                         self.ids.problems.bind(font_name=shown)))
        Clock.schedule_once(lambda _dt: app().bind(lang=lambda *_: self._update() if self.tiles else None))

    def load(self, data: dict | None, back: str = "new_game") -> None:
        self.back = back
        board = board_from_json(data, check=False) if data else standard_board(1)
        self.tiles = dict(board.tiles)
        self.harbors = dict(board.harbors)
        self.removed_harbors = None
        self.robber, self.pirate = board.robber, board.pirate
        self.selected = self.ids.board.selected = None
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
        self._select(hex_)

    def _select(self, spot) -> None:
        self.selected = spot
        self.ids.board.selected = spot  # outlined white: problems are ringed red
        self._picked = set()  # what was chosen for this hex since it was selected: "terrain", "number"
        self._update()

    def _next_when_entered(self) -> None:
        """Once a hex has had both its terrain and its number chosen (a desert or sea: its terrain), the next hex
        in reading order is selected, so a board is entered hex by hex with two taps each and no tap on the board.

        Only both choices move on, in either order: a single correction (a number put right) stays on its hex,
        and a number chosen first never lands on the next hex."""
        tile = self.tiles.get(self.selected)
        if tile is None or not ("terrain" in self._picked
                                and ("number" in self._picked or tile.terrain in ("desert", "sea"))):
            return
        view = self.ids.board

        def reading(h):  # rows from the top of the screen, each from the left
            x, y = view.hex_pos(h)
            return -round(y), x

        after = [h for h, t in self.tiles.items() if t.terrain != "sea" and reading(h) > reading(self.selected)]
        if after:  # (sea hexes are skipped: the frame's sea is tapped only where a scenario puts land in it)
            self._select(min(after, key=reading))

    def set_mode(self, mode: str) -> None:
        """``"hex"``: taps pick hexes (terrain, number); ``"harbor"``: taps pick coast sides.

        In harbor mode the first harbor round the coast (clockwise from the top) is selected at once: where the
        table's harbors stand where the board has them, their kinds are entered without a tap on the board."""
        self.mode = mode
        self._select(None)
        if mode == "harbor":
            ring = self._harbor_ring()
            if ring:
                self.on_edge(ring[0])

    def _clockwise(self):
        """A side's place round the board as it is drawn: 0 at twelve o'clock, growing clockwise."""
        view = self.ids.board
        land = [view.hex_pos(h) for h, t in self.tiles.items() if t.terrain != "sea"]
        cx = sum(x for x, _ in land) / max(1, len(land))
        cy = sum(y for _, y in land) / max(1, len(land))

        def key(edge) -> float:
            x, y = view.edge_pos(edge)
            return (math.pi / 2 - math.atan2(y - cy, x - cx)) % (2 * math.pi)  # (window y points up)
        return key

    def _harbor_ring(self) -> list:
        """The sides holding a harbor, clockwise round the board from the top."""
        return sorted(self.harbors, key=self._clockwise())

    def _next_harbor(self) -> None:
        """After a harbor's kind is chosen (or the harbor taken away) the next harbor clockwise is selected, as a
        hex given its terrain and number hands on to the next hex: the table reads its frame round and taps the
        kinds.  A harbor put on a side that had none stays selected (the table is placing its own: the next is a
        tap on its side, and a harbor entered before is no place to jump back to)."""
        here = self.selected
        ring = sorted({*self.harbors, here}, key=self._clockwise())  # (a harbor taken away: on from where it was)
        after = ring[(ring.index(here) + 1) % len(ring)]
        if after != here:
            self.on_edge(after)

    def clear_harbors(self) -> None:
        """Every harbor taken off the coast (the table's frame has its own elsewhere): then each is a tap on its
        side and one on its kind.  Until the first of them is put on, the same button puts the old ones back."""
        if self.mode != "harbor":
            return
        if self.removed_harbors is not None:
            self.harbors.update(self.removed_harbors)
            self.removed_harbors = None
        elif self.harbors:
            self.removed_harbors = dict(self.harbors)
            self.harbors.clear()
        self._select(None)

    def on_edge(self, edge) -> None:
        self.selected = edge
        self.ids.board.selected = edge
        self._update()

    def set_harbor(self, trade: str | None) -> None:
        """Put a harbor (``"3:1"`` or a resource; None removes it) on the selected side."""
        if self.selected is None or self.mode != "harbor":
            return
        had = self.selected in self.harbors
        if trade is None:
            self.harbors.pop(self.selected, None)
        else:
            self.harbors[self.selected] = trade
            self.removed_harbors = None  # the table is putting its own on: the removed ones are no longer wanted
        self._update()
        if had:
            self._next_harbor()

    def set_terrain(self, terrain: str) -> None:
        if self.selected is None or self.mode != "hex":
            return
        old = self.tiles.get(self.selected)
        number = old.number if old is not None and terrain not in ("sea", "desert") else None
        self.tiles[self.selected] = Tile(terrain, number, old.islet if old else False)
        self._robber_to_desert()
        self._picked.add("terrain")
        self._update()
        self._next_when_entered()

    def _robber_to_desert(self) -> None:
        """The robber starts on the desert: a board entered by hand moves it with the desert.

        Otherwise a desert entered elsewhere left the robber on the old desert's hex, now (say) a pasture 10,
        and the game started with that hex robbed.  A board with no desert keeps it where it stands."""
        deserts = [h for h, tile in self.tiles.items() if tile.terrain == "desert"]
        on = self.tiles.get(self.robber) if self.robber is not None else None
        if on is not None and on.terrain == "desert":
            return
        if deserts:
            self.robber = self.selected if self.selected in deserts else min(deserts)

    def set_number(self, number: int | None) -> None:
        if self.mode != "hex" or self.selected is None or self.selected not in self.tiles:
            return
        t = self.tiles[self.selected]
        self.tiles[self.selected] = Tile(t.terrain, number, t.islet)
        self._picked.add("number")
        self._update()
        self._next_when_entered()

    def problems(self) -> list:
        """The new-game screen's check (the one Start makes) of the board as entered, held to the standard set
        (the differences a table's own board may have are listed, and Use it as it is offered)."""
        return app().root.get_screen("new_game").board_problems(self.board(), as_laid=False)

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
        want = a.root.get_screen("new_game").harbour_set() if a.root is not None else None
        few_harbours = want is not None and len(self.harbors) < want
        short = not problems and few_harbours
        self.valid = not problems and not short
        self.as_laid_offered = may_be_as_laid(problems)
        # a board to be used as it is, short of harbours too, says so above its differences (the list is cut to
        # what its box holds; the first line stays): testimg2 went on with 8 of 9 and nothing said it
        harbours_first = (a.tr("harbours_short_line", have=len(self.harbors), want=want) + "\n"
                          if self.as_laid_offered and few_harbours else "")
        self.message = (harbours_first + problems_text(problems, board, at_most=None) if problems else
                        a.tr("board_ok_harbours_short", have=len(self.harbors), want=want) if short else a.tr("board_ok"))
        sel = self.selected
        places = app_places(board)
        if sel is None:
            self.ids.selected.text = ""
        elif self.mode == "harbor":
            trade = self.harbors.get(sel)
            self.ids.selected.text = f"{places.edge(sel)} — {a.tr('harbor')}: {harbor_word(trade) if trade else '—'}"
        else:
            self.ids.selected.text = places.hex(sel) if sel in self.tiles else ""

    def show_problems(self, *_) -> None:
        """The message in its box under the buttons, whole: as large as the box holds it (16 sp down to 13), else
        in 13 sp letters and scrolled.  It was cut to what the box held, at most four problems and at least two,
        then "…": upright a scanned board's six differences showed two (session 16, testimg2)."""
        label, box = self.ids.problems, self.ids.problems_box
        text = self.message
        needed = label._text_size(label.min_font_size, max(1.0, box.width), text, whole_words=False)
        label.height = max(box.height, (needed[1] if needed else 0) + dp(2))
        label.text = text
        box.scroll_y = 1  # a new message from its first line

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
        if problems and not may_be_as_laid(problems):
            return  # the message already names them; nothing changes
        new_game = app().root.get_screen("new_game")
        new_game.board_json = self.to_json()
        new_game.board_as_laid = bool(problems)  # the button said "Use it as it is"
        app().go(self.back)



def harbor_word(trade: str) -> str:
    """A harbor as the board says it in the user's language: "3:1" or "2:1 lumber"."""
    return trade if trade == "3:1" else f"2:1 {app().tr(trade)}"
