"""The live Starfarers screen: the map of planets and colony sites, whose turn, the dice and the
mothership, production and supply draws, the 7 helper, building, the flight's results, the VP board.

Self-contained: its layout is ``starfarers.kv`` (loaded by whoever adds the screen, see
:func:`build_screen`).  It holds no rules: every input is a record event sent to the app's
:class:`~companion.table.Table`; what is offered comes from the game (``waiting_for``,
``colony_site_problem``, ``harbor_ratios``, ``pieces_left``, the last outcome) and a refused event's
message is shown as it is.
"""

from __future__ import annotations

import math
import random
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.metrics import dp, sp
from kivy.utils import escape_markup
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, OptionProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.stencilview import StencilView
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from ..dice import DiceRolled, RollPhoto
from ..rules import RulesError
from ..rules import geometry as geo
from ..rules.starfarers import BALL_VALUES, COSTS, SETUP_UPGRADES, UPGRADES, shake_mothership
from ..rules.starfarers_board import NUMBERS, RESOURCES, first_game_board
from . import i18n_extra
from .widgets import lay_out_now, load_rules
from .camera_picture import CameraPicture, open_camera_view
from .fitted_label import FittedLabel
from .choices import ROW_HEIGHT, ChoicePanels, CounterGrid, TakeAll, name_takes
from .game_screen import GameScreen, app
from .refusals_text import app_describe, app_refused_roll
from .board_view import PLAYER_COLORS, PannedWhenZoomed
from .play_screen import MIN_TARGET_DP, ZOOM
from .play_panels import NO_BREAK, joined
from .game_over import play_again_button

#: An offered colony site's ring, in hex sizes: as wide as the sites allow.  A site lies 0.87 hex from the middles
#: of its two planets (their number chips 0.36 across), so a ring up to ~0.45 leaves the numbers clear; the three
#: sites round a system's middle lie 0.87 apart, so their rings nearly touch.  Was 0.3 (7.8 px at 1280x800).
SITE_RING = 0.42
#: A tap between two offered colony sites, nearly as near the one as the other (its distances to them differ by
#: less than this share of the sites' spacing), while the sites lie closer than a fingertip: the map zooms in on
#: them and asks which, rather than building on the nearer.  At 1280x800 (sites 25 px apart) a tap within ~9 px
#: of a site's middle takes it; one nearer the line between two sites asks.
CLOSE_CALL = 0.3

RESOURCE_COLORS = {"ore": (0.55, 0.55, 0.62), "fuel": (0.85, 0.35, 0.2), "carbon": (0.25, 0.25, 0.28),
                   "food": (0.35, 0.7, 0.3), "trade_goods": (0.85, 0.7, 0.25)}
BALL_COLORS = {"yellow": (0.95, 0.85, 0.2), "red": (0.85, 0.15, 0.15), "blue": (0.2, 0.4, 0.9),
               "black": (0.08, 0.08, 0.08)}
#: An encounter's stepper cell (dp) at its narrowest: its words ("Half-medals: +0"), − and +; three a row upright
#: (800 px), two lying down (the panel's 520 px).
ENCOUNTER_CELL_MIN = 250
SHIP_KEYS = ("colony_ship", "trade_ship")



def as_json(spot) -> list:
    """A site (edge) or a hex as JSON lists."""
    return [list(h) for h in spot] if isinstance(spot[0], tuple) else list(spot)


def new_board(players: int) -> dict:
    """The board a new game starts with: the first-game layout; with 3 players one site of three Catan
    systems holds the unused 4th colour's colony, as the docs' example sets out (``board.neutral``)."""
    board = first_game_board().to_json()
    if players == 3:
        catan = [s for s in board["systems"] if s.get("catan")][:3]
        board["neutral"] = [[s["planets"][0]["at"], s["planets"][2]["at"]] for s in catan]
    return board


def build_screen() -> "StarfarersScreen":
    """Load the layout once and make the screen (for the app's screen manager)."""
    i18n_extra.install()
    load_rules("starfarers.kv")
    return StarfarersScreen()


