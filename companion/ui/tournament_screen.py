"""The tournament desk's screen: pick or create an event, register players, seat rounds, enter each table's
result (typed, or filled from a finished game in the journal) and watch the standings.

Its layout is ``tournament.kv``, loaded with the app's shared rules (the same buttons, headings and colours as
every other screen).  It holds no rules and no scoring — every change goes through
:class:`companion.tournament.Desk`, whose messages (what is wrong and where) are shown as they are; each scoring
preset is explained in one line made from the preset itself (its ranking order, points, VP cap), so the words
cannot disagree with the scoring.  The desk's file is ``desk_path`` (default: beside the app's journal).
"""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ..tournament import PRESETS, Desk, DeskFileError, TournamentError
from ..tournament.export import _cell, standing_columns
from ..tournament.scoring import Preset
from ..tournament.store import FILE_NAME
from .desk_refusals import refusal_text, warning_text
from .widgets import BigToggle, load_rules

load_rules("tournament.kv")

TEXTS = {
    "en": {"title": "Tournament", "new_event": "New event", "add": "Add player", "seat": "Seat next round", "final": "Final table",
           "round": "Round {n}", "no_round": "No round seated yet", "table": "Table {t}", "save": "Save result",
           "time": "Ended by time", "from_journal": "From finished game", "reason": "why corrected",
           "saved": "Saved", "no_event": "Create an event to begin", "players": "{n} players",
           "standings": "Standings", "back": "Back", "name_hint": "player name", "event_hint": "event name",
           "corrected": "Corrected (the old result stays in the audit trail)", "no_game":
           "No finished game of these players in the journal", "win": "Winner", "name": "Name"},
    "ja": {"title": "大会", "new_event": "大会を作成", "add": "参加者を追加", "seat": "次のラウンドの席決め", "final": "決勝卓",
           "round": "第{n}ラウンド", "no_round": "まだ席決めしていません", "table": "{t}卓", "save": "結果を保存",
           "time": "時間切れ", "from_journal": "終了したゲームから", "reason": "訂正の理由",
           "saved": "保存しました", "no_event": "まず大会を作成してください", "players": "参加者 {n}人",
           "standings": "順位", "back": "戻る", "name_hint": "名前", "event_hint": "大会名",
           "corrected": "訂正しました(元の結果は記録に残ります)",
           "no_game": "この卓の参加者の終了したゲームが記録にありません", "win": "勝者", "name": "名前"},
}
TEXTS["en"]["vp_hint"], TEXTS["ja"]["vp_hint"] = "VP", "点"
TEXTS["en"]["byes"], TEXTS["ja"]["byes"] = "sitting out: {names}", "休み：{names}"
TEXTS["en"]["no_vp"] = "round {r} table {t}: no VP for {name}"
TEXTS["ja"]["no_vp"] = "第{r}ラウンド{t}卓：{name}の勝利点が入っていません"
# A tournament file that cannot be used is kept aside untouched and a fresh one started (see _desk).
TEXTS["en"]["desk_kept"] = "The tournament file could not be used ({problem}); it was kept, untouched, as {kept}, " \
                           "and a fresh one is used."
TEXTS["ja"]["desk_kept"] = "大会ファイルを使えませんでした（{problem}）。手を付けずに {kept} として残し、新しいファイルを使います。"


