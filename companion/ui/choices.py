"""Choice panels every live screen builds the same way: toggles, +/- counters, an OK, and the trade panel.

One implementation for the base-game screen and the own-screen games (Starfarers), so a trade is entered
the same way everywhere: choose the partner (the bank / the stock, or a player), then what goes each way.
The panels hold no rules: the ratios come from the game's ``harbor_ratios`` and the event goes to the
screen's ``submit``, whose refusal shows the rules' reason.

A screen using :class:`ChoicePanels` has a ``selection`` dict property (the choices being made), a
``refresh()`` that rebuilds its panel, a ``submit(event)`` and an ``actions`` box in its ``ids``.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .fitted_label import FittedLabel
from .widgets import BigButton, BigToggle, app


def name_takes(most: int, known: int | None = None) -> int:
    """How many cards a tap on a resource's name takes in a choice of cards owed (a discard, Starfarers' returns,
    gold, Year of plenty): ``most`` is the most its count may reach now (the cards the hand -- or the bank -- may
    give of it, and what is still owed).  Where the hand is known to hold ``known`` of it, a tap takes the known
    ones up to ``most``, or one unseen card where none is known (the rest by +); ``known`` None (from the bank):
    all ``most``.  The panels' convenience, not a rule: the rules judge the event the panel's OK sends."""
    if known is None:
        return most
    return min(known, most) or min(1, most)


class ChoicePanels:
    """Mixin for a Kivy screen: rows of choices written into ``self.ids.actions``."""

    bank_key = "bank"  # the text key naming the bank as a trade partner ("the stock" in Starfarers)

    def resource_text(self, resource: str) -> str:
        """A resource's name in the app's language (a game may name its own: Starfarers' 鉱石)."""
        return app().tr(resource)

    def _pick(self, key: str, value) -> None:
        self.selection = {**self.selection, key: value}
        self.refresh()

    def _toggle_row(self, label: str, key: str, values, texts, *, font=16) -> None:
        """One row of toggles choosing ``selection[key]`` among ``values``."""
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
        if label:
            row.add_widget(Label(text=label, size_hint_x=None, width=dp(90), font_size=sp(17)))
        for value, text in zip(values, texts):
            b = BigToggle(text=text, font_size=sp(font), state="down" if self.selection.get(key) == value else "normal")
            b.bind(on_release=lambda _b, value=value: self._pick(key, value))
            row.add_widget(b)
        self.ids.actions.add_widget(row)

    def _counter_rows(self, key: str, resources, held=None, most=None) -> tuple[dict[str, int], "CounterGrid"]:
        """+/- per resource for ``selection[key]`` (a ``{resource: count}``), as many a row as the panel's width
        holds; returns the current choice and the counters' grid (:meth:`_ok` puts OK in its spare cell).

        ``most`` (a discard, gold, Year of plenty: cards *owed*): per resource the most its count may reach now,
        beside the others chosen -- what the hand (or the bank) may give and what is still owed.  Its + stops
        there, and the resource's name is a toggle that takes that many at one tap ("two wood": a tap on
        lumber), or, where ``held`` says the hand is known to hold fewer, the known ones (the rest by +: unseen
        cards); a tap on a name already chosen puts its cards back."""
        grid = self._counter_grid(resources, [(key, held)], most=most)
        self.ids.actions.add_widget(grid)
        return {r: n for r, n in self.selection.get(key, {}).items() if n}, grid

    def _counter_grid(self, resources, sides, heads=(), most=None) -> "CounterGrid":
        """One cell per resource: its name and a counter for each of ``sides`` (``[(key, held or None)]``), as many
        cells a row as the panel's width holds; ``heads`` name the sides' columns over the cells (a trade's Give /
        Get).  With one side a held count is said in the name ("lumber (3)"), with two beside each count ("0/3":
        each side's own hand).  ``most``: see :meth:`_counter_rows` (one side only)."""
        cell_min = dp(LABEL_MIN) + len(sides) * (Counter.width_dp() + dp(CELL_SPACING)) + (len(sides) - 1) * dp(SIDES_GAP)
        grid = CounterGrid(cols=self._columns(cell_min), cell_min=cell_min, heads=heads)
        for r in resources:
            cell = BoxLayout(spacing=dp(CELL_SPACING))
            held = sides[0][1] if len(sides) == 1 else None
            text = self.resource_text(r) + (f" ({held.get(r, 0)})" if held is not None else "")
            name = None
            if most is not None:
                key, n = sides[0][0], self.selection.get(sides[0][0], {}).get(r, 0)
                top = most[r]  # (n is 0 when the tap takes: a chosen name's tap puts back)
                take = name_takes(top, None if held is None else held.get(r, 0))
                name = TakeAll(key, r, text=text, state="down" if n else "normal", disabled=not n and not take)
                name.bind(on_release=lambda _b, key=key, r=r, take=take, n=n: self._set_count(key, r, 0 if n else take))
                cell.add_widget(name)
            else:
                cell.add_widget(FittedLabel(text=text, max_font_size=sp(18), min_font_size=sp(11), halign="center",
                                            valign="middle"))
            for i, (key, held_here) in enumerate(sides):
                if i:  # (the sides' counters apart: which + is whose)
                    cell.add_widget(Widget(size_hint_x=None, width=dp(SIDES_GAP) - dp(CELL_SPACING)))
                counter = Counter(key, r, self.selection.get(key, {}).get(r, 0),
                                  held_here if len(sides) > 1 else None, on_step=self._count)
                if most is not None:
                    counter.name = name
                    counter.plus.disabled = counter.n >= most[r]
                    counter.minus.disabled = counter.n <= 0
                cell.add_widget(counter)
            grid.add_cell(cell)
        self._watch_width()
        return grid

    def _columns(self, cell_min: float) -> int:
        """How many cells of at least ``cell_min`` px a row of the action panel holds (1 before it has a width)."""
        return max(1, int((self.ids.actions.width + dp(CELL_GAP)) // (cell_min + dp(CELL_GAP))))

    def _watch_width(self) -> None:
        """The panel is made again when its width changes how many cells a row holds (the tablet turned)."""
        if getattr(self, "_width_watched", False):
            return
        self._width_watched = True
        again = Clock.create_trigger(lambda _dt: self.refresh())

        def changed(box, _width) -> None:
            if any(isinstance(w, CounterGrid) and w.cols != self._columns(w.cell_min) for w in box.children):
                again()

        self.ids.actions.bind(width=changed)

    def _count(self, key: str, resource: str, delta: int) -> None:
        self._set_count(key, resource, self.selection.get(key, {}).get(resource, 0) + delta)

    def _set_count(self, key: str, resource: str, n: int) -> None:
        cards = dict(self.selection.get(key, {}))
        cards[resource] = max(0, n)
        self._pick(key, {r: n for r, n in cards.items() if n})

    def _ok(self, enabled: bool, event: dict | None, label: str = "", grid: "CounterGrid | None" = None) -> None:
        """The panel's OK: in ``grid``'s spare cell after its last counter when it has one, else a row of its own."""
        ok = BigButton(text=label or app().tr("ok"), disabled=not enabled)
        if enabled and event is not None:
            ok.bind(on_release=lambda _b: self.submit(event))
        if grid is not None:
            ok.height = dp(ROW_HEIGHT + 4)  # (under the counters, a row as high as theirs: a trade in sight)
        if grid is not None and grid.spare_cell():
            # in the cell, as high as it: 4 dp more stood out over the row above (at 1.5 px a dp, 1920x1200, the
            # layout check found OK over the grain cell's buttons by 3 px)
            ok.height = dp(ROW_HEIGHT)
            grid.add_cell(ok)
        else:
            self.ids.actions.add_widget(ok)

    #: Where the open panel's rows lie among the action rows, counted from the top: ``panel_start`` up to
    #: ``panel_end`` (None: to the last row).  The screen sets them as it lays a panel out (the trade panel its own).
    panel_start: int = 1 << 30
    panel_end: int | None = None

    def panel_rows(self) -> list:
        """The open panel's rows, as laid out now (a row of no height left out: the filler at the end)."""
        return [w for w in self.ids.actions.children[::-1][self.panel_start:self.panel_end] if w.height > 0]

    def bring_panel_into_sight(self, again: bool = True) -> None:
        """The panel just opened (a trade, a card, VP cards) or grown (a partner, a card chosen) is brought into
        sight, lying down and upright, on every live screen that has one (the play screen, Starfarers): the
        actions scroll the least that shows the panel's last row (its OK), never past its first row.  A panel
        taller than the view shows from its first row (the choice just made), the rest a drag away; a panel wholly
        in sight moves nothing.  (Landscape 1280x800 the actions' view is 316 px under the builds: Show VP cards'
        OK showed as a 12 px sliver, a trade with a player as "Give" and half a row; Starfarers' trade with Ben
        left its OK 0 of 52 px in sight upright.)"""
        box = self.ids.actions
        if again:  # labels above take their heights from their texts, and the box its own, in the next frame: once
            # more then (the box's height a frame behind its rows left a grown panel's last row 11 px out of sight)
            Clock.schedule_once(lambda _dt: self.bring_panel_into_sight(again=False))
        rows = self.panel_rows()
        scroller = box.parent
        spare = box.height - scroller.height  # how far the content can scroll
        if not rows or spare <= 0:
            return
        first, last = rows[0], rows[-1]
        shown_from = (1 - scroller.scroll_y) * spare  # px of content above the view
        content_top = box.children[-1].top  # (the rows' own top: the box's may not have followed them yet)
        top_of_first = content_top - first.top
        bottom_of_last = content_top - last.y
        wanted = min(top_of_first, max(shown_from, bottom_of_last - scroller.height))
        wanted = min(spare, max(0.0, wanted))
        if abs(wanted - shown_from) >= 1:
            scroller.scroll_y = 1 - wanted / spare

    def _trade_panel(self, g, who: int) -> None:
        """Trade with the bank (at the player's ratios, from the rules' harbor query) or with a player."""
        a = app()
        others = [p for p in range(g.n_players) if p != who]
        self.panel_start = len(self.ids.actions.children)  # (the panel's rows: from its partners to its OK)
        self._toggle_row(a.tr("with"), "partner", ["bank", *others],
                         [a.tr(self.bank_key)] + [a.player_name(p) for p in others], font=15)
        partner = self.selection.get("partner")
        if partner == "bank":
            ratios = g.harbor_ratios(who)
            self._toggle_row(a.tr("give"), "bank_give", g.resources,
                             [f"{self.resource_text(r)}\n{ratios[r]}:1" for r in g.resources], font=14)
            self._toggle_row(a.tr("get"), "bank_get", g.resources, [self.resource_text(r) for r in g.resources],
                             font=14)
            give, get = self.selection.get("bank_give"), self.selection.get("bank_get")
            self._ok(bool(give and get), give and get and {"type": "trade", "player": who, "with": "bank",
                                                             "give": {give: ratios[give]}, "get": {get: 1}})
        elif partner is not None:
            # a cell per resource holding what each side gives of it: the partners, the counts and OK in sight
            # without a drag (in two blocks of five rows the panel was 780 px, its view 298-316 px)
            sides = [("give", dict(g.state.players[who].hand.known)),
                     ("get", dict(g.state.players[partner].hand.known))]
            grid = self._counter_grid(g.resources, sides, heads=(a.tr("give"), a.tr("get")))
            self.ids.actions.add_widget(grid)
            give = {r: n for r, n in self.selection.get("give", {}).items() if n}
            get = {r: n for r, n in self.selection.get("get", {}).items() if n}
            self._ok(bool(give and get), {"type": "trade", "player": who, "with": partner, "give": give, "get": get},
                     grid=grid)
        self.panel_end = len(self.ids.actions.children)


#: A counter's parts and a counter cell's (dp): − and + a finger wide and high, the count between; the narrowest
#: a resource's name gets beside its counters; between a cell's parts, between two cells of a row, between rows;
#: the column heads' row.
STEP_WIDTH, COUNT_WIDTH, ROW_HEIGHT = 48, 40, 48
LABEL_MIN, CELL_SPACING, CELL_GAP, ROW_GAP, HEAD_HEIGHT, SIDES_GAP = 80, 4, 10, 2, 22, 12


class Counter(BoxLayout):
    """− n + for one resource in one choice (``key``: "give", "get", "cards", "hand"); the tests find it by its
    key and resource (driver.counter).  ``held``: how many of the resource that side holds, said beside the
    count ("0/3").  ``name``: the resource's :class:`TakeAll` toggle beside it, if it has one."""

    name = None

    @staticmethod
    def width_dp() -> float:
        return dp(2 * STEP_WIDTH + COUNT_WIDTH + 2 * 2)

    def __init__(self, key: str, resource: str, n: int, held=None, *, on_step, **kw):
        super().__init__(size_hint_x=None, width=self.width_dp(), spacing=dp(2), **kw)
        self.key, self.resource, self.n = key, resource, n
        self.minus = BigButton(text="−", size_hint_x=None, width=dp(STEP_WIDTH), height=dp(ROW_HEIGHT))
        self.plus = BigButton(text="+", size_hint_x=None, width=dp(STEP_WIDTH), height=dp(ROW_HEIGHT))
        self.minus.bind(on_release=lambda _b: on_step(key, resource, -1))
        self.plus.bind(on_release=lambda _b: on_step(key, resource, +1))
        text = str(n) if held is None else \
            f"{n}[size={int(sp(13))}][color=aaaaaa]/{held.get(resource, 0)}[/color][/size]"
        self.count = Label(text=text, markup=True, font_size=sp(22), size_hint_x=None, width=dp(COUNT_WIDTH))
        for w in (self.minus, self.count, self.plus):
            self.add_widget(w)


class TakeAll(BigToggle):
    """A resource's name (and what is held of it) over a counter of cards owed: a tap takes as many as the choice
    lets it at once (:meth:`ChoicePanels._counter_rows`), a tap on it chosen (down) puts them back.  The tests find
    it through its counter (``driver.counter(...).name``)."""

    one_line = True  # "lumber (19)" on one line, in smaller letters where the cell is narrow (wrapping.PhraseWrap)

    def __init__(self, key: str, resource: str, **kw):
        super().__init__(font_size=sp(18), height=dp(ROW_HEIGHT), **kw)
        self.key, self.resource = key, resource


class CounterGrid(BoxLayout):
    """Counter cells ``cols`` a row, each a finger high, under a row naming the counters' columns (``heads``, if
    any): one child of the action panel, as tall as its rows (a panel brought into sight shows it whole)."""

    def __init__(self, *, cols: int, cell_min: float, heads=(), **kw):
        super().__init__(orientation="vertical", size_hint_y=None, spacing=dp(2), **kw)
        self.cols, self.cell_min = cols, cell_min
        if heads:
            row = GridLayout(cols=cols, spacing=(dp(CELL_GAP), 0), size_hint_y=None, height=dp(HEAD_HEIGHT))
            for _ in range(cols):
                head = BoxLayout(spacing=dp(CELL_SPACING))
                head.add_widget(Widget())  # over the names
                for i, text in enumerate(heads):
                    if i:
                        head.add_widget(Widget(size_hint_x=None, width=dp(SIDES_GAP) - dp(CELL_SPACING)))
                    head.add_widget(FittedLabel(text=text, max_font_size=sp(15), min_font_size=sp(10),
                                                halign="center", valign="bottom", size_hint_x=None,
                                                width=Counter.width_dp(), color=(0.8, 0.8, 0.8, 1)))
                row.add_widget(head)
            self.add_widget(row)
        self.cells = GridLayout(cols=cols, spacing=(dp(CELL_GAP), dp(ROW_GAP)), size_hint_y=None,
                                row_force_default=True, row_default_height=dp(ROW_HEIGHT))
        self.add_widget(self.cells)
        self._fit()

    def add_cell(self, widget) -> None:
        self.cells.add_widget(widget)
        self._fit()

    def spare_cell(self) -> bool:
        return len(self.cells.children) % self.cols != 0

    def counters(self) -> list[Counter]:
        return [w for w in self.walk() if isinstance(w, Counter)]

    def _fit(self) -> None:
        rows = -(-len(self.cells.children) // self.cols)
        self.cells.height = rows * dp(ROW_HEIGHT) + max(0, rows - 1) * dp(ROW_GAP)
        self.height = sum(w.height for w in self.children) + self.spacing * (len(self.children) - 1)
