"""The start screen: a new game, the settings, statistics, the tournament, and the unfinished games to resume
(its layout is ``start.kv``)."""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from .widgets import BigButton, app, load_rules

load_rules("start.kv")


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
