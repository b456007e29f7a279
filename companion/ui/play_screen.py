"""The live game of the hex-board games (base, 5-6, Seafarers, High Tide): the board with every piece, the VP
board, the dice panel, the 7 helper, building, cards, trades, undo/redo and the umpire (its layout is
``play.kv``).

The screen reads the live game through ``app.table`` and sends it inputs as record events; every legality
question goes to the rules core (``legal_*`` queries, the last :class:`Outcome`, or the ``RulesError`` a
refused event raises, whose message is shown as it is).  Nothing here decides what the rules allow.
"""

from __future__ import annotations

import math

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from ..dice import DiceRolled, RollPhoto
from ..rules import IllegalAction, RulesError, board_from_json
from ..rules.refusals import NO_SUCH_PLACE
from .board_view import PLAYER_COLORS
from .camera_picture import CameraPicture
from .choices import ChoicePanels
from .fitted_label import FittedLabel
from .i18n import cards_text
from .game_over import game_over_heading, game_over_widgets
from .play_panels import (build_row, buy_button, confirmation, cost_card, joined, knight_button, play_button,
                          reveal_button, reveal_panel, takes_ships, tile_details)
from .refusals_text import app_describe, app_places, app_refused_roll, places_for, refusal_spots
from .tide_text import tide_text
from .umpire_notes import add_note_rows
from .widgets import BigButton, BigToggle, app, as_json, lay_out_now, load_rules

load_rules("play.kv")


