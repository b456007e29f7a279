"""The board widget: draws what the game says and turns touches into corners, sides and hexes.

It holds no rules.  The screen that owns it tells it what to draw (a :class:`~companion.rules.Board`
and the pieces) and which spots to offer (``legal``, from the rules core); a touch on the nearest
spot of the asked kind (``pick``: ``"vertex"``, ``"edge"``, ``"hex"``, or ``"build"``: the nearest corner or
side, whichever is closer) fires ``on_vertex``, ``on_edge`` or ``on_hex`` with the spot's interchange name.  A touch on a spot that is not offered
fires the event too (with ``legal=False``), so the screen can say *why* it is not allowed.

Geometry comes from :mod:`companion.rules.geometry` (one geometry for everything): pointy-top axial
hexes in a y-up plane, scaled to fit the widget.
"""

from __future__ import annotations

import math
import time
from typing import Any, Iterable

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import DictProperty, ListProperty, NumericProperty, ObjectProperty, OptionProperty
from kivy.uix.stencilview import StencilView

from ..rules import geometry as geo

TERRAIN_COLORS = {
    "forest": (0.13, 0.45, 0.2), "hills": (0.74, 0.38, 0.2), "pasture": (0.55, 0.8, 0.35),
    "fields": (0.93, 0.78, 0.3), "mountains": (0.55, 0.55, 0.6), "desert": (0.9, 0.84, 0.62),
    "gold": (0.95, 0.7, 0.1), "sea": (0.2, 0.45, 0.75),
}
SHIP_DASHES = ((0.0, 0.22), (0.39, 0.61), (0.78, 1.0))  # along a side: a ship drawn as three dashes
GOLD_RING = (0.45, 0.28, 0.02)  # dark gold: a gold field's mark, which fields (the nearest colour) do not have
PLAYER_COLORS = {
    "red": (0.85, 0.15, 0.15), "blue": (0.15, 0.35, 0.9), "white": (0.97, 0.97, 0.97),
    "orange": (1.0, 0.55, 0.1), "green": (0.1, 0.65, 0.25), "brown": (0.5, 0.3, 0.15),
}
def harbor_min_px() -> int:
    """The smallest letters a harbour's label gets, in pixels: 11 sp, read from across a table even on the new
    game's preview (a small board there once shrank them to 8 px; its discs grow instead)."""
    return int(sp(11))


def harbor_word(resource: str) -> str:
    """A 2:1 harbor's resource in the running app's language ("lumber", 木材), for its label on the board."""
    from kivy.app import App

    a = App.get_running_app()
    return a.tr(resource) if a is not None and hasattr(a, "tr") else resource
def is_vertex(spot) -> bool:
    """A corner is named by three hexes, a side by two (a hex by its two coordinates)."""
    return len(spot) == 3 and isinstance(spot[0], tuple)


PIP_COUNT = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


#: A dike (High Tide): a band around the inside of its hex, its middle at ``DIKE_AT`` of the way from the centre to
#: the corners, ``DIKE_WIDTH`` hex sizes wide; light earth between dark edges, unlike any terrain or the sea.
DIKE_AT = 0.86
DIKE_WIDTH = 0.12
DIKE_COLOR = (0.87, 0.74, 0.5)
DIKE_EDGE = (0.3, 0.2, 0.1)

#: Where the robber and the pirate stand, from their hex's centre, in hex sizes: beside the number token, clear
#: of it and well inside the hex (its flat sides are 0.87 away; below the token it sat on the corner where
#: settlements stand, and looked as if it were on the border).
FIGURE_OFFSET = (-0.6, 0.0)
#: The figure's radius in hex sizes beside a number token (it must stay clear of the token, 0.33, and inside the
#: hex), and on a hex without one (the desert, the sea): there it stands in the middle, larger.  At 0.2 the
#: figures were 16 px across on an upright Seafarers board, hard to find from across a table.
FIGURE_BESIDE_TOKEN = 0.25
FIGURE_ALONE = 0.36
#: How far from a token-less hex's middle (hex sizes) the figure may step aside when a harbour's label sits
#: there (the pirate on a harbour's sea hex was drawn over the label), and how small it may then become.
FIGURE_STEPS = (0.3, 0.45, 0.6, 0.7)
FIGURE_LEAST = 0.2
#: At a robber (or pirate) move, a dot per player its mover could rob there, in a row above a ringed hex's token
#: (hex sizes: the row's height, each dot's radius, their spacing): the table sees whom each hex robs before it
#: taps one (the screen said it only after the tap, "Rob Ben / Rob Chie").
VICTIM_ROW = 0.5
VICTIM_DOT = 0.13
VICTIM_STEP = 0.3