class StarMap(PannedWhenZoomed, StencilView):
    """Draws the planets, colony sites, alien stations and pieces; turns a touch into a spot.

    ``pick``: which spots a touch chooses (``site``, ``station``, ``planet``); a touch fires ``on_spot``
    with the nearest spot of that kind and whether it is offered (``legal``).  ``zoom`` above 1 draws the map
    that much larger around ``focus`` (a point of the map's plane, in hex sizes), clipped to the widget; a
    finger dragged on it pans, and a tap picks its spot on the release -- as the base game's board does.
    """

    is_picture = True  # texts and controls must not lie over it (driver.layout_problems)

    board = ObjectProperty(None, allownone=True)      # StarBoard
    buildings = DictProperty({})                      # site -> (player, "colony" | "spaceport")
    docks = DictProperty({})                          # station hex -> [owners in order]
    friendship = DictProperty({})                     # station hex -> holder or None
    colors = ListProperty([])
    pick = OptionProperty("", options=["", "site", "station", "planet"])
    legal = ObjectProperty(frozenset())
    highlight = ListProperty([])                      # planets that just produced
    flash = ObjectProperty(None, allownone=True)
    chosen = ObjectProperty(None, allownone=True)     # the site picked for a choice still open (a spaceport)
    zoom = NumericProperty(1.0)                       # 1: the whole map fits; above: larger, panned by a drag
    focus = ObjectProperty(None, allownone=True)      # zoomed: the map point (hex sizes) at the widget's centre

    __events__ = ("on_spot", "on_close_sites")

    def __init__(self, **kw):
        super().__init__(**kw)
        self._textures: dict = {}
        self._trigger = Clock.create_trigger(self.redraw, -1)
        for name in ("size", "pos", "board", "buildings", "docks", "friendship", "colors", "pick", "legal",
                     "highlight", "flash", "chosen", "zoom", "focus"):
            self.bind(**{name: self._trigger})

    def on_spot(self, spot, legal):
        pass

    def on_close_sites(self, sites):
        pass

    # --- geometry: the core's pointy-top axial hexes, scaled to fit -------------------------------------
    def _hexes(self):
        return list(self.board.planets) + list(self.board.stations) if self.board else []

    def _transform(self):
        pts = [geo.pixel_center(h) for h in self._hexes()] or [(0.0, 0.0)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        # room above the top row for the stations' names
        size = max(1.0, min(self.width / (max(xs) - min(xs) + math.sqrt(3)),
                            self.height / (max(ys) - min(ys) + 3)) * 0.97)
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys) + 1) / 2
        return self._zoomed(size, cx, cy, xs, ys)

    def offered_middle(self):
        """The middle of the offered spots (hex sizes), or None when nothing is offered."""
        where = geo.edge_point if self.pick == "site" else geo.pixel_center
        points = [where(s) for s in self.legal] if self.pick else []
        if not points:
            return None
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)

    def site_spacing(self) -> float:
        """The distance between the two closest colony sites, in hex sizes (the three sites round a system's
        middle lie half a hex apart): how wide a site's tap target is, since a tap takes the nearest one."""
        sites = [geo.edge_point(s) for s in self.board.sites] if self.board is not None else []
        return min((math.dist(a, b) for i, a in enumerate(sites) for b in sites[i + 1:]), default=1.0)

    def to_widget(self, point):
        size, ox, oy = self._transform()
        return ox + point[0] * size, oy + point[1] * size

    def hex_pos(self, h):
        return self.to_widget(geo.pixel_center(h))

    def site_pos(self, site):
        return self.to_widget(geo.edge_point(site))

    def spots(self):
        if self.board is None:
            return []
        if self.pick == "site":
            return [(s, self.site_pos(s)) for s in self.board.sites]
        if self.pick == "station":
            return [(h, self.hex_pos(h)) for h in self.board.stations]
        if self.pick == "planet":
            return [(h, self.hex_pos(h)) for h in self.board.planets]
        return []

    def spot_at(self, pos):
        """The spot of the picked kind a tap at ``pos`` (widget coordinates) takes: the nearest one, an offered
        one winning a near tie (a finger between a taken site and a free one means the free one, as on the hex
        boards); None in empty space."""
        size = self._transform()[0]
        found = min(self.spots(), key=lambda sp_: math.dist(sp_[1], pos) - (0.12 * size if sp_[0] in self.legal
                                                                             else 0.0), default=None)
        if found is None or math.dist(found[1], pos) > size * 0.9:
            return None
        return found[0]

    def close_sites(self, pos):
        """The two offered colony sites a tap at ``pos`` falls between (widget coordinates), when sites lie closer
        than a fingertip at the map's size and the tap is nearly as near the one as the other (``CLOSE_CALL``);
        None when the tap is clearly on one site, the map is zoomed, or no sites are being picked."""
        if self.pick != "site" or self.zoom > 1 or self.board is None:
            return None
        size = self._transform()[0]
        spacing = self.site_spacing() * size
        if spacing >= dp(MIN_TARGET_DP):
            return None
        near = sorted((math.dist(self.site_pos(s), pos), s) for s in self.legal)
        if len(near) < 2 or near[0][0] > size * 0.9 or near[1][0] - near[0][0] >= CLOSE_CALL * spacing:
            return None
        if self.spot_at(pos) not in (near[0][1], near[1][1]):  # (a free site nearer still: the tap is on it)
            return None
        return near[0][1], near[1][1]

    def _pick_at(self, touch):
        """A tap: the spot of the picked kind it takes (``spot_at``) is reported (``on_spot``), offered or not --
        or, falling between two close offered sites, those two (``on_close_sites``), and nothing is chosen."""
        if not self.collide_point(*touch.pos) or not self.pick:
            return self._touch_down_passed_on(touch)
        if not self.spots():
            return False
        pair = self.close_sites(touch.pos)
        if pair is not None:
            self.dispatch("on_close_sites", pair)
            return True
        spot = self.spot_at(touch.pos)
        if spot is not None:  # (a touch in empty space chooses nothing)
            self.dispatch("on_spot", spot, spot in self.legal)
        return True

    # --- drawing ------------------------------------------------------------------------------------------
    def _text(self, text, center, font_size, color=(1, 1, 1, 1)):
        key = (text, font_size, tuple(color))
        tex = self._textures.get(key)
        if tex is None:  # rendering a text is the costly part of a redraw: each one once
            label = CoreLabel(text=text, font_size=font_size, color=color)
            label.refresh()
            tex = self._textures[key] = label.texture
        Color(1, 1, 1, 1)
        x = center[0] - tex.width / 2
        if self.zoom <= 1:  # whole names, even at the edge (zoomed, a name off the view stays off it)
            x = min(max(x, self.x), self.right - tex.width)
        Rectangle(texture=tex, size=tex.size, pos=(x, center[1] - tex.height / 2))

    def _hexagon(self, center, r):
        pts = []
        for k in range(6):
            a = math.radians(60 * k + 30)
            pts += [center[0] + r * math.cos(a), center[1] + r * math.sin(a)]
        return pts

    def _player_rgb(self, p):
        return PLAYER_COLORS.get(self.colors[p], (0.6, 0.6, 0.6)) if p < len(self.colors) else (0.6, 0.6, 0.6)

    def redraw(self, *_):
        self.canvas.clear()
        if self.board is None:
            return
        size, _, _ = self._transform()
        fs = max(10, int(size * 0.42))
        with self.canvas:
            Color(0.03, 0.03, 0.1, 1)
            Rectangle(pos=self.pos, size=self.size)
            for h, planet in self.board.planets.items():
                c = self.hex_pos(h)
                Color(*RESOURCE_COLORS.get(planet.resource, (0.5, 0.5, 0.5)), 1)
                pts = self._hexagon(c, size * 0.93)
                Mesh(vertices=[v for i in range(6) for v in (pts[2 * i], pts[2 * i + 1], 0, 0)],
                     indices=list(range(6)), mode="triangle_fan")
                if h in self.highlight:
                    Color(1, 1, 0.4, 1)
                    Line(points=pts, close=True, width=max(2, size * 0.08))
                if planet.hidden:
                    chip, rgb = "?", (0.9, 0.9, 0.9)
                elif planet.marker == "pirate":
                    chip, rgb = f"P{planet.pirate}", (1, 0.35, 0.35)
                elif planet.marker == "ice":
                    chip, rgb = f"I{planet.ice}", (0.1, 0.35, 0.85)
                else:
                    chip, rgb = str(planet.number), (1, 0.3, 0.3) if planet.number in (6, 8) else (0.1, 0.1, 0.1)
                Color(0.96, 0.93, 0.82, 1)
                Ellipse(pos=(c[0] - size * 0.36, c[1] - size * 0.36), size=(size * 0.72, size * 0.72))
                self._text(chip, c, fs, (*rgb, 1))
                if self.pick == "planet" and h in self.legal:
                    Color(0.3, 1, 0.4, 1)
                    Line(circle=(c[0], c[1], size * 0.45), width=max(2, size * 0.06))
            for h, alien in self.board.stations.items():
                c = self.hex_pos(h)
                holder = self.friendship.get(h)
                Color(*(self._player_rgb(holder) if holder is not None else (0.45, 0.3, 0.6)), 1)
                Line(points=self._hexagon(c, size * 0.9), close=True, width=max(2, size * 0.07))
                self._text(app().tr(alien, app().lang) if app() else alien, (c[0], c[1] + size * 1.15),
                           max(12, int(fs * 0.7)))
                owners = list(self.docks.get(h, ()))
                for k in range(5):  # the station's five docks
                    x = c[0] + (k - 2) * size * 0.32
                    if k < len(owners):
                        Color(*self._player_rgb(owners[k]), 1)
                        Ellipse(pos=(x - size * 0.13, c[1] - size * 0.25), size=(size * 0.26, size * 0.26))
                    else:
                        Color(0.7, 0.7, 0.8, 1)
                        Line(circle=(x, c[1] - size * 0.12, size * 0.12), width=1.2)
                if self.pick == "station" and h in self.legal:
                    Color(0.3, 1, 0.4, 1)
                    Line(circle=(c[0], c[1], size * 0.8), width=max(2, size * 0.06))
            r = size * 0.2
            ring = size * SITE_RING  # an offered site's ring (its outer edge clear of the planets' number chips)
            for site in self.board.sites:
                x, y = self.site_pos(site)
                owner = self.buildings.get(site)
                offered = self.pick == "site" and site in self.legal
                if offered:  # a green disc in its ring: a mark to see and a spot to aim at (a 7.8 px ring was)
                    Color(0.3, 1, 0.4, 0.3)
                    Ellipse(pos=(x - ring, y - ring), size=(2 * ring, 2 * ring))
                if owner is not None:
                    Color(0, 0, 0, 1)
                    Ellipse(pos=(x - r * 1.25, y - r * 1.25), size=(r * 2.5, r * 2.5))
                    Color(*self._player_rgb(owner[0]), 1)
                    Ellipse(pos=(x - r * 1.1, y - r * 1.1), size=(r * 2.2, r * 2.2))
                    if owner[1] == "spaceport":
                        Color(1, 1, 1, 1)
                        Line(circle=(x, y, r * 1.6), width=max(1.5, size * 0.05))
                elif site in self.board.neutral:
                    Color(0.5, 0.5, 0.5, 1)
                    Ellipse(pos=(x - r, y - r), size=(r * 2, r * 2))
                else:  # an empty site, offered or not: a ring a player can see (it was 2.6 px across at 1280x800)
                    Color(1, 1, 1, 0.6)
                    Line(circle=(x, y, size * 0.2), width=max(1.2, size * 0.03))
                if site == self.chosen:  # the pick stands out from the offered green rings until OK (cyan: no
                    Color(0.1, 0.9, 1, 1)  # planet, player or marker is drawn in it)
                    Line(circle=(x, y, ring), width=max(3, size * 0.08))
                elif offered:
                    Color(0.3, 1, 0.4, 1)
                    Line(circle=(x, y, ring), width=max(2, size * 0.05))
            if self.flash is not None and self.pick:
                pos = self.site_pos(self.flash) if isinstance(self.flash[0], tuple) else self.hex_pos(self.flash)
                Color(1, 0.2, 0.2, 1)
                Line(circle=(pos[0], pos[1], ring if isinstance(self.flash[0], tuple) else size * 0.45),
                     width=max(2, size * 0.07))