class PlayScreen(CameraPicture, ChoicePanels, Screen):
    """The board with all pieces, the turn, the dice panel, the 7 helper, building, undo/redo."""

    prompt = StringProperty("")
    phase = StringProperty("")
    message = StringProperty("")
    early_roll_label = StringProperty("")  # End turn's words while a box's or camera's early roll waits for it
    _early_roll = None                     # (that roll, its photo, the game's event count when it came)
    roll_text = StringProperty("")
    payout_text = StringProperty("")
    payout_lines = ListProperty([])      # the same, a line each (its places lay them out: payouts_label.py)
    tide_text = StringProperty("")
    build_piece = StringProperty("")     # the piece a main-phase tap builds ("move_ship": a ship is moved)
    lifted_ship = ObjectProperty(None, allownone=True)  # Seafarers: the ship being moved (its edge), once tapped
    die_a = NumericProperty(0)
    selection = DictProperty({})         # discard / gold / trade choices
    refused = DictProperty({})           # the last event the rules refused: {"event", "why"} (umpire offer)
    confirming = BooleanProperty(False)  # the umpire's "record anyway" awaits its confirmation
    board_first = BooleanProperty(False)  # the set-up: every choice is on the board (upright, it gets the room)
    picking = BooleanProperty(False)     # a discard or gold: the counters get the room of empty message rows
    card_panel = BooleanProperty(False)  # a trade or a card being entered: lying down it gets the payouts' room
    payouts_above = BooleanProperty(False)  # ... and the payouts are said in the message's place (play.kv)
    payouts_by_picture = BooleanProperty(False)  # upright: a camera roll's dice, and what it paid beside them
    special_room = BooleanProperty(False)  # 5-6 players: upright, room all game for the special builders' row
    coast_choice = BooleanProperty(False)  # set-up: a coast may take a road or a ship (Road / Ship offered)
    # the whole set-up of a game with ships keeps the room of that row (upright), so the board does not shrink
    # between a settlement's tap and its road's and grow back after (seen by touch: the road's sides jumped)
    coast_room = BooleanProperty(False)
    big_board = BooleanProperty(False)   # the board's sides too small to tap at its fitted size: Zoom offered
    # lying down in the set-up the players' tiles stand in the panel (two a row, under the prompt and the message)
    # and the board takes their rows: Seafarers for 6 at 1280x800 drew its hexes 27.5 px, its corners 27.5 px apart
    tiles_aside = BooleanProperty(False)
    in_setup = BooleanProperty(False)    # the set-up's placements, and a second settlement's gold choice in it
    # one row of compact tiles (name; points and cards; knights and awards), the hand a tap away, where two rows
    # of full tiles would leave the board's sides under a fingertip (_fit_tiles): Seafarers for 6 lying down
    # between turns drew its hexes 27.5 px under two rows of tiles (180 px)
    compact_tiles = BooleanProperty(False)

    def __init__(self, **kw):
        super().__init__(name="play", **kw)
        Clock.schedule_once(self._bind)

    def _bind(self, _dt) -> None:
        app().bind(revision=lambda *_: self.refresh(), lang=lambda *_: self.refresh(), source_state=self._source_changed)
        board = self.ids.board
        board.bind(on_vertex=lambda _w, v, ok: self.tap_vertex(v, ok), on_edge=lambda _w, e, ok: self.tap_edge(e, ok),
                   on_hex=lambda _w, h, ok: self.tap_hex(h, ok), on_plain_tap=lambda _w: self.close_card_panel(),
                   size=self._offer_zoom)
        board.parent.bind(size=self._fit_tiles)

    def on_size(self, *_args) -> None:
        """Upright, End turn stands at the right of the turn's row (the roll and what it paid), and the board takes
        the row it had under the actions; lying down it is under the actions, as wide as the panel (play.kv)."""
        if "end_turn" not in self.ids:
            return
        button, row, panel = self.ids.end_turn, self.ids.turn_row, self.ids.panel
        place = row if self.height > self.width else panel
        if button.parent.proxy_ref is not place.proxy_ref:  # (``ids`` hold weak proxies)
            button.parent.remove_widget(button)
            place.add_widget(button, index=0 if place is row else 1)  # (the panel's last row is the bottom row)
        self.on_tiles_aside()

    def on_tiles_aside(self, *_args) -> None:
        """The players' tiles over the board, or (``tiles_aside``: lying down, in the set-up) in the panel under
        the prompt and the message, the board taking their rows (play.kv sets ``tiles_aside``)."""
        if "vpboard" not in self.ids:
            return
        tiles, panel, column = self.ids.vpboard, self.ids.panel, self.ids.board.parent
        place = panel if self.tiles_aside else column
        if tiles.parent is not None and tiles.parent.proxy_ref is place.proxy_ref:
            return
        if tiles.parent is not None:
            tiles.parent.remove_widget(tiles)
        # (children are listed last row first: the tiles' row is the panel's second, the column's first)
        place.add_widget(tiles, index=len(place.children) - (1 if place is panel else 0))
        self._fit_tiles()

    def _fit_tiles(self, *_args) -> None:
        """Compact tiles (``compact_tiles``: one row, the hand a tap away) where the full ones over the board take
        two rows and would leave its hexes under ``COMPACT_BELOW`` dp: a side's tap spot (0.87 of a hex) under a
        fingertip.  Judged from the board's column with the full tiles in it, so the choice does not feed on itself:
        one choice for a game and a window (upright, also for the set-up and the turns apart: the panel differs)."""
        if "vpboard" not in self.ids or app().table is None:
            return
        view, tiles = self.ids.board, self.ids.vpboard
        column, n = view.parent, len(app().table.record.players)
        cols = 3 if self.width > self.height or n != 4 else 2
        rows = (n + cols - 1) // cols
        if self.tiles_aside or rows < 2 or view.board is None or column is None:
            self.compact_tiles = False
            return
        others = sum(w.height for w in column.children  # (``ids`` hold weak proxies)
                     if w.proxy_ref is not view.proxy_ref and w.proxy_ref is not tiles.proxy_ref)
        room = column.height - others - dp(90) * rows
        self.compact_tiles = view.hex_size_for(column.width, room) < dp(COMPACT_BELOW)

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
            if isinstance(error, IllegalAction) and not event.get("forced") and error.code not in NO_SUCH_PLACE:
                # A rule breach (not a malformed entry, not a place the piece cannot be at all, such as a road at
                # sea): the umpire may record it anyway, flagged.
                self.refused = {"event": dict(event), "why": app_describe(error)}
            self.refresh()
            return False
        if outcome.warnings:  # a forced entry: say which rules it broke
            self.message = app().tr("forced_done", why="; ".join(app_describe(w) for w in outcome.warnings))
        said = confirmation(self.game, outcome, event)
        # a card bought, a trade made, VP cards shown: the caption under the board confirms it -- unless the voice
        # said it (a trade with its cards), whose caption is already there (shown in this frame, app.py)
        announced = getattr(app(), "_captioned", None)
        if said and getattr(announced, "event_index", None) != outcome.index:
            app().caption = said
        return True

    def reset_for_new_game(self) -> None:
        """Forget everything this screen showed of the game before: a refusal and its umpire offer, the choices
        being made, the armed build, the first die tapped, a note being typed, the camera's picture.  Called when
        a game starts or is resumed and when the language changes (a sentence in the old language would stay)."""
        self.selection, self.build_piece, self.message = {}, "", ""
        self.refused, self.confirming = {}, False
        self._forget_early_roll()
        self.die_a = 0
        self.note_draft = ""
        self.roll_text = self.payout_text = ""
        self.payout_lines = []
        if "board" in self.ids:
            self.ids.board.flash, self.ids.board.marked = None, []
            self.ids.board.zoom, self.ids.board.focus = 1.0, None
        # the last game's camera picture goes; the new game's own (kept in the journal) is looked up again
        self.dice_picture, self._picture_of_roll, self._kept_picture_sought = None, -1, None

    def reset_for_new_language(self) -> None:
        """The language changed: a refusal said in the old language goes, and with it its umpire offer; the
        choices being made (an armed build, a trade half filled in, the first die tapped) stay."""
        self.message, self.refused, self.confirming = "", {}, False
        self._forget_early_roll()  # (its words, and the refusal that explained it, were in the old language)
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
            self.message = app_refused_roll(roll, error)
            self._keep_early_roll(roll, photo, error)
            return False
        self.message = ""
        self.selection = {}
        self.refused, self.confirming = {}, False  # a new state: an earlier refusal is no longer on offer
        self.die_a = 0
        self.refresh_dice_buttons()
        return True

    def _keep_early_roll(self, roll: DiceRolled, photo: RollPhoto | None, error: RulesError) -> None:
        """A box's or a camera's roll while the turn's player still builds is most often the next player rolling
        before End turn was tapped (session 19, the dice box at the table): End turn then offers to count it for
        them ("End turn: 2 + 3 for Ben"), one tap instead of End turn and the dice thrown again.  Kept only while
        nothing else happens in the game (``refresh``)."""
        g, a = self.game, app()
        code = getattr(getattr(error, "refusal", None), "code", None)
        if roll.source not in ("box", "camera") or code != "wrong_phase" or g is None or g.state.phase != "main":
            return
        if getattr(g, "special_building", False):
            return  # 5-6 players: after End turn the others may build first; a roll counted at once would skip them
        self._early_roll = (roll, photo, len(a.table.record.events))
        after = (g.state.turn_player + 1) % g.n_players  # the next turn's player (seat order)
        self.early_roll_label = a.tr("end_turn_count", dice=" + ".join(map(str, sorted(roll.values))),
                                     name=a.player_name(after))

    def _forget_early_roll(self) -> None:
        self._early_roll, self.early_roll_label = None, ""

    def roll_box(self) -> None:
        """Ask the source to roll (the simulator in the demo, a box with a roller)."""
        if not app().request_roll():
            self.message = self._roll_refused = app().tr("illegal", why=app().source_status)

    _roll_refused = ""  # the message of a roll the source refused (a box unplugged), until the source is back

    def _source_changed(self, _app, state: str) -> None:
        """A roll refused while the box was gone says nothing once it is back (it stayed, red, beside the
        green "connected" of a box plugged in again)."""
        if state == "connected":
            if self._roll_refused and self.message == self._roll_refused:
                self.message = ""
            self._roll_refused = ""

    def _auto_roll(self, _dt=None) -> None:
        """Demo: the simulated player rolls whenever the table waits for a roll -- not in the 5-6 special building
        phase, where the others build first: a roll ends it (the next player taps Roll when they are done).  A
        roll tapped in, then End turn, within the demo's 2 s rolled in that phase and skipped it."""
        g = self.game
        if app().demo and g is not None and g.state.phase == "roll" and self.manager.current == "play":
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

    def _offer_zoom(self, *_args) -> None:
        """Zoom is offered where a side is narrower than a fingertip at the board's fitted size (a tap picks the
        nearest side: its spot is about 0.87 of a hex's size across; Seafarers' 91 hexes at 1280x800: 28 px)."""
        view = self.ids.board
        self.big_board = view.board is not None and 0.87 * view.fitted_hex_size() < dp(MIN_TARGET_DP)
        if not self.big_board:
            view.zoom, view.focus = 1.0, None

    def set_zoom(self, on: bool) -> None:
        """Zoom: the board large enough around its middle that a side takes a fingertip's tap with nothing armed
        (a drag pans it), or the whole board again."""
        self.ids.board.zoom, self.ids.board.focus = (self.zoom_needed() if on else 1.0), None

    def zoom_needed(self) -> float:
        """How much larger a side's tap disk must be drawn to be a fingertip (MIN_TARGET_DP) wide, at least ZOOM.
        With nothing armed a tap takes the nearest corner or side, so a side is picked only within about half a
        hex's size (SIDE_DISK) of its middle: upright a Seafarers hex is 30 px, twice that gave a 30 px disk."""
        fitted = self.ids.board.fitted_hex_size()
        needed = dp(MIN_TARGET_DP) / (SIDE_DISK * fitted) if fitted > 0 else ZOOM
        return max(ZOOM, math.ceil(needed * 4) / 4)  # in quarter steps, a little over rather than under

    # --- taps on the board --------------------------------------------------------------------------
    def acting(self, g) -> int | None:
        """Whose taps the board and the builds take now: the player the table waits for, but in the 5-6 special
        building phase the builder picked among those still to come (each may build in seat order; one picked
        later ends the turns of those before, as the rules say)."""
        builder = self.selection.get("builder")
        if g.state.phase == "special_build" and builder in g.state.special_queue:
            return builder
        return g.waiting_for()

    def tap_vertex(self, v, legal: bool) -> None:
        g = self.game
        if self.selection.get("mode") == "umpire":
            self._remove_piece(v)
            return
        who = self.acting(g)
        if g.state.phase == "setup_settlement":
            piece = "settlement"
        elif self.build_piece:
            piece = self.build_piece
        else:  # nothing armed: a free corner takes a settlement, the player's own settlement a city
            piece = "city" if v in g.legal_city_spots(who) else "settlement"
        ok = self.submit({"type": "build", "player": who, "piece": piece, "at": as_json(v)})
        self.ids.board.flash = None if ok else v

    def tap_edge(self, e, legal: bool) -> None:
        g = self.game
        if self.selection.get("mode") == "umpire":
            self._remove_piece(e)
            return
        who = self.acting(g)
        if g.state.phase == "setup_road":
            pieces = [p for p, x in g.legal_setup_links() if x == e]
            piece = self.build_piece if self.build_piece in pieces else (pieces[0] if pieces else "road")
        elif self.build_piece == "move_ship" or (not self.build_piece and g.state.phase == "main"
                                                    and e in movable_ships(g, who)):
            self._move_ship_tap(g, who, e)  # (a tap on the player's own movable ship lifts it)
            return
        else:  # nothing armed: a road, or a ship where only a ship may go (the rules say why neither may)
            piece = self.build_piece or direct_builds(g, who).get(e, "road")
        ok = self.submit({"type": "build", "player": who, "piece": piece, "at": as_json(e)})
        self.ids.board.flash = None if ok else e

    def _move_ship_tap(self, g, who: int, e) -> None:
        """Seafarers' ship move by two taps: the ship (the rules say why it may not move), then where it goes.
        A second tap on the lifted ship leaves it where it was."""
        if self.lifted_ship is None:
            problem = g.ship_move_problem(who, e)
            if problem is not None:
                self.message = app().tr("illegal", why=app_describe(problem))
                self.ids.board.flash = e
            else:
                self.build_piece, self.lifted_ship, self.message = "move_ship", e, ""
                self.ids.board.flash = None
            self.refresh()
            return
        if e == self.lifted_ship:
            self.lifted_ship = None
            self.refresh()
            return
        ok = self.submit({"type": "move_ship", "player": who, "from": as_json(self.lifted_ship), "to": as_json(e)})
        self.ids.board.flash = None if ok else e

    def _remove_piece(self, spot) -> None:
        """Umpire: take the tapped piece off the board (the rules refuse a spot with nothing on it)."""
        ok = self.submit({"type": "remove_piece", "at": as_json(spot)})
        self.ids.board.flash = None if ok else spot

    def close_card_panel(self) -> bool:
        """A tap on the board while a card or trade panel is open: the tap was not for the panel, and building
        under it would surprise (a road built while a trade is half filled in, a refusal offering "Record
        anyway"); the panel closes, nothing is built, and the next tap on the board builds as ever."""
        if self.selection.get("mode") not in CARD_PANELS:
            return False
        self.set_mode("")
        return True

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
        if self._early_roll is not None and self._early_roll[2] != len(a.table.record.events):
            self._forget_early_roll()  # the game went on (a build, an undo): that roll is no longer the next one
        s = g.state
        view = self.ids.board
        if self.build_piece != "move_ship" or s.phase != "main":
            self.lifted_ship = None  # a ship is lifted only while Move ship is armed
        view.colors = [p["color"] for p in a.table.record.players]
        view.board = g.board
        view.buildings = dict(s.buildings)
        view.pieces = dict(s.pieces)
        view.robber, view.pirate = s.robber, s.pirate
        self._fit_tiles()
        self._offer_zoom()
        tide = getattr(g, "tide", None)
        view.dikes = [tuple(h) for h in tide.dikes] if tide is not None else []
        who = self.acting(g)
        name = a.player_name(who)
        phase = self.phase = s.phase
        self.board_first = phase in ("setup_settlement", "setup_road") and self.selection.get("mode") != "umpire"
        self.picking = phase in ("discard", "gold") and self.selection.get("mode") != "umpire"
        self.in_setup = self.board_first or (self.picking and phase == "gold" and s.gold_return == "setup_road")
        self.card_panel = phase == "main" and self.selection.get("mode") in ("trade", "play")
        self.special_room = bool(getattr(g, "special_building", False))
        self.coast_choice = phase == "setup_road" and self.board_first and coast_links(g)
        self.coast_room = self.in_setup and takes_ships(g)
        last = a.table.last_outcome
        n_owed = s.discards_owed.get(who, 0) if phase == "discard" else s.gold_owed.get(who, 0)
        by_time = phase == "game_over" and getattr(g, "ended_by_time", None) is not None  # (a tournament desk's end)
        key = "p_time_limit" if by_time else f"p_{phase}"
        if phase == "game_over" and not by_time:  # the winner, or every player who shares the win (game_over.py)
            key, name = game_over_heading(g)
        if phase == "setup_road" and "ship" in g.link_pieces():  # Seafarers, High Tide: the link may be a ship
            key = "p_setup_road_or_ship"
        if phase == "move_robber" and tuple(getattr(g, "pirate_hexes", tuple)()):  # the sea offered too
            key = "p_move_robber_or_pirate" if g.robber_hexes() else "p_move_pirate"
        if phase == "main" and self.build_piece == "move_ship":
            key = "p_move_ship_to" if self.lifted_ship is not None else "p_move_ship_pick"
        elif phase == "main" and self.build_piece in ("road", "ship", "settlement", "city", "dike") \
                and self.selection.get("mode") not in (*CARD_PANELS, "umpire"):
            # a piece armed: the prompt confirms what the next tap builds, and where (it still read "tap a side or
            # corner to build ..."; playtest s9, s10)
            key = f"p_armed_{self.build_piece}"
        unseen = s.players[who].hand.unknown if phase == "discard" and who is not None else 0
        if unseen:
            key = "p_discard_unseen"
        self.prompt = a.tr(key, name=name, n=n_owed, u=unseen, roller=a.player_name(s.turn_player))
        self._offer(g, phase, who, last)
        self._vp_board(g)
        self._last_roll(g, last)
        self._tide(g, last)
        self._actions(g, phase, who)
        lay_out_now(self.ids.actions)  # a tap before the next frame meets the new panel
        self.refresh_dice_buttons()
        # (a tap on them did nothing and said nothing). A game the tournament desk ended by time is not the table's to
        # take back: Undo took the time_limit back and the desk link journalled it again at once, a tap that did
        # nothing (session 17's trial)
        self.ids.undo.disabled = not g.events or by_time
        self.ids.redo.disabled = not a.table.can_redo
        if a.demo:
            Clock.unschedule(self._auto_roll)  # a roll due for a phase now gone is not made
            if phase == "roll":
                Clock.schedule_once(self._auto_roll, 2.0)

    def _offer(self, g, phase: str, who, last) -> None:
        """Which spots the board offers now -- all from the rules core."""
        view = self.ids.board
        pick, legal, victims = "", frozenset(), {}
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
            victims = {h: v for h, v in g.victims_by_hex().items() if v}
        elif phase == "flood":
            pick, legal = "hex", frozenset(g.tide.flood_choices)
        elif self.selection.get("mode") in CARD_PANELS:
            pass  # the board builds nothing under a card or trade panel: a tap there closes it (close_card_panel)
        elif phase == "main" and self.build_piece == "move_ship":
            # the ships that may move, then (one lifted) where it may go: both from the rules core
            pick = "edge"
            legal = frozenset(movable_ships(g, who) if self.lifted_ship is None
                              else g.ship_move_targets(who, self.lifted_ship))
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
        elif phase in ("main", "special_build"):
            # nothing armed: a tap on a side or a corner builds there at once (Undo takes it back); where the
            # player may build now is hinted faintly
            pick, legal = "build", frozenset(direct_builds(g, who))
        view.pick, view.legal, view.victims = pick, legal, victims
        view.lifted = self.lifted_ship
        if pick == "":
            view.flash = None

    def _vp_board(self, g) -> None:
        box = self.ids.vpboard
        box.clear_widgets()
        for p, info in enumerate(app().table.record.players):
            rgb = PLAYER_COLORS[info["color"]]
            text = self._tile_text(g, p, compact=self.compact_tiles)
            label = PlayerTag(text=text, markup=True, swatch=(*rgb, 1), compact=self.compact_tiles)
            label.bind(on_details=lambda _tag: self.show_tiles())
            box.add_widget(label)
        if self._tiles_view is not None:  # every whole tile shown over the screen: as the game is now
            self._tiles_view.fill([self._tile_text(g, p, compact=False) for p in range(g.n_players)],
                                  [(*PLAYER_COLORS[i["color"]], 1) for i in app().table.record.players])

    def _tile_text(self, g, p: int, compact: bool) -> str:
        """A player's tile: the name, points and cards in hand; then (whole) what the table knows of the hand,
        development cards, knights and VP cards shown, and the awards -- or (compact) the knights and awards."""
        a, s = app(), g.state
        tide = getattr(g, "tide", None)
        badges = []
        if s.longest_road == p:
            badges.append(f"[color=ffd54f]{a.tr('longest_road')}[/color]")
        if s.largest_army == p:
            badges.append(f"[color=ffd54f]{a.tr('largest_army')}[/color]")
        if tide is not None and tide.leader == p:
            badges.append(f"[color=80d8ff]{a.tr('leader')}[/color]")
        turn = "▶ " if p == self.acting(g) else ""
        name = f"{turn}[b]{escape_markup(a.player_name(p))}[/b]"
        held = s.players[p].hand.size
        points = (f"[size={int(sp(22 if compact else 24))}]{g.victory_points(p)}[/size] {a.tr('vp')}"
                  f"{'  ' if compact else '   '}{held} {a.tr('card' if held == 1 else 'cards')}")
        if compact:  # the name on a line of its own (a sixth of the board's width), the hand a tap away
            # the awards' short names, and the knights while they race for the army (the holder's are in it)
            short = [f"[color=ffd54f]{a.tr(key)}[/color]" for key, holder in
                     (("short_longest_road", s.longest_road), ("short_largest_army", s.largest_army)) if holder == p]
            if tide is not None and tide.leader == p:
                short.append(f"[color=80d8ff]{a.tr('leader')}[/color]")
            racing = s.players[p].knights and s.largest_army != p
            knights = [a.tr("tile_knights", n=s.players[p].knights)] if racing else []
            extra = joined([*knights, *short], a.lang)
            return f"{name}\n{points}" + (f"\n[size={int(sp(14))}]{extra}[/size]" if extra else "")
        return (f"{name}  {points}\n[size={int(sp(13))}]{tile_details(g, p)}[/size]"
                + (f"\n[size={int(sp(14))}]" + joined(badges, a.lang) + "[/size]" if badges else ""))

    def on_compact_tiles(self, *_args) -> None:
        g = self.game
        if g is not None and "vpboard" in self.ids:
            self._vp_board(g)  # the tiles' words for their new form

    _tiles_view = None  # every player's whole tile over the screen (a tap on a compact tile), while open

    def show_tiles(self) -> None:
        """A tap on a compact tile: every player's whole tile (the hand as the table knows it, development cards,
        knights, VP cards shown, awards) over the screen, kept up to date, until any tap."""
        g = self.game
        if g is None or self._tiles_view is not None:
            return
        view = self._tiles_view = TilesView(cols=3 if self.width > self.height or g.n_players != 4 else 2)
        view.bind(on_dismiss=lambda *_: setattr(self, "_tiles_view", None))
        self._vp_board(g)
        view.open(animation=False)

    def _last_roll(self, g, last) -> None:
        a = app()
        s = g.state
        view = self.ids.board
        self.forget_stale_picture(g, rolled_this_turn(g))
        if s.last_dice is None or not rolled_this_turn(g):
            # (the last player's "Rolled 8" goes when the turn passes: the next player has not rolled yet)
            self.roll_text, self.payout_text, self.payout_lines = "", "", []
            view.highlight = []
            return
        number = sum(s.last_dice)
        faces = f"{s.last_dice[0]} + {s.last_dice[1]}"  # Japanese brackets are full-width, with no space before
        self.roll_text = a.tr("rolled", n=number) + (f"（{faces}）" if a.lang == "ja" else f"  ({faces})")
        lines = [a.tr("receives", name=a.player_name(p), cards=cards_text(c, a.lang))
                 for p, c in sorted(s.last_payouts.items()) if c]
        roll_outcome = next((o for o in reversed(g.outcomes) if o.kind == "roll"), None)
        if roll_outcome is not None:
            lines += [a.tr("shortage", res=a.tr(r)) for r in roll_outcome.shortages]
        # gold still to be chosen: "nobody receives anything" stood there while a player picked gold
        lines += [a.tr("gold_choosing", name=a.player_name(p), n=n) for p, n in sorted(s.gold_owed.items()) if n]
        if number != 7 and not lines:
            lines = [a.tr("nobody_gets")]
        if roll_outcome is not None and a.table is not None:  # a roll put right: the wrong one's cards go back
            lines[0:0] = [a.tr("gives_back", name=a.player_name(p), cards=cards_text(c, a.lang))
                          for p, c in sorted(a.table.replaced_payouts.get(roll_outcome.index, {}).items())]
        self.payout_text, self.payout_lines = "\n".join(lines), lines
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
        self.panel_start, self.panel_end = 1 << 30, None  # no panel below the buttons until one is opened
        mode = self.selection.get("mode") or ""
        if self._drawn_mode and not mode:
            # a panel closed (a trade's OK, Cancel, a tap on the board): the list back at its top, the costs and
            # the builds in sight (it stayed scrolled where the panel's OK was: ~100 px of blank above a list now
            # shorter than its view, the builds at the bottom; playtest s10)
            box.parent.scroll_y = 1
        self._drawn_mode = mode
        if "umpire" in self.ids:
            self.ids.umpire.state = "down" if self.selection.get("mode") == "umpire" else "normal"
        # (a refusal's "record anyway" sits beside the message, in play.kv: it moves no button)
        if self.selection.get("mode") == "umpire":
            self._umpire_panel(g)
        elif phase in ("main", "special_build"):
            if phase == "special_build" and len(g.state.special_queue) > 1:
                self._builder_row(g)
            box.add_widget(cost_card(g))
            builds = build_row(self, g, who)  # each button says why it cannot be used now
            box.add_widget(builds)
            # (the special building phase: no card is played, nothing traded; the purchase joins the builds'
            # row, which keeps the builder row and every build in sight upright)
            row = builds if phase == "special_build" else BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
            # The buyer sees the card, the table does not: recorded unseen (hidden information stays hidden).
            row.add_widget(buy_button(self, g, who))
            if phase == "main":
                row.add_widget(play_button(self, g, who))  # it says why when no card can be played now
                trade = BigToggle(text=a.tr("trade"), group="mode",
                                  state="down" if self.selection.get("mode") == "trade" else "normal")
                trade.bind(on_release=lambda btn: self.set_mode("trade" if btn.state == "down" else ""))
                row.add_widget(trade)
                row.add_widget(reveal_button(self, g, who))
            if row is not builds:
                box.add_widget(row)
            self.panel_start = len(box.children)
            if phase == "main" and self.selection.get("mode") == "play":
                self._play_panel(g, who)
            if phase == "main" and self.selection.get("mode") == "trade":
                self._trade_panel(g, who)
            if phase == "main" and self.selection.get("mode") == "reveal":
                reveal_panel(self, g, who)
        elif self.coast_choice:
            self._coast_row()
        elif phase == "roll":
            row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
            row.add_widget(knight_button(self, g, who))  # it says why when no knight can be played now
            row.add_widget(reveal_button(self, g, who))  # VP cards may be shown before the roll too
            box.add_widget(row)
            self.panel_start = len(box.children)
            if self.selection.get("mode") == "reveal":
                reveal_panel(self, g, who)
        elif phase in ("discard", "gold"):
            owed = (g.state.discards_owed if phase == "discard" else g.state.gold_owed).get(who, 0)
            if phase == "gold":
                owed = min(owed, sum(g.state.bank.values()))
            self._card_picker(g, who, owed, phase)
        elif phase == "move_robber":
            # the dots the board draws on the ringed hexes, in words (or that no hex robs anybody: nobody else
            # holds a card by one, and a move there robs nothing)
            key = "victims_legend" if self.ids.board.victims else "victims_none"
            box.add_widget(FittedLabel(text=a.tr(key), max_font_size=sp(17), size_hint_y=None, height=dp(48),
                                       halign="center", valign="middle"))
        elif phase == "steal":
            for victim in g.state.steal_candidates:
                unseen = f"（{a.tr('unseen')}）" if a.lang == "ja" else f" ({a.tr('unseen')})"  # ja: full-width
                b = BigButton(text=a.tr("rob", name=a.player_name(victim)) + unseen)
                b.bind(on_release=lambda _b, v=victim: self.submit({"type": "steal", "from": v, "card": None}))
                box.add_widget(b)
        elif phase == "game_over":
            for w in game_over_widgets(g):  # the ranking and the same table's next game (game_over.py)
                box.add_widget(w)
        box.add_widget(Widget())

    def _coast_row(self) -> None:
        """Seafarers' set-up: a coast (land on one side, sea on the other) takes a road or a ship, and a tap on it
        built a road -- a ship there could not be placed.  Road / Ship choose (a sea lane is a ship either way,
        a side on land a road)."""
        a = app()
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
        row.add_widget(Label(text=a.tr("on_a_coast"), font_size=sp(17), size_hint_x=0.8))
        chosen = self.build_piece or "road"
        for piece in ("road", "ship"):
            b = BigToggle(text=a.tr(piece), group="coast", state="down" if chosen == piece else "normal",
                          allow_no_selection=False)
            b.bind(on_release=lambda _b, piece=piece: self.choose_piece(piece))
            row.add_widget(b)
        self.ids.actions.add_widget(row)

    def end_turn(self) -> None:
        """End the turn; a roll the box or camera made meanwhile (``_keep_early_roll``) is then counted."""
        early = self._early_roll
        self._forget_early_roll()
        if self.submit({"type": "end_turn"}) and early is not None:
            self.submit_roll(early[0], early[1])

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
        # (the panel's rows for bring_panel_into_sight: the players to the hand's Set, which lay half under the
        # bottom bar upright, 800x1280, after a player was chosen: session 19's floor trial)
        self.panel_start, self.panel_end = len(box.children), None
        players = list(range(g.n_players))
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
        row.add_widget(Label(text=a.tr("set_hand"), size_hint_x=None, width=dp(90), font_size=sp(17)))
        for p in players:
            b = BigToggle(text=a.player_name(p), font_size=sp(15),
                          state="down" if self.selection.get("u_player") == p else "normal")
            # Start from what the table knows the player holds.
            b.bind(on_release=lambda _b, p=p: self._pick_umpire_player(g, p))
            row.add_widget(b)
        box.add_widget(row)
        who = self.selection.get("u_player")
        if who is not None:
            hand = g.state.players[who].hand
            if hand.unknown:
                box.add_widget(Label(text=a.tr("hand_unseen", n=hand.unknown), font_size=sp(16),
                                     size_hint_y=None, height=dp(28)))
            cards, _grid = self._counter_rows("hand", g.resources)  # (its OK a row of its own: a long label)
            self._ok(True, {"type": "set_hand", "player": who, "cards": dict(cards)},
                     a.tr("set_hand_ok", name=a.player_name(who), n=sum(cards.values())))
            self.panel_end = len(box.children)  # (the Remove row and the notes below: a drag away)
        self._toggle_row(a.tr("remove"), "u_remove", ["vertex", "edge"],
                         [a.tr("remove_building"), a.tr("remove_link")], font=15)
        add_note_rows(self, box)  # a remark for the record, and the notes so far (umpire_notes.py)

    def _pick_umpire_player(self, g, p: int) -> None:
        """The umpire's hand correction for ``p``: from what the table knows ``p`` holds, its counts and Set in sight."""
        self._pick_many(u_player=p, hand=dict(g.state.players[p].hand.known), u_remove=None)
        Clock.schedule_once(lambda _dt: self.bring_panel_into_sight())

    def _builder_row(self, g) -> None:
        """The special building phase: who builds now, among the players still to come (the first by default)."""
        a, current = app(), self.acting(g)
        row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        row.add_widget(Label(text=a.tr("sb_who"), size_hint_x=None, width=dp(90), font_size=sp(17)))
        for p in g.state.special_queue:
            b = BigToggle(text=a.player_name(p), font_size=sp(15), state="down" if p == current else "normal",
                          height=dp(52))
            b.bind(on_release=lambda _b, p=p: self._pick("builder", p))
            row.add_widget(b)
        self.ids.actions.add_widget(row)

    def _pick_many(self, **values) -> None:
        self.selection = {**self.selection, **values}
        self.refresh()

    def choose_piece(self, piece: str) -> None:
        self.build_piece = piece
        if piece and self.selection.get("mode") in CARD_PANELS:
            self.selection = {}  # a build armed closes the card or trade panel: the board offers that piece now
        self.refresh()

    def _card_picker(self, g, who: int, owed: int, phase: str) -> None:
        """Discard (from the hand) or gold (from the bank): a tap on a resource's name takes all of it the hand is
        known to hold (the bank: as many as owed) up to what is still owed, +/- fine-tune it, OK at exactly
        ``owed`` (the + stops at what the hand may hold -- its unseen cards included -- and at what is owed)."""
        a = app()
        hand = g.state.players[who].hand
        held = dict(hand.known) if phase == "discard" else dict(g.state.bank)
        chosen = {r: n for r, n in self.selection.get("cards", {}).items() if n}
        left = owed - sum(chosen.values())  # still owed beside the choice
        # (a discard's unseen cards: only kinds some card of which is outside the bank and the known hands)
        most = {r: chosen.get(r, 0) + max(0, min(left, (g.most_to_give(who, r, chosen) if phase == "discard"
                                                        else g.state.bank.get(r, 0)) - chosen.get(r, 0)))
                for r in g.resources}
        chosen, grid = self._counter_rows("cards", g.resources, held, most=most)
        self._ok(sum(chosen.values()) == owed, {"type": phase, "player": who, "cards": dict(chosen)},
                 f"{a.tr('ok')} ({sum(chosen.values())}/{owed})", grid=grid)

    def adjust(self, resource: str, delta: int) -> None:
        self._count("cards", resource, delta)

    def set_mode(self, mode: str) -> None:
        """Open the development-card or the trade panel (or close it with "")."""
        self.selection = {"mode": mode} if mode else {}
        self.build_piece = ""
        if mode in CARD_PANELS:
            # the table moved on to cards or a trade: an earlier refusal goes, and with it its "Record anyway"
            # (left on offer beside the panel, a tap on it recorded a build nobody was making any more)
            self.message, self.refused, self.confirming = "", {}, False
            self.ids.board.flash, self.ids.board.marked = None, []
        self.refresh()
        if mode:
            Clock.schedule_once(lambda _dt: self.bring_panel_into_sight())

    _drawn_mode = ""  # the panel the action list last showed ("" none): its closing scrolls the list to its top

    def _pick(self, key: str, value) -> None:
        super()._pick(key, value)
        if key in PANEL_GROWS and self.selection.get("mode") in CARD_PANELS:
            Clock.schedule_once(lambda _dt: self.bring_panel_into_sight())

    def _play_panel(self, g, who: int) -> None:
        """Play a development card: knight, road building, year of plenty (two from the bank), monopoly."""
        a = app()
        cards = ("knight", "road_building", "year_of_plenty", "monopoly")
        self._toggle_row("", "card", cards, [a.tr("c_" + c) for c in cards], font=15)
        card = self.selection.get("card")
        event: dict | None = {"type": "play_development", "player": who, "card": card}
        if card == "year_of_plenty":
            # (a tap on a name takes two of it, or what is left of the two: fewer when the bank holds fewer)
            picked = {r: n for r, n in self.selection.get("cards", {}).items() if n}
            left = 2 - sum(picked.values())
            most = {r: picked.get(r, 0) + max(0, min(left, g.state.bank.get(r, 0) - picked.get(r, 0)))
                    for r in g.resources}
            chosen, grid = self._counter_rows("cards", g.resources, most=most)
            event["resources"] = [r for r, n in sorted(chosen.items()) for _ in range(n)]
            # two from the bank (fewer only when the bank holds fewer: the rules judge); OK says the count, as
            # the discard's does -- "OK (1/2)" before a tap the rules would refuse
            enabled = 1 <= len(event["resources"]) <= 2
            self._ok(enabled, event, f"{a.tr('ok')} ({len(event['resources'])}/2)", grid=grid)
            return
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