#: How far a finger moves on a zoomed board before the touch is a drag (the board pans) rather than a tap.
PAN_SLOP_DP = 12


class PannedWhenZoomed:
    """A map's touches once it is zoomed past 1: a drag pans it (``focus``), a tap without a drag picks on lift.

    The widget gives ``zoom``, ``focus``, ``board``, ``_transform()`` (hex size and offsets) and
    ``_pick_at(touch)``.  The board (BoardView) and Starfarers' star map share it, so both answer a finger alike.
    """

    def on_touch_down(self, touch):
        if self.zoom > 1 and self.board is not None and self.collide_point(*touch.pos):
            touch.grab(self)  # zoomed: a drag pans, so the spot is picked when the finger lifts without one
            touch.ud[self._pan_key()] = {"start": touch.pos, "panned": False}
            return True
        return self._pick_at(touch)

    def _pan_key(self) -> str:
        return f"map-pan-{self.uid}"

    def _touch_down_passed_on(self, touch):
        """The widget's own class's handling of a touch its map does not take (``super()`` from the widget
        itself would come back here)."""
        return super().on_touch_down(touch)

    def on_touch_move(self, touch):
        pan = touch.ud.get(self._pan_key())
        if touch.grab_current is not self or pan is None:
            return super().on_touch_move(touch)
        if not pan["panned"] and math.dist(pan["start"], touch.pos) < dp(PAN_SLOP_DP):
            return True
        pan["panned"] = True
        size, ox, oy = self._transform()
        cx, cy = (self.center_x - ox) / size, (self.center_y - oy) / size
        self.focus = (cx - touch.dx / size, cy - touch.dy / size)
        return True

    def on_touch_up(self, touch):
        pan = touch.ud.get(self._pan_key())
        if touch.grab_current is not self or pan is None:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        if not pan["panned"]:
            self._pick_at(touch)
        return True

    def _zoomed(self, size, cx, cy, xs, ys) -> tuple[float, float, float]:
        """The fitted transform (hex size ``size``, map centre ``cx, cy``) made ``zoom`` times larger around
        ``focus`` -- panned, but never past the map's edge (the hex centres ``xs``, ``ys``)."""
        if self.zoom > 1:
            size *= self.zoom
            if self.focus is not None:
                cx = min(max(self.focus[0], min(xs)), max(xs))
                cy = min(max(self.focus[1], min(ys)), max(ys))
        return size, self.center_x - cx * size, self.center_y - cy * size

    def fitted_hex_size(self) -> float:
        """A hex's size (centre to corner, px) with the whole map in the widget (zoom 1)."""
        return self._transform()[0] / max(1.0, self.zoom)