def tile_text(tr, lang: str, name: str, *, vp: int, cards: int, medals: int, boosters: int, cannons: int, rings: int,
              ships: int, stations: int, friends: list[str]) -> str:
    """A player's tile on the VP board, in words: the name, points, cards and half-medals; the mothership's
    boosters, cannons and freight rings; the ships in space and the trade stations; the friendships.  (It read
    "4 VP · 15 cards · ½×1 / B2 C0 F0 · ships 1 · stations 0": nobody at a first evening knew B, C, F or ½×.)
    A line wraps only between its parts (a part's own words are held together)."""
    def part(key: str, n: int) -> str:
        return tr(key, n=n).replace(" ", NO_BREAK)

    lines = [f"[b]{name}[/b]  " + joined([part("sf_vp", vp), part("sf_cards", cards),
                                          part("sf_n_half_medals", medals)], lang),
             joined([part("sf_n_boosters", boosters), part("sf_n_cannons", cannons),
                     part("sf_n_freight_rings", rings)], lang),
             joined([part("sf_n_ships", ships), part("sf_n_stations", stations)], lang)]
    if friends:
        lines.append(tr("sf_friend", aliens=("、" if lang == "ja" else ", ").join(friends)))
    return "\n".join(lines)


def _button(text, on_release, **kw) -> Button:
    kw.setdefault("font_size", sp(18))
    kw.setdefault("size_hint_y", None)
    kw.setdefault("height", dp(52))
    b = Button(text=text, halign="center", **kw)
    b.bind(width=lambda w, v: setattr(w, "text_size", (v - dp(6), None)))
    b.bind(on_release=lambda *_: on_release())
    return b