#: How much larger Zoom draws the board, and the tap target (dp) below which it is offered (~7 mm on a tablet).
ZOOM, MIN_TARGET_DP = 2.0, 40
#: The hex size (dp) under which the tiles over the board go compact: a side's tap spot (0.87 of a hex) under
#: MIN_TARGET_DP.  Base 3-4 for 4 (50 px lying down, 52 upright) keeps its whole tiles.
COMPACT_BELOW = 46
#: A side's tap disk with nothing armed, in hex sizes (measured: 30 px at a 60 px hex; see zoom_needed).
SIDE_DISK = 0.5

#: The choices in an opened panel that add rows to it (a partner's counters, a card's, the taken counts).
PANEL_GROWS = ("partner", "card", "resource", "reveal_n")

#: The panels under which the board builds nothing (a tap on it closes them): play a card, trade, show VP cards.
CARD_PANELS = ("play", "trade", "reveal")

#: What a tap with nothing armed may build, the last named winning a side where two may go (a road, not a ship).
DIRECT_PIECES = ("city", "settlement", "ship", "road")


def direct_builds(g, who: int) -> dict:
    """Where a tap with nothing armed builds what: every spot the rules offer now for each piece the player may
    build now (its pieces not used up, paid for or free); the hints on the board."""
    spots: dict = {}
    for piece in DIRECT_PIECES:
        if piece in g.buildable_pieces() and g.build_problem(who, piece) is None:
            spots.update(dict.fromkeys(getattr(g, f"legal_{piece}_spots")(who), piece))
    return spots


