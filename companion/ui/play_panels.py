"""The base-game play screen's panels that show what the rules know: player tiles (known cards, unseen
cards, development cards, knights), the build row with its cost card and the reason a build cannot be
used now, and the panel for showing victory-point cards.

Every fact comes from the rules core (``Game.build_problem``, ``Game.revealable_vp_cards``, the state's
hands); these functions only lay it out in the user's language.  Each takes the screen it fills (its
``ids.actions`` box, ``selection``, ``submit``) so that the play screen's module stays about flow.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import NumericProperty
from kivy.core.text import Label as CoreLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from . import i18n_play
from .widgets import BigButton, BigToggle
from .i18n import cards_text
from .refusals_text import app_describe

i18n_play.install()

#: The colour of a reason a button cannot be used now (the umpire's orange, dimmed).
WHY_COLOR = "ffb74d"


def app() -> Any:
    return App.get_running_app()


# --- the player tiles ----------------------------------------------------------------------------------

def tile_details(g, player: int) -> str:
    """The line under a player's name: the cards the table knows of, how many nobody has seen, development
    cards held, knights played and victory-point cards shown (public facts only)."""
    a = app()
    st = g.state.players[player]
    if a.lang == "ja":  # each kind a part: Kivy wraps Japanese only at a space (else anywhere, "、" first)
        parts = [cards_text({r: n}, a.lang) for r, n in sorted(st.hand.known.items()) if n]
    else:
        parts = [cards_text(st.hand.known, a.lang)] if any(st.hand.known.values()) else []
    if st.hand.unknown:
        parts.append(a.tr("tile_unseen", n=st.hand.unknown))
    line = (", " if a.lang == "en" else PART_SEPARATOR["ja"]).join(parts) or a.tr("tile_no_cards")
    extra = []
    if st.dev_count:
        extra.append(a.tr("tile_dev", n=st.dev_count))
    if st.knights:
        extra.append(a.tr("tile_knights", n=st.knights))
    if getattr(st, "vp_revealed", 0):
        extra.append(a.tr("tile_vp_cards", n=st.vp_revealed))
    return joined([line, *extra], a.lang)


#: Between the parts of a tile's line (the hand, development cards, knights; the awards): punctuation that may end
#: a wrapped line, as in running text.  A lone " · " wrapped to a line's end or start (the game-over screen's
#: "… 発展1 ・" with the knights on the next line).  Kivy wraps only at a space, so Japanese has one after 、 --
#: 1 px wide (markup: the tiles are markup), since 、 carries its own blank half and a full space showed as a gap.
PART_SEPARATOR = {"en": "; ", "ja": "、[size=1] [/size]"}


def joined(parts, lang: str) -> str:
    """``parts`` as one line of a tile, wrapping only after a separator (none dangles at a line's start)."""
    return PART_SEPARATOR.get(lang, PART_SEPARATOR["en"]).join(parts)


# --- building ------------------------------------------------------------------------------------------

#: A space a line does not break at (Kivy breaks lines at plain spaces only).
NO_BREAK = "\u00a0"


def cost_card(g) -> Label:
    """What each piece and a development card cost, in one fixed block above the build buttons."""
    a = app()
    lines = []
    for piece in (*g.buildable_pieces(), "development"):
        cost = g.costs.get(piece)
        if cost:
            # (an item's words held together: a line breaks between items, never "1 lumber, 1 / wool"; no bold
            # name -- Kivy breaks a line where a markup span ends, spaces or not)
            lines.append(f"{a.tr(piece)} {cards_text(dict(cost), a.lang)}".replace(" ", NO_BREAK))
    label = Label(text=f"{a.tr('cost_card')}: " + "  ·  ".join(lines), markup=True, font_size=sp(14),
                  size_hint_y=None, halign="left", valign="middle", color=(0.85, 0.85, 0.85, 1))
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
               texture_size=lambda w, size: setattr(w, "height", size[1] + dp(4)))
    return label


def _short_reason(a, problem) -> str:
    """The few words under a button's name saying why it cannot be used now ("" when it can, or none are kept)."""
    if problem is None:
        return ""
    return a.tr(f"why_short_{problem.code}") if f"why_short_{problem.code}" in i18n_play.TEXT else ""


def _button_text(a, name: str, problem) -> str:
    """A build button's words: the piece, and under it why it cannot be used now (when it cannot)."""
    if problem is None:
        return name
    short = _short_reason(a, problem)
    return f"{name}\n[size={int(sp(13))}][color={WHY_COLOR}]{short}[/color][/size]" if short else name


