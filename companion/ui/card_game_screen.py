"""The live screen of the fast Catan card game: each player's tableau (roads and knights with their A/B
sides, settlements, cities with their face and expansion), the exchanges left, the builds, the fate
card, the end-of-turn draw, the VP, undo/redo.

Self-contained: its layout is ``card_game.kv`` (loaded by :func:`build_screen`).  It holds no rules:
inputs are record events sent to the app's :class:`~companion.table.Table`; the numbers shown come
from the game (``exchanges_allowed``, ``end_draw``, ``victory_points``, the last outcome) and a refused
event's message is shown as it is.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.utils import escape_markup
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout
from kivy.uix.togglebutton import ToggleButton

from ..rules import RulesError
from ..rules.board import RESOURCES
from ..rules.card_game import CITY_FACES, COSTS, sides
from . import i18n_extra
from .widgets import app, lay_out_now, load_rules
from .board_view import PLAYER_COLORS
from .game_over import play_again_button
from .game_screen import GameScreen
from .starfarers_screen import _button, _row

MAX_STAND_INS = 2  # missing cards the stand-in choice offers to cover (the rules take any number)



def build_screen() -> "CardGameScreen":
    i18n_extra.install()
    load_rules("card_game.kv")
    return CardGameScreen()


class Tableau(BoxLayout):
    """One player's cards laid out: a row of small labelled cards on the player's colour."""


class CardGameScreen(GameScreen):
    game_name = "card-game"
    info = StringProperty("")         # decks, fate card, the last build
    # selection: "flip" (the settlement's fate flip), "three" (pay with three identical cards),
    # "stand_in" (the build whose payment is being chosen) with its "offers" (stand_ins), "note" (this
    # screen's own remark: a text key and the piece, translated at each refresh so it follows the language)

    def __init__(self, **kw):
        kw.setdefault("name", "card_game")
        super().__init__(**kw)

    def resource_text(self, resource: str) -> str:
        """A resource's name as the card game's seed says it (ore: 鉱石, not the base game's 鉄)."""
        return self.tr(i18n_extra.resource_key(self.game_name, resource))

    def submit_roll(self, roll, photo=None) -> None:
        """The card game has no dice: a roll from a source is ignored."""

    # --- showing ---------------------------------------------------------------------------------------------
    def refresh(self) -> None:
        g = self.game
        if g is None or "tableaux" not in self.ids:
            return
        s = g.state
        self.phase = s.phase
        name = self.name_of(s.turn_player)
        if s.phase == "game_over":
            self.prompt = self.tr("cg_p_game_over", name=self.name_of(s.winner))
        elif s.phase == "exchange" and g.exchanges_allowed(s.turn_player) > s.exchanges_used:
            left = g.exchanges_allowed(s.turn_player) - s.exchanges_used
            self.prompt = self.tr("cg_p_exchange", name=name, n=left)
        else:  # (the last exchange made: the panel offers builds and End turn only, and so does the prompt)
            self.prompt = self.tr("cg_p_build", name=name)
        note = self.selection.get("note")
        if note:
            self.message = self.tr(note[0], piece=self.tr("cg_" + note[1]))
        self._info(g)
        self._tableaux(g)
        self._actions(g)
        lay_out_now(self.ids.actions)  # a tap before the next frame meets the new panel
        self.ids.undo.disabled = not g.events
        self.ids.redo.disabled = not self.table.can_redo

    def _info(self, g) -> None:
        s = g.state
        lines = [self.tr("cg_fate", side=self.tr("cg_" + s.fate), arrow=self.tr("cg_left" if s.fate == "white" else "cg_right")),
                 self.tr("cg_decks", pile=s.draw_pile, **s.decks) + "  ·  " + self.tr("cg_target", n=g.options.vp_target)]
        last = g.outcomes[-1] if g.outcomes else None
        if last is not None:
            if last.side:
                piece = next((e.get("piece") for e in reversed(g.events) if e.get("type") == "build"), "road")
                line = self.tr("cg_laid", name=self.name_of(last.player), piece=self.tr("cg_" + piece), side=last.side)
                for p, why in last.skipped:
                    line += ", " + self.tr("cg_skipped", name=self.name_of(p), why=self.tr("cg_" + why))
                if last.taken:
                    line += ", " + self.tr("cg_taken", name=self.name_of(last.taken["from"]))
                lines.append(line)
            event = g.events[-1] if g.events else {}
            if event.get("type") == "exchange":
                # one tap records an exchange: said here, or the row's going away was the only sign of it
                lines.append(self._exchange_line(event))
            else:
                for p, n in sorted(last.draws.items()):
                    lines.append(self.tr("cg_draws", name=self.name_of(p), n=n))
        self.info = "\n".join(lines)

    def _exchange_line(self, event: dict) -> str:
        name, other = self.name_of(event["player"]), event["with"]
        if other == "pile":
            return self.tr("cg_exchanged_pile", name=name)
        if other == "market":
            return self.tr("cg_exchanged_market", name=name, res=self.resource_text(event["get"]))
        return self.tr("cg_exchanged_with", name=name, other=self.name_of(other))

    def _tableaux(self, g) -> None:
        box = self.ids.tableaux
        box.clear_widgets()
        s = g.state
        for p, info in enumerate(self.table.record.players):
            t = s.players[p]
            rgb = PLAYER_COLORS.get(info["color"], (0.5, 0.5, 0.5))
            dark = info["color"] in ("white", "orange")
            ink = (0, 0, 0, 1) if dark else (1, 1, 1, 1)
            tab = Tableau()
            with tab.canvas.before:
                Color(*rgb, 1)
                rect = Rectangle()
            tab.bind(pos=lambda w, v, r=rect: setattr(r, "pos", v), size=lambda w, v, r=rect: setattr(r, "size", v))
            if p == s.turn_player and s.phase != "game_over":
                with tab.canvas.after:
                    Color(1, 1, 0.3, 1)
                    line = Line(width=2.5)
                tab.bind(pos=lambda w, v, ln=line: setattr(ln, "rectangle", (*w.pos, *w.size)),
                         size=lambda w, v, ln=line: setattr(ln, "rectangle", (*w.pos, *w.size)))
            head = Label(text=f"[b]{escape_markup(self.name_of(p))}[/b]\n" + self.tr("cg_tableau_1" if t.hand.size == 1 else "cg_tableau", vp=g.victory_points(p),
                                                                       cards=t.hand.size),
                         markup=True, color=ink, font_size=sp(18), size_hint_x=None, width=dp(130))
            tab.add_widget(head)
            # the cards wrap onto more rows rather than run off the screen's edge (a long game, portrait)
            laid = StackLayout(size_hint_y=None, spacing=dp(2))
            laid.bind(minimum_height=laid.setter("height"))
            laid.bind(height=lambda w, h, tab=tab: setattr(tab, "height", max(dp(86), h + dp(8))))
            tab.add_widget(laid)
            cards = [(self.tr("cg_road"), side) for side in sides(t.roads)]
            cards += [(self.tr("cg_knight"), side) for side in sides(t.knights)]
            cards += [(self.tr("cg_settlement"), "") for _ in range(t.settlements)]
            for face, kind in t.cities:
                cards.append((self.tr("cg_city") + (f"+{self.tr('cg_' + kind)}" if kind else ""),
                              self.tr("cg_" + face)))
            for title, side in cards:
                # a fixed size: the text wraps inside the card drawn behind it
                card = Label(text=f"{title}\n{side}", font_size=sp(14), halign="center", color=(0, 0, 0, 1),
                             size_hint=(None, None), size=(dp(92), dp(78)), text_size=(dp(84), None))
                with card.canvas.before:
                    Color(*((1, 0.97, 0.85) if side != "B" else (0.85, 0.95, 1)), 1)
                    r2 = Rectangle(size=(card.width - dp(4), card.height - dp(8)))  # the card's size is fixed
                card.bind(pos=lambda w, v, r=r2: setattr(r, "pos", (v[0] + dp(2), v[1] + dp(4))),
                          size=lambda w, v, r=r2: setattr(r, "size", (v[0] - dp(4), v[1] - dp(8))))
                laid.add_widget(card)
            box.add_widget(tab)

    # --- the turn's inputs -------------------------------------------------------------------------------------
    def _actions(self, g) -> None:
        box = self.ids.actions
        box.clear_widgets()
        if self.umpire_panel(box):  # a note for the record (also after the game's end)
            return
        s = g.state
        if s.phase == "game_over":
            self._final_points(box, g)
            return
        me = s.turn_player
        if "stand_in" in self.selection:
            self._stand_in_panel(box, self.selection["stand_in"], self.selection["offers"])
            return
        if s.phase == "exchange" and g.exchanges_allowed(me) > s.exchanges_used:  # the rules' count
            box.add_widget(Label(text=self.tr("cg_exchange"), font_size=sp(18), size_hint_y=None, height=dp(28)))
            row = [_button(self.tr("cg_pile"), lambda: self.submit({"type": "exchange", "player": me, "with": "pile"}))]
            for p in range(g.n_players):
                if p != me:
                    row.append(_button(self.tr("cg_with", name=self.name_of(p)),
                                       lambda p=p: self.submit({"type": "exchange", "player": me, "with": p})))
            box.add_widget(_row(*row))
            market = [Label(text=self.tr("cg_market"), font_size=sp(16))]
            for r in RESOURCES:
                market.append(_button(self.resource_text(r),
                                      lambda r=r: self.submit({"type": "exchange", "player": me, "with": "market",
                                                               "get": r}),
                                      font_size=sp(16)))
            box.add_widget(_row(*market))
        box.add_widget(Label(text=self.tr("build"), font_size=sp(18), size_hint_y=None, height=dp(28)))
        flip = ToggleButton(text=self.tr("cg_flip_fate"), font_size=sp(16),
                            state="down" if self.selection.get("flip") else "normal")
        flip.bind(on_release=lambda t: self._select("flip", t.state == "down"))
        three = ToggleButton(text=self.tr("cg_three_for_one"), font_size=sp(16),
                             state="down" if self.selection.get("three") else "normal")
        three.bind(on_release=lambda t: self._select("three", t.state == "down"))
        box.add_widget(_row(
            _button(self.tr("cg_road"), lambda: self._build({"piece": "road"})),
            _button(self.tr("cg_knight"), lambda: self._build({"piece": "knight"})),
            _button(self.tr("cg_settlement"), lambda: self._build(
                {"piece": "settlement", **({"flip_fate": True} if self.selection.get("flip") else {})})),
            flip))
        colon = "：" if app().lang == "ja" else ": "  # Japanese takes the full-width colon, with no space
        city = [_button(f"{self.tr('cg_city')}{colon}{self.tr('cg_' + face)}",
                        lambda face=face: self._build({"piece": "city", "face": face}),
                        font_size=sp(16)) for face in CITY_FACES]
        box.add_widget(_row(*city, three))
        kinds = list(g.options.expansion_kinds)
        for i in range(0, len(kinds), 3):
            box.add_widget(_row(*[_button(f"{self.tr('cg_expansion')}{colon}{self.tr('cg_' + k) if ('cg_' + k) in i18n_extra.TEXT else k}",
                                          lambda k=k: self._build({"piece": "expansion", "kind": k}),
                                          font_size=sp(15)) for k in kinds[i:i + 3]]))
        box.add_widget(Label(text=self.tr("cg_card_text"), font_size=sp(16), size_hint_y=None, height=dp(26)))
        box.add_widget(_row(
            _button(self.tr("cg_draw1"), lambda: self.submit({"type": "draw", "player": me, "count": 1})),
            _button(self.tr("cg_discard1"), lambda: self.submit({"type": "discard", "player": me, "count": 1})),
            _button(self.tr("cg_flip"), lambda: self.submit({"type": "flip_fate"}))))
        box.add_widget(_button(self.tr("cg_end_turn", n=g.end_draw(me)),
                               lambda: self.submit({"type": "end_turn", "player": me}), height=dp(60)))

    def _final_points(self, box, g) -> None:
        """At the end the panel lists everyone's VP, the winner first (it was empty below 'Game over'), numbered by
        the rules core's places: players level on VP share theirs ("2. Aki — 5 VP", "2. Chie — 5 VP"; it numbered
        them 2. and 3. by seat: session 18)."""
        lines, place = [self.tr("cg_final")], 1
        for held in g.places():
            lines += [self.tr("cg_final_line", n=place, name=self.name_of(p), vp=g.victory_points(p)) for p in held]
            place += len(held)
        label = Label(text="\n".join(lines), font_size=sp(20), halign="left", size_hint_y=None)
        label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                   texture_size=lambda w, v: setattr(w, "height", v[1] + dp(8)))
        box.add_widget(label)
        box.add_widget(play_again_button())  # the same table's next game (game_over.py)

    def _select(self, key, value) -> None:
        if "note" in self.selection:  # a remark answers the last tap only
            self.message = ""
        self.selection = {**{k: v for k, v in self.selection.items() if k != "note"}, key: value}
        self.refresh()

    # --- three identical cards for a missing one ------------------------------------------------------------
    def _accepts(self, event: dict) -> bool:
        """Whether the rules take ``event`` now: tried on a copy of the game, nothing recorded."""
        trial = self.game.copy()
        try:
            trial.push(event)
        except RulesError:
            return False
        return True

    def stand_ins(self, event: dict) -> dict[tuple[str, ...], dict[tuple[str, ...], dict[str, int]]]:
        """The payments the rules accept for ``event`` with three identical cards standing in for each
        missing card of its cost: ``{missing cards: {the resources standing in, one per missing card:
        the cards paid}}`` -- one missing card if the rules take any such payment, else two (at most
        :data:`MAX_STAND_INS`).

        The screen only lists candidates (the cost less the missing cards, plus three of a kind for each);
        which of them pay is the rules' answer, asked on a copy of the game.
        """
        cost = COSTS[event["piece"]]
        cards = [r for r, n in cost.items() for _ in range(n)]
        for k in range(1, MAX_STAND_INS + 1):
            offers: dict[tuple[str, ...], dict[tuple[str, ...], dict[str, int]]] = {}
            for missing in sorted(set(combinations(cards, k))):
                for by in combinations_with_replacement(RESOURCES, k):
                    paid = Counter(cost)
                    paid.subtract(missing)
                    paid.update({r: 3 * n for r, n in Counter(by).items()})
                    paid = {r: n for r, n in paid.items() if n}
                    if self._accepts({**event, "paid": paid}):
                        offers.setdefault(missing, {})[by] = paid
            if offers:
                return offers
        return {}

    def _build(self, build: dict) -> None:
        """A build button: recorded at its cost, or -- when the player pays three identical cards for a
        missing one (the toggle), or the rules refuse the cost alone but take such a payment -- the
        choice of the stand-in opens."""
        event = {"type": "build", "player": self.game.state.turn_player, **build}
        wanted = bool(self.selection.get("three"))
        if not wanted and self._accepts(event):
            self.submit(event)
            return
        offers = self.stand_ins(event)
        if not offers:
            if wanted:
                self.selection = {**self.selection, "note": ("cg_no_stand_in", build["piece"])}
                self.refresh()
            else:
                self.submit(event)  # refused: the rules' reason is shown
            return
        self.message = ""
        # the offers are kept with the choice: asking the rules again at each refresh would redo every trial
        self.selection = {"stand_in": event, "offers": offers,
                          **({} if wanted else {"note": ("cg_cost_short", build["piece"])})}
        self.refresh()

    def _stand_in_panel(self, box, event: dict, offers: dict) -> None:
        """For the build in hand: per missing card, the resources whose three cards the rules accept."""
        box.add_widget(Label(text=self.tr("cg_stand_in_title", piece=self.tr("cg_" + event["piece"])),
                             font_size=sp(18), size_hint_y=None, height=dp(34)))
        for missing, bys in offers.items():
            head = Label(text=self.tr("cg_instead_of", res=" + ".join(self.resource_text(r) for r in missing)),
                         font_size=sp(16), size_hint_x=None)
            # as wide as its words in either language ("for ore:", "レンガの代わりに：")
            head.bind(texture_size=lambda w, v: setattr(w, "width", max(dp(100), v[0] + dp(8))))
            row = [head]
            for by, paid in bys.items():
                text = " + ".join(self.tr("cg_cards_of", n=3 * n, res=self.resource_text(r))
                                  for r, n in Counter(by).items())
                row.append(_button(text,
                                   lambda paid=paid: self._pay(event, paid), font_size=sp(16)))
            box.add_widget(_row(*row))
        box.add_widget(_button(self.tr("cancel"), self._cancel))

    def _pay(self, event: dict, paid: dict) -> None:
        # a refusal gives back the choice (and its offers), its reason shown, not the note
        self.selection = {"stand_in": event, "offers": self.selection["offers"]}
        self.message = ""
        self.submit({**event, "paid": paid})

    def _cancel(self) -> None:
        self.selection, self.message = {}, ""
        self.refresh()