#: Each scoring preset's name on the screen (the preset spinner); a preset of the event's own shows its title.
PRESET_NAMES = {
    "en": {"catan-studio": "World championship", "german": "German championship", "japanese": "Japanese championship"},
    "ja": {"catan-studio": "世界選手権", "german": "ドイツ選手権", "japanese": "日本選手権"},
}
#: A ranking criterion (companion.tournament.scoring.CRITERIA) in a preset's one-line explanation.
CRITERION_WORDS = {
    "en": {"wins": "games won", "points": "points for places ({p4}; {p3} at 3 players)", "vp": "VP ({cap})",
           "share_sum": "share of the table's VP", "share_avg": "average share of the table's VP",
           "places": "1st, 2nd, 3rd places", "seconds": "2nd places", "thirds": "3rd places", "lot": "a lot"},
    "ja": {"wins": "勝利数", "points": "順位点（4人卓{p4}、3人卓{p3}）", "vp": "勝利点（{cap}）",
           "share_sum": "卓の勝利点に占める割合", "share_avg": "卓の勝利点に占める割合の平均",
           "places": "1位・2位・3位の回数", "seconds": "2位の回数", "thirds": "3位の回数", "lot": "抽選"},
}
VP_COUNTED = {"en": {True: "up to the win target", False: "all of them"}, "ja": {True: "目標点まで", False: "すべて"}}
PRESET_LINE = {"en": ("Ranked by {first}", ", then {rest}", ", "), "ja": ("順位：{first}", "、同じなら{rest}", "→")}
#: Standings column headings that fit a tablet's width, in the user's language.
HEADINGS = {
    "en": {"#": "#", "name": "Name", "games": "Games", "wins": "Wins", "points": "Points", "vp": "VP",
           "share_sum": "VP %", "share_avg": "VP %", "firsts": "1st", "seconds": "2nd", "thirds": "3rd"},
    "ja": {"#": "順位", "name": "名前", "games": "試合", "wins": "勝利", "points": "順位点", "vp": "勝利点",
           "share_sum": "割合%", "share_avg": "割合%", "firsts": "1位", "seconds": "2位", "thirds": "3位"},
}
NOT_RANKED = "–"  # the rank shown while nobody has played: a lot or the order of registration is no ranking


def preset_line(preset: Preset, lang: str) -> str:
    """A scoring preset in one line, made from the preset itself: its ranking criteria in order, with the points
    per place and how VP are counted ("Ranked by games won, then VP (up to the win target), ...")."""
    words = CRITERION_WORDS.get(lang, CRITERION_WORDS["en"])
    first, then, joiner = PRESET_LINE.get(lang, PRESET_LINE["en"])

    def points(values) -> str:
        return "-".join(str(int(p)) if p.denominator == 1 else f"{float(p):g}" for p in values)

    said = [words[c].format(p4=points(preset.points4), p3=points(preset.points3),
                            cap=VP_COUNTED.get(lang, VP_COUNTED["en"])[preset.cap_vp]) for c in preset.order]
    return first.format(first=said[0]) + (then.format(rest=joiner.join(said[1:])) if len(said) > 1 else "")


def ordered_standings(rows, names: dict) -> list[tuple[str, object]]:
    """The standings as shown: (rank text, row) by rank, players sharing a rank by name.  While nobody has played
    a game every player is shown unranked, by name: the preset's lot (or the order they registered in) would
    otherwise read as a ranking nobody earned."""
    if all(r.games == 0 for r in rows):
        return [(NOT_RANKED, r) for r in sorted(rows, key=lambda r: names[r.player].casefold())]
    return [(str(r.rank), r) for r in sorted(rows, key=lambda r: (r.rank, names[r.player].casefold()))]


class TableCard(BoxLayout):
    """One table of the current round: a VP field and a winner toggle per seat, "ended by time", save.  Every
    card has the height of a four-seat table, and its status line has a place of its own."""

    SEATS = 4
    table_no = NumericProperty(0)
    title = StringProperty("")
    status = StringProperty("")
    status_ok = BooleanProperty(False)  # the status says the result is saved (green), not what is wrong
    players = ListProperty([])  # [(player id, name)] in seat order

    def __init__(self, **kw):
        super().__init__(**kw)
        self.vp_inputs: dict[int, TextInput] = {}
        self.win_toggles: dict[int, BigToggle] = {}