class ButtonRows(GridLayout):
    """Buttons side by side in one row while each is at least ``need`` wide; narrower, in two (or more) rows of
    equal buttons.  Seafarers' builds lying down (1280x800) stood five in a row (six with High Tide's Dike), 84
    px each: "Move ship" over "moved already" was set in three lines, the name shrunk to 15 px (playtest s10).
    Two rows of three give each ~150 px: the name at its own 20 sp and the reason on one line under it."""

    need = NumericProperty(0)

    def __init__(self, **kw):
        kw.setdefault("size_hint_y", None)
        kw.setdefault("spacing", dp(6))
        super().__init__(cols=1, row_force_default=True, row_default_height=dp(64), **kw)
        self.bind(width=self._arrange, need=self._arrange, children=self._arrange)

    def _arrange(self, *_args) -> None:
        n = max(1, len(self.children))
        gap = self.spacing[0] if isinstance(self.spacing, (list, tuple)) else self.spacing
        rows = 1
        while rows < n and (self.width - gap * (math.ceil(n / rows) - 1)) / math.ceil(n / rows) < self.need:
            rows += 1
        self.cols = math.ceil(n / rows)
        rows = math.ceil(n / self.cols)
        self.height = rows * dp(64) + (rows - 1) * gap


def words_width(name: str, short: str) -> float:
    """How wide a build button must be to show ``name`` on one line at the buttons' size (20 sp) and under it
    ``short`` (its reason) at the reasons' size, broken only between its words, with the buttons' margin."""
    def width(text: str, size: float) -> float:
        return CoreLabel(font_size=size).get_extents(text)[0] if text else 0.0

    return max([width(name, sp(20))] + [width(word, sp(13)) for word in short.split()]) + dp(12)


def build_row(screen, g, who: int) -> BoxLayout:
    """One toggle per piece the game builds.  A piece the rules say cannot be built now says why on the
    button; tapping it shows the rules' whole sentence (what it costs and what the hand holds, or that no
    piece or no spot is left) instead of arming a build that would be refused.  In a game with ships, Move
    ship joins them, and the row becomes two rows where one would squeeze a button's words (ButtonRows)."""
    a = app()
    buttons, words = [], []  # each button, and its name and reason
    for piece in g.buildable_pieces():
        problem = g.build_problem(who, piece)
        words.append((a.tr(piece), _short_reason(a, problem)))
        b = BigToggle(text=_button_text(a, a.tr(piece), problem), markup=True, group="build",
                      state="down" if screen.build_piece == piece else "normal", height=dp(64))
        if problem is not None:
            b.color = (0.75, 0.75, 0.75, 1)
        b.bind(on_release=lambda btn, piece=piece, problem=problem: _tap_build(screen, btn, piece, problem))
        buttons.append(b)
    if screen.phase == "main" and takes_ships(g):
        problem = g.ship_move_problem(who)
        words.append((a.tr("move_ship"), _short_reason(a, problem)))
        buttons.append(_move_ship_button(screen, g, who, problem))
        row = ButtonRows(need=max(words_width(name, short) for name, short in words))
    else:
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
    for b in buttons:
        row.add_widget(b)
    return row


def takes_ships(g) -> bool:
    """Whether the game builds ships (Seafarers and games built on it)."""
    return hasattr(g, "ship_move_problem")


def _move_ship_button(screen, g, who: int, problem):
    """Seafarers: Move ship, armed like a build (the board then offers the ships that may move, then where the
    tapped one may go); it says why when no ship may move now ("moved already", "none movable")."""
    a = app()
    b = BigToggle(text=_button_text(a, a.tr("move_ship"), problem), markup=True, group="build",
                  state="down" if screen.build_piece == "move_ship" else "normal", height=dp(64))
    if problem is not None:
        b.color = (0.75, 0.75, 0.75, 1)
    b.bind(on_release=lambda btn: _tap_build(screen, btn, "move_ship", problem))
    return b


def _tap_build(screen, button, piece: str, problem) -> None:
    if problem is not None:
        button.state = "normal"
        screen.build_piece = ""
        screen.message = a_tr("illegal", why=app_describe(problem))
        screen.refresh()
        return
    screen.choose_piece(piece if button.state == "down" else "")