def coast_links(g) -> bool:
    """Whether the set-up link about to be placed may go on a side that takes a road or a ship (a coast)."""
    links = g.legal_setup_links()
    return bool({e for piece, e in links if piece == "road"} & {e for piece, e in links if piece == "ship"})


def movable_ships(g, who: int) -> list:
    """The ships ``who`` may move now (Seafarers and games built on it; none in the other games)."""
    return g.movable_ships(who) if takes_ships(g) else []


def rolled_this_turn(g) -> bool:
    """Whether the last roll belongs to the turn being played (no ``end_turn`` recorded after it)."""
    for outcome in reversed(g.outcomes):
        if outcome.kind == "roll":
            return True
        if outcome.kind == "end_turn":
            return False
    return False



class PlayerTag(Label):
    """One row of the VP board: a colour swatch, the name, points, cards and award badges.  A compact tile
    (``compact``) fires ``on_details`` when tapped: the screen shows every player's whole tile."""

    swatch = ListProperty([1, 1, 1, 1])
    compact = BooleanProperty(False)

    @property
    def head_lines(self) -> int:
        """The lines fitted last (tile_fit.py): the name's, and on a compact tile the points and cards under it."""
        return 2 if self.compact else 1

    __events__ = ("on_details",)

    def on_touch_down(self, touch):
        if self.compact and self.collide_point(*touch.pos):
            self.dispatch("on_details")
            return True
        return super().on_touch_down(touch)

    def on_details(self):
        pass


class TilesView(ModalView):
    """Every player's whole tile over the screen (a tap on a compact tile); any tap closes it."""

    cols = NumericProperty(3)

    def fill(self, texts: list[str], swatches: list) -> None:
        box = self.ids.tiles_box
        box.clear_widgets()
        for text, swatch in zip(texts, swatches):
            box.add_widget(PlayerTag(text=text, markup=True, swatch=swatch))

    def on_touch_down(self, touch):
        self.dismiss(animation=False)
        return True