class TournamentScreen(Screen):
    desk_path = StringProperty("")
    lang = StringProperty("en")
    event_id = NumericProperty(0)
    event_names = ListProperty([])
    event_name = StringProperty("")
    round_no = NumericProperty(0)
    round_title = StringProperty("")
    summary = StringProperty("")
    message = StringProperty("")
    message_ok = BooleanProperty(False)  # the message says something went right (green), not what is wrong
    presets = ListProperty(list(PRESETS))
    preset_key = StringProperty("catan-studio")  # the scoring a new event gets (the preset spinner)
    preset_line = StringProperty("")  # that preset in one line

    def __init__(self, **kw):
        kw.setdefault("name", "tournament")
        super().__init__(**kw)
        app = App.get_running_app()
        if app is not None and getattr(app, "lang", None) in TEXTS:
            self.lang = app.lang
            if app.property("lang", quiet=True) is not None:  # follow the app's language switch
                app.bind(lang=lambda _a, value: setattr(self, "lang", value if value in TEXTS else "en"))

    # --- texts and the file ----------------------------------------------------------------------------
    def t(self, key: str, _lang: str | None = None, **values) -> str:
        return TEXTS.get(_lang or self.lang, TEXTS["en"])[key].format(**values)

    #: The message on screen as words for a language (see :meth:`say`); None: nothing said yet.
    _words = None
    #: What a tournament file kept aside says after every change (see :meth:`_desk`), as words for a language.
    kept_notice = staticmethod(lambda lang: "")

    def say(self, words, ok: bool = False) -> str:
        """Show the message ``words(lang)`` (``ok``: in green, something went right); it is said again in the new
        language when the language changes (a sentence in the old one stayed on screen)."""
        self._words = words
        self.message = words(self.lang)
        self.message_ok = ok
        return self.message

    def preset_name(self, key: str, lang: str | None = None) -> str:
        names = PRESET_NAMES.get(lang or self.lang, PRESET_NAMES["en"])
        return names.get(key) or (PRESETS[key].title if key in PRESETS else key)

    def preset_chosen(self, name: str) -> None:
        """The preset spinner shows ``name``: the new event's scoring, explained in the line below it."""
        self.preset_key = next((key for key in self.presets if self.preset_name(key) == name), self.preset_key)
        self.preset_line = preset_line(PRESETS[self.preset_key], self.lang)

    def _path(self) -> Path | None:
        if self.desk_path:
            return Path(self.desk_path)
        app = App.get_running_app()
        if app is not None and getattr(app, "data_dir", None) is not None:
            return Path(app.data_dir) / FILE_NAME  # beside the app's journal
        return None  # the desk's default: beside the journal in the user data directory

    def _desk(self) -> Desk:
        try:
            return Desk(self._path())
        except DeskFileError as error:
            # Damaged, newer, or another program's: the desk must go on.  The file (and its -wal, -journal) is
            # renamed aside, never changed or deleted, and a fresh file takes its place; the screen says so.
            from ..record.rescue import set_aside
            from ..tournament import default_path

            kept = set_aside(self._path() or default_path())
            if kept is None:
                raise
            self.kept_notice = lambda lang, error=error, kept=kept.name: self.t(
                "desk_kept", lang, problem=refusal_text(error, lang), kept=kept)
            self.say(self.kept_notice)
            return Desk(self._path())

    def _journal(self):
        from ..record.journal import Journal

        app = App.get_running_app()
        if not self.desk_path and app is not None and getattr(app, "journal", None) is not None:
            return app.journal, False  # the app's own journal, already open
        path = self._path()
        return Journal(path.parent / "journal.sqlite3" if path is not None else None), True

    # --- showing ----------------------------------------------------------------------------------------
    def on_pre_enter(self, *args):
        self.refresh()

    def on_lang(self, *args):
        self.preset_line = preset_line(PRESETS[self.preset_key], self.lang)
        if "tables" in self.ids:  # the cards' texts are set when they are built: build them again
            self.refresh()
        if self._words is not None:  # the message on screen, said again in the new language
            self.message = self._words(self.lang)

    def refresh(self) -> None:
        """Reload everything from the desk's file."""
        self.preset_line = preset_line(PRESETS[self.preset_key], self.lang)
        try:
            with self._desk() as desk:
                events = desk.events()
                self.event_names = [e.name for e in events]
                if events and not any(e.id == self.event_id for e in events):
                    self.event_id = events[-1].id
                if not events:
                    self.event_id = 0
                    self.event_name = ""
                    self.summary = ""
                    self.round_title = self.t("no_event")
                    self._show_tables(None, [])
                    self._show_standings(None, [], {})
                    return
                ev = desk.event(self.event_id)
                self.event_name = ev.name
                names = desk.names(ev.id)
                rounds = desk.rounds(ev.id)
                rnd = rounds[-1] if rounds else None
                self.round_no = rnd.number if rnd else 0
                active = [p for p in desk.players(ev.id) if p.dropped_after is None]
                self.summary = f"{self.preset_name(ev.preset.key)} · {self.t('players', n=len(active))}"
                self.round_title = self.t("round", n=rnd.number) if rnd else self.t("no_round")
                byes = rnd.cost.get("byes", []) if rnd is not None and isinstance(rnd.cost, dict) else []
                if byes:  # a field the tables cannot seat: who sits this round out (the desk chose them)
                    self.round_title += "  ·  " + self.t("byes", names=", ".join(names[p] for p in byes))
                results = {}
                if rnd is not None:
                    for t in range(1, len(rnd.tables) + 1):
                        results[t] = desk.current_result(ev.id, rnd.number, t)
                self._show_tables(rnd, [(t, [(p, names[p]) for p in table], results.get(t))
                                        for t, table in enumerate(rnd.tables, start=1)] if rnd else [])
                self._show_standings(ev, desk.standings(ev.id), names)
        except TournamentError as error:
            self.say(lambda lang, error=error: refusal_text(error, lang))

    def _show_tables(self, rnd, tables) -> None:
        box = self.ids.tables
        box.clear_widgets()
        for t, players, result in tables:
            card = TableCard(table_no=t, title=self.t("table", t=t), players=players)
            rows = card.ids.rows
            for pid, name in players:
                row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
                row.add_widget(Factory.SeatName(text=name))
                vp = Factory.DeskInput(input_filter="int", size_hint_x=None, width=dp(76), height=dp(52),
                                       font_size=sp(22), hint_text=self.t("vp_hint"))
                win = BigToggle(text=self.t("win"), group=f"win-{rnd.number}-{t}", size_hint_x=None,
                                width=dp(96), height=dp(52), allow_no_selection=True)
                if result is not None:
                    vp.text = str(result.vp.get(pid, ""))
                    win.state = "down" if result.winner == pid else "normal"
                row.add_widget(vp)
                row.add_widget(win)
                card.vp_inputs[pid] = vp
                card.win_toggles[pid] = win
                rows.add_widget(row)
            for _ in range(TableCard.SEATS - len(players)):  # the seats' rows start at the card's top
                rows.add_widget(Widget(size_hint_y=None, height=dp(52)))
            card.ids.time.text = self.t("time")
            card.ids.time.state = "down" if result is not None and result.ended_by_time else "normal"
            card.ids.save.text = self.t("save")
            card.ids.from_journal.text = self.t("from_journal")
            card.ids.reason.hint_text = self.t("reason")
            card.ids.save.bind(on_release=lambda _b, c=card: self.save_table(c))
            card.ids.from_journal.bind(on_release=lambda _b, c=card: self.fill_from_journal(c))
            if result is not None:
                warnings = [warning_text(w, self.lang) for w in result.warnings]
                card.status = self.t("saved") + ("" if not warnings else " — " + "; ".join(warnings))
                card.status_ok = not result.warnings
            box.add_widget(card)

    def _show_standings(self, ev, rows, names) -> None:
        grid = self.ids.standings
        grid.clear_widgets()
        if ev is None:
            grid.cols = 1
            return
        cols = ["#", "name"] + [c for c in standing_columns(ev) if c != "lot"]
        grid.cols = len(cols)
        headings = HEADINGS.get(self.lang, HEADINGS["en"])
        for c in cols:
            grid.add_widget(Factory.StandingCell(text=headings[c], bold=True, font_size=sp(14),
                                                 size_hint_x=1.8 if c == "name" else 1))
        for rank, r in ordered_standings(rows, names):
            cells = [rank, names[r.player] + (" †" if r.dropped else "")] + [_cell(r, c) for c in cols[2:]]
            for c, text in zip(cols, cells):
                grid.add_widget(Factory.StandingCell(text=text, size_hint_x=1.8 if c == "name" else 1,
                                                     halign="left" if c == "name" else "center"))

    # --- actions ----------------------------------------------------------------------------------------
    def _do(self, action) -> bool:
        """Run a desk change; a refused change shows the desk's message and changes nothing."""
        self.message_ok = False
        try:
            with self._desk() as desk:
                action(desk)
        except TournamentError as error:
            self.say(lambda lang, error=error: refusal_text(error, lang))
            return False
        self.say(self.kept_notice)
        return True

    def create_event(self) -> None:
        name = self.ids.event_input.text.strip()
        preset = self.preset_key
        created = {}

        def act(desk):
            created["id"] = desk.create_event(name, preset if preset in PRESETS else "catan-studio").id
        if self._do(act):
            self.event_id = created["id"]
            self.ids.event_input.text = ""
            self.refresh()

    def choose_event(self, name: str) -> None:
        def act(desk):
            self.event_id = desk.event(name).id
        if self._do(act):
            self.refresh()

    def add_player(self) -> None:
        name = self.ids.player_input.text
        if self._do(lambda desk: desk.add_player(self.event_id, name)):
            self.ids.player_input.text = ""
            self.refresh()

    def seat_next_round(self) -> None:
        if self._do(lambda desk: desk.seat_round(self.event_id)):
            self.refresh()

    def seat_final(self) -> None:
        """The top four of the standings at one table, in rank order."""
        if self._do(lambda desk: desk.seat_round(self.event_id, kind="final")):
            self.refresh()

    def _read_card(self, card: TableCard):
        vp = {}
        for pid, field in card.vp_inputs.items():
            if field.text.strip() == "":
                name = dict(card.players)[pid]
                raise TournamentError(self.t("no_vp", "en", r=self.round_no, t=card.table_no, name=name), "no_vp",
                                      round=self.round_no, table=card.table_no, names=[name])
            vp[pid] = int(field.text)
        winners = [pid for pid, tb in card.win_toggles.items() if tb.state == "down"]
        return vp, (winners[0] if winners else None), card.ids.time.state == "down"

    def save_table(self, card: TableCard) -> None:
        """Save the card's result; when the table already has one, as a correction with the typed reason."""
        outcome = {}

        def act(desk):
            vp, winner, by_time = self._read_card(card)
            existing = desk.current_result(self.event_id, self.round_no, card.table_no)
            outcome["corrected"] = existing is not None
            outcome["result"] = desk.enter_result(
                self.event_id, self.round_no, card.table_no, vp, winner, ended_by_time=by_time,
                correct=existing is not None, reason=card.ids.reason.text, who=self._who())
        if self._do(act):
            self.refresh()
            self.say(lambda lang: self.t("corrected", lang) if outcome["corrected"] else "", ok=True)
        else:
            card.status, card.status_ok = self.message, False

    def fill_from_journal(self, card: TableCard) -> None:
        """Fill the card's result from the newest finished game in the journal with exactly these players."""
        names = {n.casefold() for _, n in card.players}
        journal, close = self._journal()
        try:
            games = [g for g in journal.games() if g.finished
                     and {p.get("name", "").casefold() for p in g.players} == names]
            record = journal.load(games[0].id) if games else None  # games() lists the newest first
            source = f"journal game {games[0].id}" if games else ""
        finally:
            if close:
                journal.close()
        if record is None:
            card.status = self.say(lambda lang: self.t("no_game", lang))
            card.status_ok = False
            return

        def act(desk):
            existing = desk.current_result(self.event_id, self.round_no, card.table_no)
            desk.enter_record(self.event_id, self.round_no, card.table_no, record, source=source,
                              correct=existing is not None, reason=card.ids.reason.text, who=self._who())
        if self._do(act):
            self.refresh()
        else:
            card.status, card.status_ok = self.message, False

    def _who(self) -> str:
        import os
        return os.environ.get("CATAN_DESK_USER") or "tablet"

    def go_back(self) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "go") and self.manager is not None and self.manager.has_screen("start"):
            app.go("start")