class BoardView(PannedWhenZoomed, StencilView):
    """Draws a board with its pieces; reports touched spots.

    ``zoom`` above 1 draws the board that much larger around ``focus`` (a point of the board's plane, in hex
    sizes), clipped to the widget (a StencilView); a finger dragged on it pans, a tap still picks a spot, on
    its release (at 1 a spot is picked as the finger lands, as ever)."""

    is_picture = True  # texts and controls must not lie over it (driver.layout_problems)

    board = ObjectProperty(None, allownone=True)       # companion.rules.Board
    buildings = DictProperty({})                       # vertex -> (player, "settlement"|"city")
    pieces = DictProperty({})                          # edge -> (player, "road"|"ship")
    robber = ObjectProperty(None, allownone=True)
    pirate = ObjectProperty(None, allownone=True)
    dikes = ListProperty([])
    colors = ListProperty([])                          # player colour names, seat order
    pick = OptionProperty("", options=["", "vertex", "edge", "hex", "build"])
    legal = ObjectProperty(frozenset())                # offered spots of the picked kind ("build": faint hints)
    highlight = ListProperty([])                       # hexes that just produced
    flash = ObjectProperty(None, allownone=True)       # a refused spot, drawn red
    marked = ListProperty([])                          # spots a message is about (a problem, a refusal): ringed red
    selected = ObjectProperty(None, allownone=True)    # the hex (or side) an editor is entering: outlined white
    lifted = ObjectProperty(None, allownone=True)      # a ship being moved (its edge): ringed yellow until it goes
    victims = DictProperty({})                         # hex -> players a robber/pirate move there robs: dots
    zoom = NumericProperty(1.0)                        # 1: the whole board fits; 2: twice as large, panned by a drag
    focus = ObjectProperty(None, allownone=True)       # zoomed: the board point (hex sizes) at the widget's centre

    __events__ = ("on_vertex", "on_edge", "on_hex", "on_plain_tap")

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._labels: dict[tuple[str, int, tuple], Any] = {}
        #: The words the last drawing wrote that a reader must make out: (kind, text, font px), kind "harbor".
        self.texts_drawn: list[tuple[str, str, int]] = []
        #: Where the last drawing put each harbour's label: edge -> (x, y, radius), widget coordinates.
        self.harbor_discs: dict[Any, tuple[float, float, float]] = {}
        # Screens set several properties in a row: draw once, in the next frame, with all of them.
        self._trigger = Clock.create_trigger(self.redraw, -1)
        Clock.schedule_once(self._follow_language)
        self.bind(size=self._trigger, pos=self._trigger, board=self._trigger, buildings=self._trigger,
                  pieces=self._trigger, robber=self._trigger, pirate=self._trigger, pick=self._trigger,
                  legal=self._trigger, highlight=self._trigger, flash=self._trigger, marked=self._trigger, selected=self._trigger, colors=self._trigger, lifted=self._trigger,
                  zoom=self._trigger, focus=self._trigger, victims=self._trigger,
                  dikes=self._trigger)
        self.offers_changed_at = 0.0  # when the spots offered last changed (time.time(): a touch's clock)
        self.bind(pick=self._offers_changed, legal=self._offers_changed)

    def _offers_changed(self, *_args) -> None:
        self.offers_changed_at = time.time()

    def _follow_language(self, _dt) -> None:
        """Harbor labels are words of the app's language: redraw when it changes."""
        from kivy.app import App

        a = App.get_running_app()
        if a is not None and a.property("lang", quiet=True) is not None:
            a.bind(lang=self._trigger)

    # --- layout ------------------------------------------------------------------------------------
    def _transform(self) -> tuple[float, float, float]:
        """(size of a hex, x offset, y offset) fitting every hex of the board into the widget."""
        if self.board is None or not self.board.tiles:
            return 1.0, self.center_x, self.center_y
        pts = [geo.pixel_center(h) for h in self.board.tiles]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        size = self.hex_size_for(self.width, self.height)
        cx = (max(xs) + min(xs)) / 2
        cy = (max(ys) + min(ys)) / 2
        return self._zoomed(size, cx, cy, xs, ys)

    def hex_size_for(self, width: float, height: float) -> float:
        """The size of a hex (centre to corner, px) with the whole board fitted into ``width`` x ``height`` px
        (1 without a board): what the widget would draw at that size, zoom 1 (a screen weighing its layout)."""
        if self.board is None or not self.board.tiles:
            return 1.0
        pts = [geo.pixel_center(h) for h in self.board.tiles]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        w = (max(xs) - min(xs)) + math.sqrt(3)
        h = (max(ys) - min(ys)) + 2.0
        return max(1.0, min(width / w, height / h)) * 0.98

    def to_widget(self, point: tuple[float, float]) -> tuple[float, float]:
        size, ox, oy = self._transform()
        return (ox + point[0] * size, oy + point[1] * size)

    def hex_pos(self, h) -> tuple[float, float]:
        """Window coordinates of a hex's centre (for taps and tests)."""
        return self.to_window(*self.to_widget(geo.pixel_center(tuple(h))))

    def figure_pos(self, h) -> tuple[float, float]:
        """Window coordinates where the robber (or pirate) standing on hex ``h`` is drawn."""
        x, y, _rad = self._figure_spot(h)
        return self.to_window(x, y)

    def figure_radius(self, h) -> float:
        """The radius in pixels of the robber's (or pirate's) disc on hex ``h``."""
        return self._figure_spot(h)[2]

    def victim_dots(self, h) -> list[tuple[float, float, float, int]]:
        """(x, y, radius, player) in window coordinates of the dots ringed hex ``h`` shows for whom a move there
        robs (``victims``), in seat order, centred in a row above its token."""
        return [(*self.to_window(x, y), rad, p) for x, y, rad, p in self._victim_spots(h)]

    def _victim_spots(self, h) -> list[tuple[float, float, float, int]]:
        """:meth:`victim_dots` in widget coordinates."""
        players = self.victims.get(tuple(h), ())
        size = self._transform()[0]
        cx, cy = self.to_widget(geo.pixel_center(tuple(h)))
        first = cx - (len(players) - 1) * VICTIM_STEP * size / 2
        return [(first + i * VICTIM_STEP * size, cy + VICTIM_ROW * size, VICTIM_DOT * size, p)
                for i, p in enumerate(players)]

    def _figure_spot(self, h) -> tuple[float, float, float]:
        """(x, y, radius) of a figure on hex ``h``, widget coordinates: beside its number token, or in the middle of
        a hex without one -- stepped aside when a harbour's label (as last drawn) is there."""
        size = self._transform()[0]
        cx, cy = self.to_widget(geo.pixel_center(tuple(h)))
        tile = self.board.tiles.get(tuple(h)) if self.board is not None else None
        if tile is not None and tile.number is not None:
            return cx + size * FIGURE_OFFSET[0], cy + size * FIGURE_OFFSET[1], size * FIGURE_BESIDE_TOKEN
        spots = list(self._figure_spots(cx, cy, size))
        best = max(range(len(spots)), key=lambda i: spots[i][2])  # the first (the middle) of equals
        x, y, room = spots[best]
        return x, y, max(size * FIGURE_LEAST, min(size * FIGURE_ALONE, room))

    def _figure_spots(self, cx: float, cy: float, size: float):
        """Where a figure may stand on a token-less hex centred at (cx, cy), each with the largest radius that
        keeps it off every harbour label: the middle first, then stepped toward each flat side and each corner.
        A large harbour label can fill half a sea hex on a small board: the figure then stands in what is left,
        smaller (never under FIGURE_LEAST), and may reach over its hex's side into the sea around it; its middle
        stays well inside its own hex."""
        yield cx, cy, self._figure_room(cx, cy, size)
        for step in FIGURE_STEPS:
            for a in range(0, 360, 30):
                x = cx + size * step * math.cos(math.radians(a))
                y = cy + size * step * math.sin(math.radians(a))
                yield x, y, self._figure_room(x, y, size)

    def _figure_room(self, x: float, y: float, size: float) -> float:
        """The radius a figure at (x, y) may have: up to FIGURE_ALONE, 2 px clear of every harbour label as last
        drawn (negative where a label covers the spot)."""
        labels = min((math.dist((x, y), (hx, hy)) - r - 2 for hx, hy, r in self.harbor_discs.values()),
                     default=math.inf)
        return min(size * FIGURE_ALONE, labels)

    def vertex_pos(self, v) -> tuple[float, float]:
        return self.to_window(*self.to_widget(geo.vertex_point(tuple(map(tuple, v)))))

    def edge_pos(self, e) -> tuple[float, float]:
        return self.to_window(*self.to_widget(geo.edge_point(tuple(map(tuple, e)))))

    # --- touches -----------------------------------------------------------------------------------
    def _pick_at(self, touch):
        """A tap: the offered (or not) spot nearest to it is reported (``on_vertex``, ``on_edge``, ``on_hex``)."""
        if getattr(touch, "is_double_tap", False) and self.collide_point(*touch.pos) and \
                touch.time_start - touch.double_tap_time <= self.offers_changed_at <= touch.time_start:
            # the double tap's first tap changed what the board offers (a set-up corner taken: now its sides), so
            # this one was aimed at what went: at the corner it chose one of the three sides for the road
            # (Seafarers for 5, 800x1280, by real taps: the settlement and a road the player never chose)
            return True
        if not self.collide_point(*touch.pos) or not self.pick or self.board is None:
            if self.collide_point(*touch.pos) and self.dispatch("on_plain_tap"):
                return True  # nothing was offered and the screen closed a panel the tap was not meant for
            return self._touch_down_passed_on(touch)
        spot = self.spot_at(touch.pos)
        if spot is None:
            return True
        kind = self.pick if self.pick != "build" else ("vertex" if is_vertex(spot) else "edge")
        self.dispatch(f"on_{kind}", spot, spot in self.legal)
        return True

    def spot_at(self, pos: tuple[float, float]):
        """The spot of the picked kind nearest to ``pos`` (widget coordinates), or None if too far."""
        size, ox, oy = self._transform()
        x, y = (pos[0] - ox) / size, (pos[1] - oy) / size
        if self.pick == "vertex":
            candidates: Iterable = self.board.vertices
            where, reach = geo.vertex_point, 0.45
        elif self.pick == "edge":
            candidates = self.board.edges
            where, reach = geo.edge_point, 0.45
        elif self.pick == "build":  # a corner or a side: a side's middle is half a side from its two corners
            candidates = (*self.board.vertices, *self.board.edges)
            reach = 0.45

            def where(spot):
                return geo.vertex_point(spot) if is_vertex(spot) else geo.edge_point(spot)
        else:
            candidates = self.board.tiles
            where, reach = geo.pixel_center, 0.9
        # Offered spots win ties: a finger between two corners means the one that can be taken.
        best, best_d = None, reach
        for spot in candidates:
            px, py = where(spot)
            d = math.hypot(px - x, py - y) - (0.12 if spot in self.legal else 0.0)
            if d < best_d:
                best, best_d = spot, d
        return best

    def on_vertex(self, vertex, legal):
        pass

    def on_edge(self, edge, legal):
        pass

    def on_hex(self, hex_, legal):
        pass

    def on_plain_tap(self):
        """A tap on the board where nothing is offered; a handler returning True has used it."""

    # --- drawing -----------------------------------------------------------------------------------
    def _text(self, text: str, font_size: int, color=(0, 0, 0, 1)):
        key = (text, font_size, tuple(color))
        tex = self._labels.get(key)
        if tex is None:
            label = CoreLabel(text=text, font_size=font_size, color=color, bold=True)
            label.refresh()
            tex = self._labels[key] = label.texture
        return tex

    def _blit_text(self, text: str, center, font_size: int, color=(0, 0, 0, 1), kind: str = "") -> None:
        if kind:
            self.texts_drawn.append((kind, text, font_size))
        tex = self._text(text, font_size, color)
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, size=tex.size, pos=(center[0] - tex.width / 2, center[1] - tex.height / 2))

    def _player_rgb(self, player: int):
        name = self.colors[player] if player < len(self.colors) else "white"
        return PLAYER_COLORS.get(name, (0.5, 0.5, 0.5))

    def redraw(self, *_):
        self.canvas.clear()
        self.texts_drawn = []
        self.harbor_discs = {}
        if self.board is None:
            return
        size, ox, oy = self._transform()

        def P(point):
            return (ox + point[0] * size, oy + point[1] * size)

        with self.canvas:
            Color(0.12, 0.26, 0.45, 1)
            Rectangle(pos=self.pos, size=self.size)
            for h, tile in self.board.tiles.items():
                cx, cy = P(geo.pixel_center(h))
                corners = []
                for i in range(6):
                    a = math.radians(60 * i + 30)  # pointy-top
                    corners.append((cx + size * math.cos(a) * 0.97, cy + size * math.sin(a) * 0.97))
                r, g, b = TERRAIN_COLORS.get(tile.terrain, (0.5, 0.5, 0.5))
                lit = h in self.highlight
                Color(r, g, b, 1)
                verts = [cx, cy, 0, 0]
                for x, y in corners:
                    verts += [x, y, 0, 0]
                Mesh(vertices=verts, indices=list(range(7)) + [1], mode="triangle_fan")
                if lit:
                    Color(1, 1, 0.3, 1)
                    Line(points=sum(([x, y] for x, y in corners), []), close=True, width=max(2, size * 0.07))
                if tile.terrain == "gold":  # a ring inside the hex: gold is told from fields by more than its tint
                    Color(*GOLD_RING, 1)
                    Line(points=sum(([cx + (x - cx) * 0.8, cy + (y - cy) * 0.8] for x, y in corners), []),
                         close=True, width=max(1.5, size * 0.06))
                if h in self.dikes:
                    # an embankment inside the hex's edge, a light band between dark ones: a thin brown line on the
                    # hex's border read as the border itself, and a table did not see the dike it had just paid for
                    # (playtest s10, High Tide upright: ~3 px)
                    ring = sum(([cx + (x - cx) * DIKE_AT, cy + (y - cy) * DIKE_AT] for x, y in corners), [])
                    Color(*DIKE_EDGE, 1)
                    Line(points=ring, close=True, width=max(3, size * DIKE_WIDTH / 2 + 1.5), joint="miter")
                    Color(*DIKE_COLOR, 1)
                    Line(points=ring, close=True, width=max(1.5, size * DIKE_WIDTH / 2), joint="miter")
                if tile.number is not None:
                    rad = size * 0.33
                    Color(0.98, 0.94, 0.82, 1)
                    Ellipse(pos=(cx - rad, cy - rad), size=(2 * rad, 2 * rad))
                    red = tile.number in (6, 8)
                    self._blit_text(str(tile.number), (cx, cy + rad * 0.12), max(10, int(size * 0.3)),
                                    (0.75, 0.05, 0.05, 1) if red else (0.1, 0.1, 0.1, 1))
                    self._blit_text("·" * PIP_COUNT.get(tile.number, 0), (cx, cy - rad * 0.5),
                                    max(8, int(size * 0.22)), (0.75, 0.05, 0.05, 1) if red else (0.1, 0.1, 0.1, 1))
            for e, trade in self.board.harbors.items():
                x, y = P(geo.edge_point(e))
                sea = e[0] if not self.board.is_land(e[0]) else e[1]
                sx, sy = P(geo.pixel_center(sea))
                # readable, in the user's language: the ratio over the resource's name ("2:1" / "lumber", 木材)
                rad = size * 0.38
                word = font = None
                least = harbor_min_px()
                if trade != "3:1":
                    word, font = harbor_word(trade), max(least, int(size * 0.2))
                    width = self._text(word, font).width
                    if width > 1.7 * rad:  # smaller letters to fit the disc, down to a readable size: a word
                        # still wider (a small preview) widens the disc instead
                        font = max(least, int(font * 1.7 * rad / width))
                        rad = max(rad, self._text(word, font).width / 1.7)
                    rad = max(rad, 1.25 * self._text("2:1", font).height)  # room for both lines
                # Out to sea far enough that a road or ship on the harbour's side leaves the words whole: on a small
                # board the disc (its letters never under 11 sp) is larger than the hex, and a road on that side
                # covered "レンガ" / "brick" (upright, 6 players).
                dist = math.hypot(sx - x, sy - y) or 1.0
                reach = min(dist, max(0.45 * dist, rad + max(3, size * 0.11) + 1))
                hx, hy = x + (sx - x) * reach / dist, y + (sy - y) * reach / dist
                self.harbor_discs[e] = (hx, hy, rad)
                Color(0.45, 0.3, 0.15, 1)
                Line(points=[x, y, hx, hy], width=max(1.5, size * 0.05))
                Color(1, 1, 1, 0.92)
                Ellipse(pos=(hx - rad, hy - rad), size=(2 * rad, 2 * rad))
                if word is None:
                    self._blit_text("3:1", (hx, hy), max(least, int(size * 0.24)), kind="harbor")
                else:
                    self._blit_text("2:1", (hx, hy + rad * 0.36), max(least, int(size * 0.2)), kind="harbor")
                    self._blit_text(word, (hx, hy - rad * 0.34), font, kind="harbor")
            # The robber and the pirate under the pieces: a road, ship or building on the figure's side of its hex
            # stays whole (drawn over, a white road beside the robber was hidden by its disc; playtest s9).
            self._draw_figures()
            for e, (player, kind) in self.pieces.items():
                (x1, y1), (x2, y2) = (P(geo.vertex_point(v)) for v in geo.edge_vertices(e))
                x1, y1, x2, y2 = (x1 + (x2 - x1) * 0.12, y1 + (y2 - y1) * 0.12,
                                  x2 + (x1 - x2) * 0.12, y2 + (y1 - y2) * 0.12)
                # a ship is three dashes, a road one stroke (Kivy's own dashes are drawn only for lines 1 px wide,
                # so a ship looked like a road)
                parts = SHIP_DASHES if kind == "ship" else ((0.0, 1.0),)
                for colour, width in (((0, 0, 0), max(3, size * 0.11)), (self._player_rgb(player), max(2, size * 0.08))):
                    Color(*colour, 1)
                    for a, b in parts:
                        Line(points=[x1 + (x2 - x1) * a, y1 + (y2 - y1) * a, x1 + (x2 - x1) * b, y1 + (y2 - y1) * b],
                             width=width, cap="none" if kind == "ship" else "round")
            for v, (player, kind) in self.buildings.items():
                x, y = P(geo.vertex_point(v))
                s = size * (0.24 if kind == "city" else 0.17)
                Color(0, 0, 0, 1)
                Rectangle(pos=(x - s - 2, y - s - 2), size=(2 * s + 4, 2 * s + 4))
                Color(*self._player_rgb(player), 1)
                Rectangle(pos=(x - s, y - s), size=(2 * s, 2 * s))
                if kind == "city":
                    Color(0, 0, 0, 1)
                    Line(rectangle=(x - s * 0.5, y - s * 0.5, s, s), width=1.5)
            self._draw_offers(P, size)

    FIGURES = (("R", "robber", (0.15, 0.15, 0.15)), ("P", "pirate", (0.05, 0.05, 0.05)))

    def _draw_figures(self, on=None) -> None:
        """The robber and the pirate (those standing on a hex of ``on`` only, when given): a white-edged disc with
        its letter."""
        for token, name, rgb in self.FIGURES:
            h = getattr(self, name)
            if h is None or (on is not None and tuple(h) not in on):
                continue
            cx, cy, rad = self._figure_spot(h)
            Color(1, 1, 1, 1)
            Ellipse(pos=(cx - rad - 2, cy - rad - 2), size=(2 * rad + 4, 2 * rad + 4))
            Color(*rgb, 1)
            Ellipse(pos=(cx - rad, cy - rad), size=(2 * rad, 2 * rad))
            self._blit_text(token, (cx, cy), max(8, int(rad * 1.1)), (1, 1, 1, 1))

    def _draw_offers(self, P, size: float) -> None:
        if self.pick == "vertex":
            Color(0.2, 1.0, 0.3, 0.95)
            rad = size * 0.13
            for v in self.legal:
                x, y = P(geo.vertex_point(v))
                Ellipse(pos=(x - rad, y - rad), size=(2 * rad, 2 * rad))
        elif self.pick == "edge":
            Color(0.2, 1.0, 0.3, 0.95)
            for e in self.legal:
                (x1, y1), (x2, y2) = (P(geo.vertex_point(v)) for v in geo.edge_vertices(e))
                Line(points=[x1 + (x2 - x1) * 0.2, y1 + (y2 - y1) * 0.2, x2 + (x1 - x2) * 0.2, y2 + (y1 - y2) * 0.2],
                     width=max(2, size * 0.07))
        elif self.pick == "hex":
            Color(0.2, 1.0, 0.3, 0.9)
            for h in self.legal:
                cx, cy = P(geo.pixel_center(h))
                Line(circle=(cx, cy, size * 0.6), width=max(2, size * 0.06))
            for h in self.legal:  # whom a move there robs, over the ring (a dark edge: white on the fields)
                for x, y, rad, player in self._victim_spots(h):
                    Color(0.1, 0.1, 0.1, 1)
                    Ellipse(pos=(x - rad - 2, y - rad - 2), size=(2 * rad + 4, 2 * rad + 4))
                    Color(*self._player_rgb(player), 1)
                    Ellipse(pos=(x - rad, y - rad), size=(2 * rad, 2 * rad))
            # a ringed hex's robber or pirate over its ring: the ring ran through the figure beside the token, and
            # with a building at the corner the robber was all but hidden while the tide asked for that very hex
            # ("Nobody receives anything" on its 5 and no robber to be seen; playtest s10, High Tide upright)
            self._draw_figures(on={tuple(h) for h in self.legal})
        elif self.pick == "build":
            # nothing armed: where a tap builds, hinted faintly (the board stays readable)
            Color(0.2, 1.0, 0.3, 0.55)
            for spot in self.legal:
                if is_vertex(spot):  # a ring: around a settlement it says "a city here"
                    x, y = P(geo.vertex_point(spot))
                    Line(circle=(x, y, size * 0.17), width=max(1.5, size * 0.03))
                else:
                    (x1, y1), (x2, y2) = (P(geo.vertex_point(v)) for v in geo.edge_vertices(spot))
                    Line(points=[x1 + (x2 - x1) * 0.25, y1 + (y2 - y1) * 0.25, x2 + (x1 - x2) * 0.25,
                                 y2 + (y1 - y2) * 0.25], width=max(1.5, size * 0.045))
        if self.lifted is not None:  # the ship in hand: where it lies until a tap sends it elsewhere
            Color(1, 0.9, 0.1, 1)
            x, y = P(geo.edge_point(self.lifted))
            Line(circle=(x, y, size * 0.3), width=max(2, size * 0.06))
        Color(1, 0.15, 0.15, 1)
        for spot in self.marked:  # a hex, a corner (three hexes) or a side (two): the place the words name
            spot = tuple(tuple(h) for h in spot) if isinstance(spot[0], (list, tuple)) else tuple(spot)
            if len(spot) == 3 and isinstance(spot[0], tuple):
                x, y = P(geo.vertex_point(spot))
                Line(circle=(x, y, size * 0.26), width=max(2, size * 0.05))
            elif isinstance(spot[0], tuple):
                x, y = P(geo.edge_point(spot))
                Line(circle=(x, y, size * 0.26), width=max(2, size * 0.05))
            else:
                cx, cy = P(geo.pixel_center(spot))
                Line(circle=(cx, cy, size * 0.75), width=max(2, size * 0.05))
        if self.selected is not None:
            # white, and hex-shaped, where problems are red circles: with the editor moving on by itself, which hex
            # is being entered must not be taken for a hex a problem names (both were red rings)
            Color(1, 1, 1, 1)
            spot = tuple(self.selected)
            if isinstance(spot[0], (list, tuple)):
                # a side (a harbor's): white along the side itself -- a ring round its middle lay over the harbor's
                # disc and hid half of its word ("2:1 羊毛") while the editor asked for that very harbor's kind
                (x1, y1), (x2, y2) = (P(geo.vertex_point(v)) for v in geo.edge_vertices(tuple(tuple(h) for h in spot)))
                Line(points=[x1, y1, x2, y2], width=max(3, size * 0.09), cap="round")
            else:
                cx, cy = P(geo.pixel_center(spot))
                outline = []
                for i in range(6):
                    a = math.radians(60 * i + 30)  # pointy-top, inside the hex's edge
                    outline += [cx + size * math.cos(a) * 0.86, cy + size * math.sin(a) * 0.86]
                Line(points=outline, close=True, width=max(3, size * 0.08))
        if self.flash is not None:
            Color(1, 0.1, 0.1, 1)
            spot = self.flash
            if len(spot) == 3:
                x, y = P(geo.vertex_point(spot))
                Line(circle=(x, y, size * 0.18), width=3)
            elif isinstance(spot[0], tuple):
                x, y = P(geo.edge_point(spot))
                Line(circle=(x, y, size * 0.18), width=3)
            else:
                x, y = P(geo.pixel_center(spot))
                Line(circle=(x, y, size * 0.6), width=3)