def event_button(screen, name: str, problem, event: dict) -> BigButton:
    """A button that sends ``event`` to the table; when the rules say it cannot be used now (``problem``), it says
    why under its name and a tap shows the rules' whole sentence instead of sending what would be refused."""
    a = app()
    b = BigButton(text=_button_text(a, name, problem), markup=True, height=dp(64))
    if problem is not None:
        b.color = (0.75, 0.75, 0.75, 1)

    def tapped(_b) -> None:
        if problem is not None:
            screen.message = a_tr("illegal", why=app_describe(problem))
            screen.refresh()
            return
        screen.submit(event)

    b.bind(on_release=tapped)
    return b


def buy_button(screen, g, who: int) -> BigButton:
    """Buy a development card: recorded unseen (the buyer sees it, the table does not)."""
    return event_button(screen, app().tr("dev_card"), g.build_problem(who, "development"),
                        {"type": "buy_development", "player": who, "card": None})


def play_button(screen, g, who: int) -> BigToggle:
    """Opens (or closes) the panel for playing a development card.  When the rules say no card can be played now
    (none held, all bought this turn, one played already) the button says why, and a tap shows the rules' whole
    sentence instead of opening a panel whose OK would be refused."""
    a = app()
    problem = g.play_problem(who)
    b = BigToggle(text=_button_text(a, a.tr("play_card"), problem), markup=True, group="mode", height=dp(64),
                  state="down" if screen.selection.get("mode") == "play" else "normal")
    if problem is not None:
        b.color = (0.75, 0.75, 0.75, 1)

    def tapped(btn) -> None:
        if problem is not None:
            btn.state = "normal"
            screen.set_mode("")
            screen.message = a_tr("illegal", why=app_describe(problem))
            return
        screen.set_mode("play" if btn.state == "down" else "")

    b.bind(on_release=tapped)
    return b


def knight_button(screen, g, who: int) -> BigButton:
    """Before the roll: play a knight, or (none to play) say why on the button and, tapped, in full."""
    return event_button(screen, app().tr("knight"), g.play_problem(who, "knight"),
                        {"type": "play_development", "player": who, "card": "knight"})


def a_tr(key: str, **values) -> str:
    return app().tr(key, **values)


# --- showing victory-point cards -------------------------------------------------------------------------

def reveal_button(screen, g, who: int) -> BigToggle:
    """Opens (or closes) the panel for showing VP cards; the player on turn may always ask."""
    a = app()
    b = BigToggle(text=a.tr("reveal_vp"), group="mode", height=dp(64),
                  state="down" if screen.selection.get("mode") == "reveal" else "normal")
    b.bind(on_release=lambda btn: screen.set_mode("reveal" if btn.state == "down" else ""))
    return b


def reveal_panel(screen, g, who: int) -> None:
    """How many VP cards ``who`` shows (up to what the rules allow), then OK: the event goes to the table,
    and if the cards make the target the game is won at once."""
    a = app()
    box = screen.ids.actions
    most = g.revealable_vp_cards(who)
    name = a.player_name(who)
    title = a.tr("reveal_title", name=name, n=most) if most else a.tr("reveal_none", name=name)
    label = Label(text=title, font_size=sp(18), size_hint_y=None, halign="center")
    label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
               texture_size=lambda w, size: setattr(w, "height", size[1] + dp(6)))
    box.add_widget(label)
    if not most:
        return
    counts = list(range(1, most + 1))
    chosen = screen.selection.get("reveal_n")
    if chosen not in counts:
        chosen = most
    screen._toggle_row("", "reveal_n", counts, [str(n) for n in counts], font=20)
    event = {"type": "reveal_development", "player": who, "cards": {"victory_point": chosen}}
    screen._ok(True, event, a.tr("reveal_ok", n=chosen))


# --- what changed hands, confirmed ------------------------------------------------------------------------

def confirmation(g, outcome, event: dict) -> str:
    """The line confirming a card bought, a trade made, VP cards shown or a ship moved ("" for anything else)."""
    a = app()
    kind = event.get("type")
    if kind == "buy_development":
        return a.tr("bought_dev", name=a.player_name(event["player"]))
    if kind == "reveal_development":
        return a.tr("revealed_vp", name=a.player_name(event["player"]), n=event["cards"]["victory_point"])
    if kind == "move_ship":  # (the ship moves on the board; the line says who moved it, for the table)
        return a.tr("moved_ship", name=a.player_name(event["player"]))
    if kind == "trade":
        give, get = cards_text(event["give"], a.lang), cards_text(event["get"], a.lang)
        if event["with"] == "bank":
            return a.tr("traded_bank", name=a.player_name(event["player"]), give=give, get=get)
        return a.tr("traded_with", name=a.player_name(event["player"]), other=a.player_name(event["with"]),
                    give=give, get=get)
    return ""