def _row(*widgets, height=dp(52)) -> BoxLayout:
    row = BoxLayout(size_hint_y=None, height=height, spacing=dp(4))
    for w in widgets:
        row.add_widget(w)
    return row


class StarfarersScreen(CameraPicture, ChoicePanels, GameScreen):
    """Live Starfarers play (see the module docstring)."""

    game_name = "starfarers"
    bank_key = "sf_stock"   # the trade panel's bank is the stock here
    roll_text = StringProperty("")
    action = StringProperty("")          # what a tap on the map does now: "", "spaceport", "found_colony", ...
    die_a = NumericProperty(0)
    #: A VP board tile's height: every tile as tall as the tallest one's text (a 4th line -- a friendship, or a
    #: name that pushes the medals onto their own line -- was drawn above the tile, out of sight).
    vp_tile_height = NumericProperty(dp(76))
    big_map = BooleanProperty(False)     # the colony sites too close to tap at the map's fitted size: Zoom offered
    map_first = BooleanProperty(False)   # the set-up: the choices are made on the map (upright, it gets the room)
    # a tap fell between two close offered sites: the map zoomed in on them (by itself) and the prompt asks which
    which_site = BooleanProperty(False)
    # selection: choices being made: discard counts, encounter, trade, balls, ...

    def __init__(self, **kw):
        kw.setdefault("name", "starfarers")
        super().__init__(**kw)

    def _bind(self, dt) -> None:
        super()._bind(dt)
        self.ids.map.bind(on_spot=lambda _w, spot, legal: self.tap_spot(spot, legal),
                          on_close_sites=lambda _w, sites: self.zoom_on(sites),
                          size=self._offer_zoom, board=self._offer_zoom)

    def reset_for_new_game(self) -> None:
        super().reset_for_new_game()
        self.which_site = False
        if "map" in self.ids:
            self.ids.map.zoom, self.ids.map.focus = 1.0, None

    # --- zoom: upright (800x1280) the map is as wide as the screen and its sites lie ~22 px apart ----------------
    def _offer_zoom(self, *_args) -> None:
        """Zoom is offered where two colony sites lie closer than a fingertip (MIN_TARGET_DP) at the map's fitted
        size: a tap takes the nearest site, so that spacing is how wide a site's target is."""
        m = self.ids.map
        self.big_map = m.board is not None and m.site_spacing() * m.fitted_hex_size() < dp(MIN_TARGET_DP)
        if not self.big_map:
            m.zoom, m.focus = 1.0, None

    def set_zoom(self, on: bool) -> None:
        """Zoom: the map large enough around its middle that neighbouring sites lie a fingertip apart (a drag
        pans it), or the whole map again.  It centres on the spots offered now (the set-up's green sites lie along
        the map's bottom edge, out of a view round its middle)."""
        m = self.ids.map
        m.zoom, m.focus = (self.zoom_needed() if on else 1.0), (m.offered_middle() if on else None)
        if self.which_site:
            self.which_site = False
            self.refresh()

    def zoom_on(self, sites) -> None:
        """A tap between two close offered sites: the map zoomed in on them, a fingertip apart, and the prompt
        asks which is meant (a first-timer is not told of Zoom and the nearer site was often not the one aimed
        at).  The next tap on a site chooses it and the whole map comes back."""
        m = self.ids.map
        (ax, ay), (bx, by) = (geo.edge_point(s) for s in sites)
        m.zoom, m.focus = self.zoom_needed(), ((ax + bx) / 2, (ay + by) / 2)
        self.which_site, self._asked_at = True, len(self.table.record.events)
        self.refresh()

    def _whole_map_again(self, refresh: bool = True) -> None:
        """After the site a zoom by itself asked for was chosen: the whole map again, the usual prompt."""
        if self.which_site:
            self.which_site = False
            self.ids.map.zoom, self.ids.map.focus = 1.0, None
            if refresh:
                self.refresh()

    def zoom_needed(self) -> float:
        """How much larger the map must be drawn for its closest sites to lie MIN_TARGET_DP apart, at least ZOOM,
        in quarter steps (a little over rather than under)."""
        m = self.ids.map
        spacing = m.site_spacing() * m.fitted_hex_size()
        needed = dp(MIN_TARGET_DP) / spacing if spacing > 0 else ZOOM
        return max(ZOOM, math.ceil(needed * 4) / 4)

    # A tap's pending action is part of the choices a refusal gives back.
    def _choices(self):
        return dict(self.selection), self.action

    def _clear_choices(self) -> None:
        self.selection, self.action = {}, ""

    def _restore_choices(self, kept) -> None:
        self.selection, self.action = kept

    def submit_roll(self, roll: DiceRolled, photo: RollPhoto | None = None, corrects: DiceRolled | None = None) -> bool:
        """A settled roll from the app's dice source (or the dice tapped here), with a camera's ``photo`` of it
        to keep (``corrects``: see ``PlayScreen.submit_roll``); False when the rules refuse it."""
        if self.table is None:
            return False
        try:
            if self.table.roll(roll, photo, corrects) is None:
                return False  # a roll the game already holds (a box resending it): nothing new to show
        except RulesError as error:
            self.message = app_refused_roll(roll, error)
            self.refresh()
            return False
        self.message, self.die_a = "", 0
        self.refresh()
        return True

    def tap_die(self, value: int) -> None:
        """Manual dice: the first tap is one die, the second the other."""
        if self.die_a == 0:
            self.die_a = value
            self.refresh()
            return
        a, self.die_a = self.die_a, 0
        app().manual_roll(a, value)

    def roll_box(self) -> None:
        if not app().request_roll():
            self.message = self.tr("illegal", why=app().source_status)

    # --- showing the state ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        g = self.game
        if g is None or "map" not in self.ids:
            return
        self.forget_stale_picture(g)
        s, fleet = g.state, g.fleet
        who = g.waiting_for()
        self.phase = s.phase
        m = self.ids.map
        m.board = g.board
        m.colors = [p["color"] for p in self.table.record.players]
        m.buildings = dict(s.buildings)
        m.docks = {h: list(v) for h, v in fleet.docks.items()}
        m.friendship = dict(fleet.friendship)
        m._trigger()  # the station names follow the language
        if self.which_site and len(self.table.record.events) != getattr(self, "_asked_at", -1):
            # the game moved on (a site built, Undo, Redo) since the map zoomed in to ask: the whole map again
            self.which_site = False
            m.zoom, m.focus = 1.0, None
        self._prompt(g, who)
        self._roll_panel(g)
        self._offer(g, who)
        self._actions(g, who)
        self.map_first = s.phase in ("setup_colony", "setup_spaceport") and self.selection.get("mode") != "umpire"
        lay_out_now(self.ids.actions)  # a tap before the next frame meets the new panel
        self._vp_board(g)
        self.ids.undo.disabled = not g.events
        self.ids.redo.disabled = not self.table.can_redo
        if app().demo:
            # the demo's simulated box rolls 2 s after the table comes to a roll, as on the hex games' screen (it
            # never rolled here: the table waited for dice that did not come; session 18's trial)
            Clock.unschedule(self._auto_roll)  # a roll due for a phase now gone is not made
            if s.phase == "roll":
                Clock.schedule_once(self._auto_roll, 2.0)

    def _auto_roll(self, _dt=None) -> None:
        """Demo: the simulated player rolls whenever the table waits for a roll on this screen."""
        g = self.game
        if app().demo and g is not None and g.state.phase == "roll" and self.manager is not None \
                and self.manager.current == self.name:
            app().request_roll()

    def _prompt(self, g, who) -> None:
        s = g.state
        name = self.name_of(who if who is not None else s.turn_player)
        if s.phase == "discard":
            self.prompt = self.tr("sf_p_discard", name=name, n=s.discards_owed.get(who, 0))
        elif s.phase == "flight":
            movement = (g.fleet.speed or 0) + g.fleet.upgrades[s.turn_player]["booster"]
            self.prompt = self.tr("sf_p_flight", name=name, n=movement)
        elif s.phase == "game_over":
            self.prompt = self.tr("sf_p_game_over", name=self.name_of(s.winner))
        else:
            self.prompt = self.tr("sf_p_" + s.phase, name=name)
        if self.which_site:  # (the map zoomed in on two close sites by itself)
            self.prompt = self.tr("sf_p_which_site", name=name)

    def _roll_panel(self, g) -> None:
        """The last roll: production per player, the supply draws, the 7's discards and steal; the shake."""
        lines = []
        last_roll = next((o for o in reversed(g.outcomes) if o.kind == "roll"), None)
        if last_roll is not None and g.state.phase not in ("setup_colony", "setup_spaceport"):
            n = last_roll.number
            lines.append(self.tr("rolled", n=n))
            # a roll put right (undone, entered again with other faces): the wrong one's cards go back first
            given_back = self.table.replaced_payouts.get(last_roll.index, {}) if self.table is not None else {}
            lines += [self.tr("gives_back", name=self.name_of(p), cards=self._cards(cards))
                      for p, cards in sorted(given_back.items())]
            if n == 7:
                lines[-1] += " — " + self.tr("sf_seven")
                returns = [self.tr("sf_returns", name=self.name_of(p), n=k)
                           for p, k in sorted(last_roll.discards_owed.items())]
                if returns:
                    lines.append(self._list_sep().join(returns))
            elif not last_roll.payouts:
                lines.append(self.tr("nobody_gets"))
            for p, cards in sorted(last_roll.payouts.items()):
                lines.append(self.tr("receives", name=self.name_of(p), cards=self._cards(cards)))
            m = self.ids.map
            m.highlight = list(g.board.hexes_by_number.get(n, ())) if n != 7 else []
            # the supply draws came with the roll, or after the 7's steal
            since = g.outcomes[g.outcomes.index(last_roll):]
            draws = []
            for o in since:
                if o.kind == "steal" and o.stolen is not None:
                    lines.append(self.tr("sf_took", name=self.name_of(g.state.turn_player),
                                         victim=self.name_of(o.stolen[0])))
                draws += [self.tr("sf_supply_draws", name=self.name_of(p), n=k)
                          for p, k in sorted(getattr(o, "supply_draws", {}).items())]
            if draws:
                lines.append(self._list_sep().join(draws))
        else:
            self.ids.map.highlight = []
        fleet = g.fleet
        if fleet.shake is not None:
            a_, b_ = fleet.shake
            lines.append(self.tr("sf_shaken", a=self.tr("sf_" + a_), b=self.tr("sf_" + b_), speed=fleet.speed,
                                 movement=fleet.speed + fleet.upgrades[g.state.turn_player]["booster"]))
            if g.state.phase == "encounter":
                lines.append(self.tr("sf_encounter_due"))
        self.roll_text = "\n".join(lines)

    @staticmethod
    def _list_sep() -> str:
        """Between the sentences of one line: Japanese lists with 、 (an English middle dot read as a stray mark)."""
        return "、" if app().lang == "ja" else " · "

    def _cards(self, cards) -> str:
        lang = app().lang
        sep = "、" if lang == "ja" else ", "
        return sep.join((f"{self.resource_text(r)}{n}" if lang == "ja" else f"{n} {self.resource_text(r)}")
                        for r, n in sorted(cards.items()) if n)

    def _offer(self, g, who) -> None:
        """What the map offers for a tap now (the rules' answers, never the screen's)."""
        s, m = g.state, self.ids.map
        m.flash = None
        if s.phase != "setup_spaceport" or "site" not in self.selection:
            m.chosen = None
        pick, legal = "", frozenset()
        if s.phase == "setup_colony":
            pick = "site"
            legal = frozenset(e for e in g.board.sites if g.colony_site_problem(who, e, setup=True) is None)
        elif s.phase == "setup_spaceport" or self.action == "spaceport":
            pick = "site"
            legal = frozenset(e for e, (p, k) in s.buildings.items() if p == who and k == "colony")
        elif self.action == "found_colony":
            pick = "site"
            legal = frozenset(e for e in g.board.sites if g.colony_site_problem(who, e) is None)
        elif self.action == "trade_station":
            pick = "station"
            legal = frozenset(h for h, docked in g.fleet.docks.items()
                              if len(docked) < 5 and g.fleet.upgrades[who]["freight_ring"] > len(docked))
        elif self.action in ("defeat_pirate", "terraform"):
            pick = "planet"
            marker = "pirate" if self.action == "defeat_pirate" else "ice"
            legal = frozenset(h for h, p in g.board.planets.items() if p.marker == marker)
        m.pick, m.legal = pick, legal

    def _fit_vp_tiles(self, *_args) -> None:
        tiles = self.ids.vpboard.children
        self.vp_tile_height = max([dp(76)] + [t.texture_size[1] + dp(4) for t in tiles])

    def _vp_board(self, g) -> None:
        box = self.ids.vpboard
        box.clear_widgets()
        fleet, s = g.fleet, g.state
        for p, info in enumerate(self.table.record.players):
            rgb = PLAYER_COLORS.get(info["color"], (0.5, 0.5, 0.5))
            dark = info["color"] in ("white", "orange")
            up = fleet.upgrades[p]
            friends = [self.tr(g.board.stations[h]) for h, holder in fleet.friendship.items() if holder == p]
            cards = s.players[p].hand.size
            text = tile_text(self.tr, app().lang, escape_markup(self.name_of(p)), vp=g.victory_points(p), cards=cards,
                             medals=fleet.half_medals[p], boosters=up["booster"], cannons=up["cannon"],
                             rings=up["freight_ring"], ships=sum(fleet.ships[p].values()),
                             stations=sum(d.count(p) for d in fleet.docks.values()), friends=friends)
            tag = Label(text=text, markup=True, font_size=sp(15), color=(0, 0, 0, 1) if dark else (1, 1, 1, 1),
                        halign="left", valign="middle", padding=(dp(6), dp(2)))
            # wrapped at the tile's width, as tall as its lines (drawn in the tile's middle): the tiles grow to it
            tag.bind(width=lambda w, v: setattr(w, "text_size", (v, None)), texture_size=self._fit_vp_tiles)
            with tag.canvas.before:
                Color(*rgb, 1)
                rect = Rectangle()
            tag.bind(pos=lambda w, v, r=rect: setattr(r, "pos", v), size=lambda w, v, r=rect: setattr(r, "size", v))
            if p == (g.waiting_for() if g.waiting_for() is not None else -1):
                with tag.canvas.after:
                    Color(1, 1, 0.3, 1)
                    line = Line(width=2)
                tag.bind(pos=lambda w, v, ln=line: setattr(ln, "rectangle", (*w.pos, *w.size)),
                         size=lambda w, v, ln=line: setattr(ln, "rectangle", (*w.pos, *w.size)))
            box.add_widget(tag)

    # --- the action panel, by phase --------------------------------------------------------------------------
    def _actions(self, g, who) -> None:
        box = self.ids.actions
        box.clear_widgets()
        dice = self.ids.dice_row
        dice.clear_widgets()
        phase = g.state.phase
        if phase == "roll":
            for v in range(1, 7):
                b = ToggleButton(text=str(v), font_size=sp(24), state="down" if self.die_a == v else "normal")
                b.bind(on_release=lambda _b, v=v: self.tap_die(v))
                dice.add_widget(b)
        if self.umpire_panel(box):  # a note for the record; the dice row stays: a roll may come meanwhile
            return
        if phase == "roll":
            if app().can_request_roll:
                box.add_widget(_button(self.tr("roll_box"), self.roll_box))
            if app().camera_watching:
                box.add_widget(_button(self.tr("camera_view"), open_camera_view))
        elif phase == "setup_spaceport":
            self._setup_spaceport_panel(box, who)
        elif phase == "discard":
            self._discard_panel(box, g, who)
        elif phase == "steal":
            for p in g.state.steal_candidates:
                box.add_widget(_button(self.tr("rob", name=self.name_of(p)),
                                       lambda p=p: self.submit({"type": "steal", "from": p, "card": None})))
        elif phase == "main":
            self._main_panel(box, g, who)
        elif phase == "encounter":
            self._encounter_panel(box, g, who)
        elif phase == "flight":
            self._flight_panel(box, g, who)
        elif phase == "game_over":  # the way on: the new-game form holding this table, one tap from its Start
            box.add_widget(play_again_button())
        if self.action and phase in ("main", "flight"):
            hint = {"spaceport": "sf_tap_site", "found_colony": "sf_tap_site", "trade_station": "sf_tap_station",
                    "defeat_pirate": "sf_tap_planet", "terraform": "sf_tap_planet"}[self.action]
            box.add_widget(Label(text=self.tr(hint), size_hint_y=None, height=dp(32), font_size=sp(17),
                                 color=(0.6, 1, 0.6, 1)))
            if "planet" in self.selection:
                box.add_widget(Label(text=self.tr("sf_new_number"), size_hint_y=None, height=dp(30)))
                grid = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(2))
                for n in NUMBERS:
                    grid.add_widget(_button(str(n), lambda n=n: self._conquer(n), font_size=sp(17)))
                box.add_widget(grid)
            box.add_widget(_button(self.tr("cancel"), self._cancel))

    def _cancel(self) -> None:
        self.action, self.selection = "", {}
        self.refresh()

    def resource_text(self, resource: str) -> str:
        """Starfarers' own resource names where the seed differs from the base game's (ore: 鉱石, not 鉄)."""
        return self.tr(i18n_extra.resource_key(self.game_name, resource))

    def _set_mode(self, mode: str) -> None:
        """Open (or close with "") the trade panel; its earlier choices go.  Opened, or grown by a partner, it is
        brought into sight (after Trade -> Ben its OK lay 17 px below the view upright, 75 lying down)."""
        self.selection = {"mode": mode} if mode else {}
        self.refresh()
        if mode:
            self.bring_panel_into_sight()

    def _pick(self, key: str, value) -> None:
        super()._pick(key, value)
        if key == "partner" and self.selection.get("mode") == "trade":
            self.bring_panel_into_sight()

    def _setup_spaceport_panel(self, box, who) -> None:
        # the choice panels' toggle rows (their buttons wrap long names such as "trade goods")
        self._toggle_row("", "ship", SHIP_KEYS, [self.tr("sf_" + v) for v in SHIP_KEYS], font=17)
        self._toggle_row("", "upgrade", SETUP_UPGRADES, [self.tr("sf_" + v) for v in SETUP_UPGRADES], font=17)
        sel = self.selection
        ok = _button(self.tr("ok"), lambda: self.submit({"type": "setup_spaceport", "player": who, "at": sel["site"],
                                                         "ship": sel["ship"], "upgrade": sel["upgrade"]}))
        ok.disabled = not all(k in sel for k in ("site", "ship", "upgrade"))
        box.add_widget(ok)

    def _stepper(self, box, key: str, label: str, low: int, high: int, take: int | None = None) -> None:
        """``label: value`` with − and +; ``take`` (a 7's returns): the label is a toggle that sets the value to
        ``take`` at one tap (all of that kind, up to what is owed) and back to 0 when tapped again."""
        box.add_widget(self._stepper_row(key, label, low, high, take))

    def _stepper_row(self, key: str, label: str, low: int, high: int, take: int | None = None,
                     fitted: bool = False) -> BoxLayout:
        """The row of :meth:`_stepper`; ``fitted``: its words in a :class:`FittedLabel` (a narrow cell of a grid:
        smaller letters, two lines, never past its box)."""
        value = self.selection.get(key, 0)
        minus = _button("−", lambda: self._step(key, -1, low, high), size_hint_x=None, width=dp(56))
        plus = _button("+", lambda: self._step(key, 1, low, high), size_hint_x=None, width=dp(56))
        minus.disabled, plus.disabled = value <= low, value >= high  # a step past the end would do nothing
        words = f"{label}: {value:+d}" if low < 0 else f"{label}: {value}"
        if take is not None:
            text = TakeAll(key, label, text=words, state="down" if value else "normal", disabled=not value and not take)
            text.bind(on_release=lambda _b: self._step(key, (0 if value else take) - value, low, high))
        elif fitted:
            text = FittedLabel(text=words, max_font_size=sp(18), min_font_size=sp(12), halign="center",
                               valign="middle")
        else:
            text = Label(text=words, font_size=sp(18))
        if fitted:
            minus.height = plus.height = dp(ROW_HEIGHT)  # (a grid's row: a finger high, as the choice panels')
        return _row(text, minus, plus, height=dp(48))

    def _step(self, key, delta, low, high) -> None:
        value = max(low, min(high, self.selection.get(key, 0) + delta))
        self.selection = {**self.selection, key: value}
        self.refresh()

    def _discard_panel(self, box, g, who) -> None:
        need = g.state.discards_owed.get(who, 0)
        hand = g.state.players[who].hand
        picked = {r: self.selection.get(f"d_{r}", 0) for r in RESOURCES}
        for r in RESOURCES:
            # at most the cards held of it (those known, and the unknown ones not yet counted for another kind and
            # that may be of it -- not a kind the stock and the known hands hold all of: the rules' most_to_give), and
            # no more than the rest still owed; a tap on its name takes the known ones (one unseen card where none is
            # known), up to that
            high = min(g.most_to_give(who, r, picked), need - sum(n for o, n in picked.items() if o != r))
            take = name_takes(high, hand.count(r))
            self._stepper(box, f"d_{r}", f"{self.resource_text(r)} ({hand.count(r)})", 0, high, take=take)
        ok = _button(f"{self.tr('ok')} ({sum(picked.values())}/{need})",
                     lambda: self.submit({"type": "discard", "player": who,
                                          "cards": {r: n for r, n in picked.items() if n}}))
        ok.disabled = sum(picked.values()) != need
        box.add_widget(ok)

    def _main_panel(self, box, g, who) -> None:
        grid = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        pieces = list(COSTS)
        for i in range(0, len(pieces), 3):
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
            for piece in pieces[i:i + 3]:
                row.add_widget(_button(self.tr("sf_" + piece), lambda piece=piece: self._build(piece), font_size=sp(16)))
            grid.add_widget(row)
        grid.height = dp(56) * len(grid.children)
        box.add_widget(grid)
        # one trade panel, the base game's: the stock at the rules' ratios (3:1, trade goods 2:1) or a player
        trade = ToggleButton(text=self.tr("trade"), font_size=sp(18), size_hint_y=None, height=dp(52),
                             state="down" if self.selection.get("mode") == "trade" else "normal")
        trade.bind(on_release=lambda t: self._set_mode("trade" if t.state == "down" else ""))
        box.add_widget(trade)
        if self.selection.get("mode") == "trade":
            self._trade_panel(g, who)
        # the balls the table's own mothership shook first, the app's shake after them (for a table without one)
        box.add_widget(Label(text=self.tr("sf_enter_balls"), font_size=sp(16), size_hint_y=None, height=dp(26)))
        balls = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        for colour in BALL_VALUES:
            b = Button(text=self.tr("sf_" + colour), font_size=sp(16), background_normal="",
                       background_color=(*BALL_COLORS[colour], 1),
                       color=(0, 0, 0, 1) if colour == "yellow" else (1, 1, 1, 1))
            b.bind(on_release=lambda _b, c=colour: self._ball(who, c))
            balls.add_widget(b)
        box.add_widget(balls)
        if self.selection.get("balls"):
            box.add_widget(Label(text=" + ".join(self.tr("sf_" + c) for c in self.selection["balls"]),
                                 size_hint_y=None, height=dp(28)))
        box.add_widget(_button(self.tr("sf_shake"), lambda: self._shake_digital(who)))
        if not g.flight_owed():  # a ship in space: the shake and the flight come first (the rules refuse end_turn)
            box.add_widget(_button(self.tr("end_turn"), lambda: self.submit({"type": "end_turn", "player": who})))

    def _build(self, piece: str) -> None:
        g = self.game
        who = g.waiting_for()
        if piece == "spaceport":  # on one of the player's colonies: tap it on the map
            self.action, self.selection = "spaceport", {}
            self.refresh()
            return
        self.submit({"type": "build", "player": who, "piece": piece})

    def _shake_digital(self, who: int) -> None:
        """The app's own shake (two of the five balls); recorded like a virtual dice roll."""
        balls = shake_mothership(random.SystemRandom())
        self.submit({"type": "shake", "player": who, "balls": list(balls), "source": "virtual"})

    def _ball(self, who: int, colour: str) -> None:
        """The table shook the real mothership: the two balls, tapped in turn."""
        balls = list(self.selection.get("balls", ())) + [colour]
        if len(balls) < 2:
            self.selection = {**self.selection, "balls": balls}
            self.refresh()
            return
        self.submit({"type": "shake", "player": who, "balls": balls, "source": "manual"})

    def _encounter_panel(self, box, g, who) -> None:
        """What the encounter card gave or took: nine steppers under one line saying what + and − mean, as many a
        row as the panel's width holds (three upright, two lying down), and Record in the last cell: the whole panel
        (230-280 dp) in sight without a drag.  One stepper a row ("ore (gain / lose): +0"), Record stood 520 dp down
        the list: upright under the fold, found by a drag that glided back and lost the next tap (session 18)."""
        steppers = [("half_medals", self.tr("sf_half_medals"), -5, 5)]
        steppers += [(f"c_{r}", self.resource_text(r), -5, 5) for r in RESOURCES]
        steppers += [(f"u_{u}", self.tr("sf_" + u), -3, 3) for u in UPGRADES]
        box.add_widget(FittedLabel(text=self.tr("sf_encounter_head"), max_font_size=sp(17), min_font_size=sp(12),
                                   size_hint_y=None, height=dp(30), halign="left", valign="middle"))
        cell_min = dp(ENCOUNTER_CELL_MIN)
        grid = CounterGrid(cols=self._columns(cell_min), cell_min=cell_min)
        for key, label, low, high in steppers:
            grid.add_cell(self._stepper_row(key, label, low, high, fitted=True))
        record = _button(self.tr("sf_record"), lambda: self.submit(self._encounter_event(who)), height=dp(ROW_HEIGHT))
        record.encounter_record = True
        grid.add_cell(record)
        box.add_widget(grid)
        self._watch_width()  # (the tablet turned: the grid's columns again)

    def _encounter_event(self, who: int) -> dict:
        sel = self.selection
        event: dict[str, Any] = {"type": "encounter", "player": who}
        if sel.get("half_medals"):
            event["half_medals"] = sel["half_medals"]
        gain = {r: sel[f"c_{r}"] for r in RESOURCES if sel.get(f"c_{r}", 0) > 0}
        lose = {r: -sel[f"c_{r}"] for r in RESOURCES if sel.get(f"c_{r}", 0) < 0}
        upgrades = {u: sel[f"u_{u}"] for u in UPGRADES if sel.get(f"u_{u}")}
        for key, value in (("gain", gain), ("lose", lose), ("upgrades", upgrades)):
            if value:
                event[key] = value
        return event

    def _flight_panel(self, box, g, who) -> None:
        for action in ("found_colony", "trade_station", "defeat_pirate", "terraform"):
            b = _button(self.tr("sf_" + action), lambda a=action: self._start_action(a))
            b.state = "down" if self.action == action else "normal"
            box.add_widget(b)
        box.add_widget(_button(self.tr("end_turn"), lambda: self.submit({"type": "end_turn", "player": who})))

    def _start_action(self, action: str) -> None:
        self.action, self.selection = action, {}
        self.refresh()

    # --- taps on the map ----------------------------------------------------------------------------------------
    def tap_spot(self, spot, legal: bool) -> None:
        g = self.game
        if g is None:
            return
        who, phase = g.waiting_for(), g.state.phase
        m = self.ids.map
        if phase == "setup_colony":
            ok = self.submit({"type": "build", "player": who, "piece": "colony", "at": as_json(spot)})
        elif phase == "setup_spaceport":
            if not legal:
                m.flash = spot
                return
            m.chosen = spot
            self._whole_map_again(refresh=False)
            self._pick("site", as_json(spot))
            return
        elif self.action == "spaceport":
            ok = self.submit({"type": "build", "player": who, "piece": "spaceport", "at": as_json(spot)})
        elif self.action == "found_colony":
            ok = self.submit({"type": "found_colony", "player": who, "at": as_json(spot)})
        elif self.action == "trade_station":
            ok = self.submit({"type": "trade_station", "player": who, "at": as_json(spot)})
        elif self.action in ("defeat_pirate", "terraform"):
            # the replacement chip comes next; a planet without the marker is refused by the rules then
            self._pick("planet", as_json(spot))
            return
        else:
            return
        m.flash = None if ok else spot
        if ok:
            self._whole_map_again()

    def _conquer(self, number: int) -> None:
        g = self.game
        self.submit({"type": self.action, "player": g.waiting_for(), "at": self.selection["planet"], "number": number})


def new_game_board(game: str, players: int) -> dict | None:
    """The board JSON the new-game screen starts ``game`` with (None: not one of these two games)."""
    if game == "starfarers":
        return new_board(players)
    if game == "card-game":
        return {}  # the card game's documented defaults: decks by player count, fate card white side up
    return None
