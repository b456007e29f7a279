"""The start screen: a new game, the settings, statistics, the tournament, and the unfinished games to resume
(its layout is ``start.kv``)."""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from . import i18n
from .widgets import BigButton, app, load_rules

load_rules("start.kv")

TEXT: dict[str, dict[str, str]] = {
    "resume_refused": {"en": "Game #{id} cannot be resumed: {why}",
                       "ja": "ゲーム#{id}は再開できません：{why}"},
    "finished_games": {"en": "Finished games", "ja": "終わったゲーム"},
    "finished_won": {"en": "{name} won", "ja": "{name}の勝ち"},
    "finished_shared": {"en": "{name} shared the win", "ja": "{name}の同点勝ち"},  # High Tide: level on VP and cards
    "finished_ended": {"en": "ended", "ja": "終了"},
    # the game last played, at the top of the screen: one tap back into it (after Menu, mistaken or not)
    "resume_last": {"en": "Resume #{id} {game}, {turn} — {players}", "ja": "再開：#{id} {game}、{turn} — {players}"},
}
FINISHED_SHOWN = 5  # the last few evenings: who won, and the way to the same table again
for _key, _entry in TEXT.items():
    i18n.TEXT.setdefault(_key, _entry)


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
        self._last_game(a, games)
        self.ids.resume_head.opacity = 1 if games else 0
        # By number, the newest game first: a line stays where it was when its game is played.  Ordered by the last
        # move, the game just left jumped to the top after Menu, and a tap where another game's line had been
        # opened it again (session 18); the game just left has its own button above (``last_game``).
        for info in sorted(games, key=lambda g: -g.id):
            button = BigButton(text=resume_line(a, info))
            button.bind(on_release=lambda _b, gid=info.id: self.resume(gid))
            box.add_widget(button)
        # The games played to their end: who won, and (opened) the ranking and "New game, same players". A game's
        # end left no trace here, so the next evening's table typed its names again.
        finished = [g for g in (a.journal.games() if a.journal is not None else []) if g.finished]
        if finished:
            box.add_widget(Label(text=a.tr("finished_games"), size_hint_y=None, height=dp(48), font_size=sp(22)))
        for info in sorted(finished, key=lambda g: -g.updated)[:FINISHED_SHOWN]:
            button = BigButton(text=resume_line(a, info))
            button.finished_game = info.id
            button.bind(on_release=lambda _b, gid=info.id: self.resume(gid))
            box.add_widget(button)
        self.ids.tournament.disabled = not a.has_screen("tournament")
        self.ids.tournament.opacity = 1 if a.has_screen("tournament") else 0

    def _last_game(self, a, games) -> None:
        """The button at the top: the game this tablet last had open (else the one played last), "Resume #3 Base
        3–4, turn 12 — Aki 5, Ben 4, Chie 3", in one place whatever the list holds; with no unfinished game it keeps
        its place and says so (disabled), so the buttons under it do not move either."""
        last = self.ids.last_game
        table = getattr(a, "table", None)
        open_id = getattr(table, "game_id", None) if table is not None else None
        info = next((g for g in games if g.id == open_id), None) or max(games, key=lambda g: g.updated, default=None)
        last.game_id = info.id if info is not None else 0  # (0: none -- the kv property refuses None)
        last.disabled = info is None
        last.text = a.tr("no_unfinished") if info is None else a.tr("resume_last", **resume_parts(a, info))

    def resume_last(self) -> None:
        if self.ids.last_game.game_id:
            self.resume(self.ids.last_game.game_id)

    def resume(self, game_id: int) -> None:
        """Open a journalled game; one whose record no longer replays (a start the rules now refuse: say, a base
        game begun with its robber off the desert) is said above the list, and the app stays here (it stopped
        on the exception)."""
        from ..record import RecordError
        from ..rules import RulesError

        a = app()
        try:
            a.resume_game(game_id)
        except (RecordError, RulesError) as error:
            for old in [w for w in self.ids.games.children if getattr(w, "refused_resume", False)]:
                self.ids.games.remove_widget(old)  # (one such line: a second tap says it again, not twice)
            said = Label(text=a.tr("resume_refused", id=game_id, why=_why(a, game_id, error)), font_size=sp(17),
                         color=(1, 0.45, 0.4, 1), size_hint_y=None, height=dp(84), halign="center",
                         valign="middle", text_size=(self.width * 0.9, None))
            said.refused_resume = True
            self.ids.games.add_widget(said, index=len(self.ids.games.children))


def _why(a, game_id: int, error) -> str:
    """Why a record does not replay, in the user's words: its start's board problems with their places said as
    players say them (no coordinates on the screen); else the record's own message's first line."""
    from ..rules import board_from_json, board_problems
    from .refusals_text import app_describe

    try:
        record = a.journal.load(game_id)
        board = board_from_json(record.board, check=False)
        problems = board_problems(board, separate_red_numbers=bool((record.options or {}).get("separate_red_numbers")))
    except Exception:  # (a board that does not read: the record's message says it)
        problems = []
    if problems:
        return "; ".join(app_describe(p, board) for p in problems[:2])
    return str(error).removeprefix("record: ").splitlines()[0]


def resume_line(a, info) -> str:
    """A game on the resume list as a table remembers it: the game, the turn, each player's points, the date
    it was last played ("#3 Base 3–4 — turn 12 — Aki 5, Ben 4, Chie 3 — 26 Nov 14:05"); a finished game, who
    won and the final points ("#2 Seafarers — Yui won — Yui 10, Aki 8, Ben 7 — 26 Nov 22:40")."""
    return a.tr("resume_line", **resume_parts(a, info))


def resume_parts(a, info) -> dict:
    """The parts of :func:`resume_line` (id, game, turn, players, when), in the app's language."""
    import time

    from ..record import replay

    when = time.strftime("%d %b %H:%M" if a.lang == "en" else "%m/%d %H:%M", time.localtime(info.updated))
    names = [p.get("name") or a.tr(p["color"]) for p in info.players]
    try:
        game = replay(a.journal.load(info.id))
        # (at the end every card is shown: the final points count the hidden ones)
        points = [(game.victory_points(p, hidden=info.finished) if hasattr(game, "victory_points") else None)
                  for p in range(len(names))]
        turn = game.state.turn_number if hasattr(game.state, "turn_number") else None
        winner = getattr(game.state, "winner", None)
        shared = tuple(game.winners()) if hasattr(game, "winners") else ()
    except Exception:  # a record that no longer replays still gets its line (resuming it says why)
        points, turn, winner, shared = [None] * len(names), None, None, ()
    # (a list as the language writes it: 「佐藤 1、中村 1」, it read 「佐藤 1, 中村 1」: session 16's trial)
    players = ("、" if a.lang == "ja" else ", ").join(f"{n} {v}" if v is not None else n for n, v in zip(names, points))
    turn_text = a.tr("resume_setup") if not turn else a.tr("resume_turn", n=turn)
    if info.finished:
        turn_text = a.tr("finished_won", name=names[winner]) if winner is not None else a.tr("finished_ended")
        if len(shared) > 1:  # (game_over.py: players level on points and cards share the win)
            from .game_over import names_joined
            turn_text = a.tr("finished_shared", name=names_joined([names[p] for p in shared], a.lang))
    return {"id": info.id, "game": a.tr("g_" + info.game), "turn": turn_text, "players": players, "when": when}
