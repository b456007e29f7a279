"""Choice panels every live screen builds the same way: toggles, +/- counters, an OK, and the trade panel.

One implementation for the base-game screen and the own-screen games (Starfarers), so a trade is entered
the same way everywhere: choose the partner (the bank / the stock, or a player), then what goes each way.
The panels hold no rules: the ratios come from the game's ``harbor_ratios`` and the event goes to the
screen's ``submit``, whose refusal shows the rules' reason.

A screen using :class:`ChoicePanels` has a ``selection`` dict property (the choices being made), a
``refresh()`` that rebuilds its panel, a ``submit(event)`` and an ``actions`` box in its ``ids``.
"""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from .widgets import BigButton, BigToggle, app


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

    def _counter_rows(self, key: str, resources, held=None) -> dict[str, int]:
        """+/- per resource for ``selection[key]`` (a ``{resource: count}``); returns the current choice."""
        chosen = dict(self.selection.get(key, {}))
        for r in resources:
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
            text = self.resource_text(r) + (f" ({held.get(r, 0)})" if held is not None else "")
            minus = BigButton(text="−", size_hint_x=None, width=dp(60), height=dp(52))
            minus.bind(on_release=lambda _b, r=r: self._count(key, r, -1))
            plus = BigButton(text="+", size_hint_x=None, width=dp(60), height=dp(52))
            plus.bind(on_release=lambda _b, r=r: self._count(key, r, +1))
            count = Label(text=str(chosen.get(r, 0)), font_size=sp(22), size_hint_x=None, width=dp(36))
            for w in (Label(text=text, font_size=sp(18)), minus, count, plus):
                row.add_widget(w)
            self.ids.actions.add_widget(row)
        return {r: n for r, n in chosen.items() if n}

    def _count(self, key: str, resource: str, delta: int) -> None:
        cards = dict(self.selection.get(key, {}))
        cards[resource] = max(0, cards.get(resource, 0) + delta)
        self._pick(key, {r: n for r, n in cards.items() if n})

    def _ok(self, enabled: bool, event: dict | None, label: str = "") -> None:
        ok = BigButton(text=label or app().tr("ok"), disabled=not enabled)
        if enabled and event is not None:
            ok.bind(on_release=lambda _b: self.submit(event))
        self.ids.actions.add_widget(ok)

    def _trade_panel(self, g, who: int) -> None:
        """Trade with the bank (at the player's ratios, from the rules' harbor query) or with a player."""
        a = app()
        others = [p for p in range(g.n_players) if p != who]
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
            self.ids.actions.add_widget(Label(text=a.tr("give"), size_hint_y=None, height=dp(28)))
            give = self._counter_rows("give", g.resources, dict(g.state.players[who].hand.known))
            self.ids.actions.add_widget(Label(text=a.tr("get"), size_hint_y=None, height=dp(28)))
            get = self._counter_rows("get", g.resources, dict(g.state.players[partner].hand.known))
            self._ok(bool(give and get), {"type": "trade", "player": who, "with": partner, "give": give, "get": get})
