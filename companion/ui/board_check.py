"""During play, "Check the board": a photo of the table's board, its pieces read (vision/board/pieces.py) and laid
on the game's board (vision/board/piece_check.py), and a list of what differs ("A red road on the side between
the 6 ore and the 8 grain that the game does not have — add it?").

The pieces compared are those the rules' check keeps and those it asks about (vision.board.pieces.checked): a
piece that breaks the rules (two buildings on neighbouring corners, a road no building of its colour reaches)
and was read unsurely is taken for a misreading and not listed; one read surely (pieces.doubtful) is listed,
never as sure.  On CatanAI's 6 photos (bench/bench_check_rows.py) this took the rows of misreadings from 40 to
16 with every lacking piece listed as before.  Only what the photo is sure of is listed as sure
(vision.board.pieces.sure_of: a piece read surely that the rules' check keeps, or a slot surely empty); what it
is not sure of is listed after, "Not sure: ...", to be looked at on the table.  Each row can be dismissed ("Not
there" / "It's there") after a look at the table.

Nothing is applied without a tap.  A tap on a difference's button sends its event through the play screen's own
``submit`` -- the path a tap on the board takes -- so the rules take it or refuse it with their reason (shown
here), and a taken event is in the record as if the board had been tapped; a piece the game has and the photo
does not show is taken off as the umpire's correction (``remove_piece``) would; the robber on another hex than the
game's (read surely, or listed as not sure) is moved there (piece_check.robber_difference), so that the next roll
pays as the table's robber lets it.  A piece the rules refuse only
for its turn, phase or cards (piece_check.NOT_WHERE) is on the table already and is recorded as the umpire
records what the table shows (the event ``forced``); one refused for where it stands is not, and says why.
"Add the N sure ones" records every sure row with one tap, each as its own button would, the set-up first in
its own order (a table that starts the app mid-game: test4_1's 52 sure rows of 55), lists what it recorded, and
takes it all back with one more tap.

The photo is a picture file or one picture from the camera named in Settings, read on a thread of its own (as
"Scan the board" reads it, board_scan.py), its result brought to the screen by ``Clock.schedule_once``.  The
picture is tapped in the list Scan the board shows (picture_chooser.py: the Pictures folder, on Android the
camera's DCIM/Camera, newest first, in the photo's place until a photo is read and again after "Pictures"), or
its path typed under the list.  Added to
the app by :func:`install` (one line in app.py): the screen and its button in the play screen's bottom row.
"""

from __future__ import annotations

import logging
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from .photo_reading import PhotoReading, install_screen, scan_camera, scan_file, tr
from .picture_chooser import PictureChooser, ReadsAPicture  # noqa: F401  (PictureChooser: kv)

log = logging.getLogger(__name__)
KV = Path(__file__).resolve().parent / "board_check.kv"

TEXT: dict[str, dict[str, str]] = {
    "check_board": {"en": "Check board", "ja": "盤面確認"},
    "check_title": {"en": "Check the board", "ja": "盤面を確認"},
    "check_other_size": {"en": "{name} shows a {players} player board: Check the board reads the pieces of a 3-4 "
                               "board only.",
                         "ja": "{name}は{players}人用の盤面です。盤面確認で駒を読めるのは3-4人用の盤面だけです。"},
    "check_help": {"en": "A photo of the whole board from above, pieces on it. What differs from the game is "
                         "listed; nothing changes until you tap.",
                   "ja": "駒の載った盤面全体を上から撮った写真。ゲームと違う所を並べます。タップするまで何も変わりません。"},
    "check_read_file": {"en": "Read the photo", "ja": "写真を読む"},
    "check_camera": {"en": "Camera", "ja": "カメラ"},
    "check_path_hint": {"en": "or a picture's path", "ja": "または写真のパス"},
    "check_pictures": {"en": "Pictures", "ja": "写真を選ぶ"},
    "check_show_read": {"en": "The photo read", "ja": "読んだ写真"},
    "check_up": {"en": "Up a folder", "ja": "上のフォルダへ"},
    "check_choose": {"en": "Tap the photo of the board (newest first), or Camera.",
                     "ja": "盤面の写真をタップ（新しい順）、または「カメラ」。"},
    "check_pictures_permission": {"en": "The pictures need your permission: allow it, then Back and Check board.",
                                  "ja": "写真を読むには許可が必要です。許可してから「ゲームに戻る」、もう一度「盤面確認」。"},
    "check_no_path": {"en": "Type a picture's path, or tap Pictures.", "ja": "写真のパスを入力するか、「写真を選ぶ」。"},
    "check_back": {"en": "Back to the game", "ja": "ゲームに戻る"},
    "check_reading": {"en": "Reading the photo…", "ja": "写真を読んでいます…"},
    "check_no_game": {"en": "No game is open.", "ja": "開いているゲームがありません。"},
    "check_not_this_board": {"en": "This photo's board is not the game's board: only {n} of 19 hexes agree "
                                   "with it, turned any way.",
                             "ja": "写真の盤面はこのゲームの盤面ではありません（どう回しても一致する地形は19のうち{n}）。"},
    "check_same": {"en": "{n} pieces read: the board and the game agree.",
                   "ja": "駒を{n}個読みました。盤面とゲームは一致しています。"},
    "check_found": {"en": "{n} pieces read; {d} differences:", "ja": "駒を{n}個読みました。違い：{d}件"},
    "check_found_unsure": {"en": "{n} pieces read; {d} differences, the last {u} not sure: look at the board "
                                 "for those.",
                           "ja": "駒を{n}個読みました。違い：{d}件。最後の{u}件は不確か：盤面で確かめてください。"},
    "check_unsure": {"en": "Not sure: {what}", "ja": "不確か：{what}"},
    "check_not_there": {"en": "Not there", "ja": "ない"},
    "check_is_there": {"en": "It's there", "ja": "ある"},
    "check_missing_in_game": {"en": "{color} {piece} on {place} that the game does not have — add it?",
                              "ja": "ゲームにない{color}の{piece}（{place}）— 追加しますか？"},
    "check_missing_on_photo": {"en": "{owner} on {place} is not on the photo — take it off?",
                               "ja": "{owner}（{place}）が写真にありません — 取り除きますか？"},
    "check_upgraded": {"en": "{color} city on {place} where the game has a settlement — make it a city?",
                       "ja": "ゲームでは開拓地の所に{color}の都市（{place}）— 都市にしますか？"},
    # the robber elsewhere on the photo (a table that adopts the app mid-game): the next roll pays as it stands
    # ({was}: where the game has it -- check_robber_on, or beside the board on a board without a desert, which
    # read "the game has it on beside the board")
    "check_robber": {"en": "The robber stands on {place} on the photo; the game has it {was} — move it?",
                     "ja": "写真では盗賊が{place}にいます（ゲームでは{was}）— 移動しますか？"},
    "check_robber_on": {"en": "on {place}", "ja": "{place}"},
    "check_robber_beside": {"en": "beside the board", "ja": "盤の外"},
    "check_move_robber": {"en": "Move", "ja": "移動"},
    "check_done_robber": {"en": "Recorded: the robber moved to {place}.", "ja": "記録しました：盗賊を{place}へ移動"},
    "check_refused_robber": {"en": "The robber to {place}: not recorded, {why}.",
                             "ja": "盗賊を{place}へ：記録できません（{why}）"},
    "check_add": {"en": "Add", "ja": "追加"},
    "check_take_off": {"en": "Take off", "ja": "取り除く"},
    "check_make_city": {"en": "City", "ja": "都市に"},
    "check_done_missing_in_game": {"en": "Recorded: {color} {piece} on {place}.",
                                   "ja": "記録しました：{color}の{piece}（{place}）"},
    "check_done_missing_on_photo": {"en": "Taken off: {owner} on {place}.", "ja": "取り除きました：{owner}（{place}）"},
    "check_done_upgraded": {"en": "Recorded: {color} city on {place}.", "ja": "記録しました：{color}の都市（{place}）"},
    # one tap for every sure row (a table adopting the app mid-game: test4_1 lists 52 sure ones of 55)
    "check_add_sure": {"en": "Add the {n} sure ones", "ja": "確かな{n}件をまとめて追加"},
    "check_take_back": {"en": "Take back the {n} just recorded", "ja": "今記録した{n}件を元に戻す"},
    "check_sure_done": {"en": "Recorded all {n} sure ones ({setup} as the set-up, {umpire} as the umpire's: past "
                              "their turn or cards). Listed below.",
                        "ja": "確かな{n}件をすべて記録しました（初期配置として{setup}件、手番やカードに関係なく審判の記録として"
                              "{umpire}件）。下に一覧があります。"},
    "check_sure_some": {"en": "Recorded {done} of the {n} sure ones ({setup} as the set-up, {umpire} as the "
                              "umpire's); {refused} not: the rules' reason is on each row.",
                        "ja": "確かな{n}件のうち{done}件を記録しました（初期配置として{setup}件、審判の記録として{umpire}件）。"
                              "{refused}件は記録できません：理由は各行に。"},
    # the set-up needs a piece the photo is not sure of (or does not show): the rest waits for it
    "check_setup_waits": {"en": "Recorded {done} of the {n} sure ones as the set-up; it waits for {player}'s "
                                "{piece}, which the photo is not sure of: look, Add it, then the sure ones again.",
                          "ja": "確かな{n}件のうち{done}件を初期配置として記録しました。次は{player}の{piece}ですが、写真では"
                                "不確かです：盤面で確かめて「追加」（またはボードをタップ）、もう一度まとめて追加してください。"},
    "check_recorded_heading": {"en": "Recorded just now ({n}):", "ja": "今記録した{n}件："},
    "check_as_umpire": {"en": "{what} (as the umpire's).", "ja": "{what}（審判の記録）"},
    # a sure row the rules refused (tapped, or in the batch): what it is, then why
    "check_refused_missing_in_game": {"en": "{color} {piece} on {place}: not recorded, {why}.",
                                      "ja": "{color}の{piece}（{place}）：記録できません（{why}）"},
    "check_refused_missing_on_photo": {"en": "{owner} on {place}: not taken off, {why}.",
                                       "ja": "{owner}（{place}）：取り除けません（{why}）"},
    "check_refused_upgraded": {"en": "{color} city on {place}: not recorded, {why}.",
                               "ja": "{color}の都市（{place}）：記録できません（{why}）"},
    "check_taken_back": {"en": "Taken back: the {n} recorded.", "ja": "記録した{n}件を元に戻しました。"},
}


class CheckBoardScreen(ReadsAPicture, PhotoReading, Screen):
    """Read a photo's pieces, list what differs from the game, record a difference when a person taps it."""

    CHOOSE, NO_PERMISSION, NO_PATH = "check_choose", "check_pictures_permission", "check_no_path"
    _other_size = "check_other_size"  # a 5-6 board's photo: its pieces are not read (vision/board/board56.py)
    message = StringProperty("")
    reading = BooleanProperty(False)
    path = StringProperty("")           # the last picture file read (or typed)
    choosing = BooleanProperty(False)   # the pictures are listed in the photo's place
    has_photo = BooleanProperty(False)  # a photo has been read (there is one to go back to)
    batch_text = StringProperty("")     # the one button for every sure row ("Add the 52 sure ones"), or to take
    #                                     them back ("Take back the 52 just recorded"); "" hides it
    _reading_message = "check_reading"
    _thread_name = "board-check"

    def __init__(self, **kw):
        super().__init__(name="board_check", **kw)
        self.scan = None            # vision.board.scan.BoardScan of the last photo read
        self.slots = None           # vision.board.pieces.SlotReading of it: what each corner and edge holds
        self.pieces: list = []      # vision.board.pieces.Piece on it: what the rules' check keeps and asks about
        self.differences: list = []
        self.dismissed: set = set()  # differences a person said are wrong, for the photo read last
        self.shown: tuple[list, list] = ([], [])  # the differences listed: (sure, not sure)
        self._compared = None       # the game (its record, how many events) the rows were made against
        self.refusals: dict = {}    # a row the rules refused when tapped (or in a batch): why, said on the row
        self.batch = None           # the sure ones recorded by one tap: the record, its length before and after,
        #                             and what each was ("Recorded: ...", how) -- to list them and take them back
        self._init_reading()

    def on_pre_enter(self, *_):
        self.show_pictures()
        app = App.get_running_app()
        if self.scan is not None and app.table is not None and self._compared != _game_mark(app):
            self.refusals = {}  # what the rules refused then may go in now
            self.compare()  # the game moved on since (a roll, an undo): the rows and the one button as it now is

    # --- reading ---------------------------------------------------------------------------------------
    def read_file(self) -> None:
        path = self.typed_picture()
        if path is None:
            return
        self.path = path
        self._start(lambda: _pieces_of(scan_file(path)), Path(path).name)

    def read_camera(self) -> None:
        entry = App.get_running_app().settings.camera or "0"
        self._start(lambda: _pieces_of(scan_camera(entry, self._cancel)), entry)

    def _read(self, value) -> None:
        from vision.board.pieces import checked

        self.scan, self.slots = value
        self.pieces = checked(self.slots) if self.slots is not None else []
        self.dismissed = set()
        self.refusals, self.batch = {}, None
        self.choosing = False  # the photo read, its pieces marked, in the pictures' place
        self.has_photo = True
        self.compare()

    # --- the differences -------------------------------------------------------------------------------
    def compare(self) -> None:
        """The differences between the photo read last and the game as it now stands, listed."""
        from vision.board.piece_check import NotThisBoard, best_turn, differences, robber_difference
        from vision.board.pieces import sure_of

        app = App.get_running_app()
        box = self.ids.differences
        box.clear_widgets()
        self.differences = []
        self.batch_text = ""
        self._compared = _game_mark(app)
        if self.batch is not None and not self._batch_current():
            self.batch = None  # something recorded or taken back since: no longer one batch to take back
        game = app.table.game if app.table is not None else None
        if self.scan is None:
            return
        if game is None or getattr(game, "board", None) is None:
            self.message = tr("check_no_game")
            return
        colors = [p["color"] for p in app.table.record.players]
        try:
            self.differences = differences(self.pieces, self.scan.terrains, self.scan.numbers, game, colors)
        except NotThisBoard as error:
            self.message = tr("check_not_this_board", n=error.agreeing)
            self._show_photo()  # what was read, to see why
            return
        robber = robber_difference(self.scan.robber, self.scan.terrains, self.scan.numbers, game)
        if robber is not None:
            self.differences.append(robber)
        turns, _ = best_turn(self.scan.terrains, self.scan.numbers, game.board)
        shown = [d for d in self.differences if _key(d) not in self.dismissed]
        robber_sure = getattr(self.scan.reading, "robber_sure", False)
        sure = [d for d in shown if (robber_sure if d.what == "robber" else sure_of(d, self.slots, turns))]
        unsure = [d for d in shown if d not in sure]
        self.shown = (sure, unsure)
        n = len(self.pieces)
        self.message = (tr("check_same", n=n) if not shown else tr("check_found", n=n, d=len(shown)) if not unsure
                        else tr("check_found_unsure", n=n, d=len(shown), u=len(unsure)))
        # the sure ones first; what the photo does not show clearly after them, said so, to be looked at; a sure
        # one the rules refused last (the unsure one a refused set-up waits for stands above them)
        refused = [d for d in sure if _key(d) in self.refusals]
        for difference in [d for d in sure if d not in refused] + unsure + refused:
            box.add_widget(self._row(difference, difference in sure))
        if self._batch_current():
            self.batch_text = tr("check_take_back", n=self.batch["to"] - self.batch["from"])
            self._list_batch(box)
        elif len([d for d in sure if _key(d) not in self.refusals]) >= 2:  # (one sure row: its own Add)
            self.batch_text = tr("check_add_sure", n=len([d for d in sure if _key(d) not in self.refusals]))
        self._show_photo()

    def _row(self, difference, sure: bool) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(6))
        refused = self.refusals.get(_key(difference))
        said = self.describe(difference, refused=refused)
        if refused is not None:
            row.height = dp(96)  # (the reason is said too)
        label = Factory.FittedLabel(text=said if sure else tr("check_unsure", what=said),
                                    max_font_size=sp(15), halign="left", valign="middle",
                                    color=(1, 0.55, 0.45, 1) if refused is not None
                                    else (1, 1, 1, 1) if sure else (1, 0.78, 0.35, 1))
        row.add_widget(label)
        button = Factory.BigButton(text=tr({"missing_in_game": "check_add", "missing_on_photo": "check_take_off",
                                            "upgraded": "check_make_city",
                                            "robber": "check_move_robber"}[difference.what]),
                                   size_hint_x=None, width=dp(100))
        button.bind(on_release=lambda _b, d=difference: self.apply(d))
        row.add_widget(button)
        dismiss = Factory.BigButton(text=tr("check_is_there" if difference.what == "missing_on_photo"
                                            else "check_not_there"), size_hint_x=None, width=dp(100))
        dismiss.bind(on_release=lambda _b, d=difference: self.dismiss(d))
        row.add_widget(dismiss)
        row.difference, row.sure, row.action, row.dismiss = difference, sure, button, dismiss
        return row

    def dismiss(self, difference) -> None:
        """A person looked at the table and the photo was wrong there: the row goes, nothing is recorded."""
        self.dismissed.add(_key(difference))
        self.compare()

    def describe(self, difference, done: bool = False, refused: str | None = None) -> str:
        """The row's question, or (``done``) what its button recorded, or (``refused``: the rules' reason) that
        it was not recorded and why, named as players say it."""
        from .refusals_text import places_for

        app = App.get_running_app()
        game = app.table.game
        # the place named by its hexes ("the side between the 6 ore and the 8 grain"), not by a piece there
        plain = places_for(game.board, app.lang, app.player_name)
        if difference.what == "robber":
            robber = game.state.robber
            key = "check_refused_" if refused is not None else "check_done_" if done else "check_"
            return tr(key + "robber", place=plain.hex(difference.at[0]), why=refused,
                      was=tr("check_robber_on", place=plain.hex(robber)) if robber is not None
                      else tr("check_robber_beside"))
        place = plain.edge(difference.at) if difference.piece == "road" else plain.vertex(difference.at)
        color, piece = app.tr(difference.color), app.tr(difference.piece)
        if app.lang == "en":  # the article goes with the colour: "An orange settlement" (it said "A orange")
            piece = piece.lower()
            color = f"{'an' if color[:1].lower() in 'aeiou' else 'a'} {color}"
            color = color if done and refused is None else color[:1].upper() + color[1:]
        if difference.what == "missing_on_photo":
            owner = places_for(game.board, app.lang, app.player_name, game.state.buildings, game.state.pieces)
            there = owner.edge(difference.at) if difference.piece == "road" else owner.vertex(difference.at)
            owner = there if done and refused is None else there[:1].upper() + there[1:]
            key = "check_refused_" if refused is not None else "check_done_" if done else "check_"
            return tr(key + difference.what, owner=owner, place=place, why=refused)
        key = "check_refused_" if refused is not None else "check_done_" if done else "check_"
        return tr(key + difference.what, color=color, piece=piece, place=place, why=refused)

    def apply(self, difference) -> None:
        """Record one difference through the play screen's submit (the path a tap on the board takes): the rules
        take it or say why not; either way the list is made again against the game as it then stands."""
        app = App.get_running_app()
        play = app.root.get_screen("play")
        what = self.describe(difference, done=True)
        recorded, why, forced = self._record(difference)
        if recorded:
            self.refusals = {}  # the game has changed: what was refused may go in now (a road it joins)
            app.changed()
            self.compare()
            self.message = tr("check_as_umpire", what=what.rstrip(".")) if forced else what
        else:
            play.submit(dict(difference.event))  # refused there too: the play screen keeps the umpire's offer
            self.refusals[_key(difference)] = why
            self.compare()
            self.message = app.tr("illegal", why=why)  # the rules' reason, in the play screen's words

    def _record(self, difference) -> tuple[bool, str, bool]:
        """Record ``difference`` as its row's button does: ``(recorded, why not, as the umpire's)``.  Whether it
        goes in as it is, as the umpire records what the table shows (``forced``), or not at all is the pure
        piece_check.as_the_table_shows's judgement; this screen sends what it returns through the play screen's
        ``submit`` (the path a tap on the board takes) or says its objection in the app's language."""
        from vision.board.piece_check import as_the_table_shows

        from .refusals_text import app_describe

        app = App.get_running_app()
        event, objection = as_the_table_shows(app.table.game, dict(difference.event),
                                              road_beside=self._road_beside(difference))
        if objection is not None:
            return False, app_describe(objection), False
        play = App.get_running_app().root.get_screen("play")
        if not play.submit(event):
            return False, play.message, False
        return True, "", bool(event.get("forced"))

    def _road_beside(self, difference) -> bool:
        """Whether the photo shows a road of ``difference``'s player beside its corner (a row of the list)."""
        edges = App.get_running_app().table.game.board.vertex_edges.get(difference.at, ())
        return any(d.what == "missing_in_game" and d.piece == "road" and d.player == difference.player
                   and d.at in edges for d in self.differences)

    def add_sure(self) -> None:
        """Every sure row recorded by one tap, each as its own button records it (:meth:`_record`).  In the set-up
        they go in its order (piece_check.next_in_setup: the placing player's settlement, then its road), so a
        board adopted mid-game becomes the game's set-up and the rest is recorded after it; a piece that needs
        another first (a road beyond a road) is tried again after the others.  What the rules refuse stays listed
        with their reason; what was recorded is listed under the rows and can be taken back by one tap."""
        from vision.board.piece_check import next_in_setup

        app = App.get_running_app()
        pending = [d for d in self.shown[0] if _key(d) not in self.refusals]
        if app.table is None or not pending:
            return
        record, start = app.table.record, len(app.table.record.events)
        done: list[tuple[str, str]] = []  # what was recorded, and how: "setup", "umpire" or "" (as it is)
        refusals: dict = {}

        def attempt(difference, setup: bool) -> bool:
            what = self.describe(difference, done=True)  # named before it is recorded (a piece taken off: whose)
            recorded, why, forced = self._record(difference)
            if recorded:
                pending.remove(difference)
                refusals.pop(_key(difference), None)
                done.append((what, "setup" if setup else "umpire" if forced else ""))
            else:
                refusals[_key(difference)] = why
            return recorded

        while pending:
            step = next_in_setup(pending, app.table.game)
            if step is not None:
                if attempt(step, True):
                    continue
            if not [attempt(d, False) for d in list(pending)].count(True):
                break  # nothing more goes in: the rest are refused, each with its reason
        play = app.root.get_screen("play")
        play.message, play.refused, play.confirming = "", {}, False  # (no one refusal of many offered there)
        self.refusals.update(refusals)
        self.batch = {"record": record, "from": start, "to": len(record.events), "done": done} if done else None
        if done:
            app.changed()
        self.compare()
        n, how = len(done) + len(pending), [h for _w, h in done]
        counts = {"n": n, "setup": how.count("setup"), "umpire": how.count("umpire")}
        game = app.table.game
        waiting = game.state.phase in ("setup_settlement", "setup_road") and pending
        message = (tr("check_sure_done", **counts) if not pending
                   else tr("check_setup_waits", done=len(done), player=app.player_name(game.waiting_for()),
                           piece=_lower(app.tr("settlement" if game.state.phase == "setup_settlement" else "road"),
                                        app.lang), **counts) if waiting
                   else tr("check_sure_some", done=len(done), refused=len(pending), **counts))
        self.message = message
        if done:
            # one tap, one line: the voice does not say a phrase for each of dozens of pieces ("Recorded against
            # the rules." 32 times, ~50 s) but says the batch's, "Forty eight pieces recorded. Four not recorded."
            # (it said nothing: session 18), and the caption under the board says what the tap did, in full
            if app.announcer is not None:
                app.announcer.forget_from(start)
                app.announcer.on_batch(len(done), len(pending), start)
            app.caption, app._captioned = message, None

    def _batch_current(self) -> bool:
        """Whether the sure ones recorded by one tap are still the game's last events (nothing recorded or taken
        back since): then they are listed and can be taken back together."""
        app = App.get_running_app()
        b = self.batch
        return (b is not None and app.table is not None and app.table.record is b["record"]
                and len(b["record"].events) == b["to"] > b["from"])

    def _list_batch(self, box) -> None:
        """Under the rows: what the one tap recorded, each as its own button says it ("Recorded: ...")."""
        done = self.batch["done"]
        box.add_widget(Factory.FittedLabel(text=tr("check_recorded_heading", n=len(done)), max_font_size=sp(15),
                                           bold=True, halign="left", valign="bottom", size_hint_y=None,
                                           height=dp(36)))
        for what, how in done:
            box.add_widget(Factory.FittedLabel(text=tr("check_as_umpire", what=what.rstrip(".")) if how == "umpire" else what,
                                               max_font_size=sp(14), halign="left", valign="middle",
                                               color=(0.6, 1, 0.7, 1), size_hint_y=None, height=dp(40)))

    def take_back(self) -> None:
        """Undo, once for each event the one tap recorded (each kept for Redo, as the play screen's Undo keeps it)."""
        app = App.get_running_app()
        if not self._batch_current():
            return
        n = self.batch["to"] - self.batch["from"]
        for _ in range(n):
            app.table.undo()
        self.batch, self.refusals = None, {}
        app.changed()
        self.compare()
        self.message = tr("check_taken_back", n=n)

    def batch_tapped(self) -> None:
        if self._batch_current():
            self.take_back()
        elif self.batch is not None or self._compared != _game_mark(App.get_running_app()):
            self.compare()  # the rows were made against a game that has moved on: shown again, nothing recorded
        else:
            self.add_sure()

    # --- the photo --------------------------------------------------------------------------------------
    def _show_photo(self) -> None:
        """The photo as read: each piece read marked by a dot in its colour, each difference listed ringed (a
        sure one thick yellow, an unsure one thin orange)."""
        import cv2
        import numpy as np

        from vision.board.lattice import canonical_center, turned
        from vision.board.piece_check import best_turn
        from vision.board.pieces import corner_point, edge_point

        from .camera_picture import bgr_texture

        photo = self.scan.photo.copy()
        paint = {"red": (40, 40, 220), "blue": (220, 80, 30), "white": (250, 250, 250), "orange": (0, 140, 255)}
        for p in self.pieces:
            centre = (int(p.pixel[0]), int(p.pixel[1]))
            cv2.circle(photo, centre, 6, paint.get(p.color, (0, 0, 0)), -1)
            cv2.circle(photo, centre, 7, (0, 0, 0), 1)
        game = App.get_running_app().table.game
        turns, _ = best_turn(self.scan.terrains, self.scan.numbers, game.board)
        homography = self.scan.reading.lattice.homography
        sure, unsure = self.shown
        for difference in sure + unsure:  # where the photo and the game disagree
            spot = tuple(sorted(turned(h, -turns % 6) for h in difference.at))
            point = (canonical_center(spot[0]) if difference.what == "robber"
                     else edge_point(spot) if difference.piece == "road" else corner_point(spot))
            x, y = cv2.perspectiveTransform(np.array([[point]], np.float64), homography)[0, 0]
            if difference in sure:
                cv2.circle(photo, (int(x), int(y)), 16, (0, 230, 255), 3)
            else:
                cv2.circle(photo, (int(x), int(y)), 14, (0, 140, 255), 2)
        picture = self.ids.picture
        picture.photo_size = [photo.shape[1], photo.shape[0]]
        picture.texture = bgr_texture(photo, None)

    def back(self) -> None:
        App.get_running_app().go("play")

    def stop(self, timeout: float = 10.0) -> None:
        super().stop(timeout)
        self.ids.chooser.stop(timeout)  # the small pictures' thread


def _game_mark(app) -> tuple | None:
    """Which game, and how far it has gone: the rows of a check hold while this stays the same."""
    table = app.table
    return (id(table.record), len(table.record.events)) if table is not None else None


def _lower(word: str, lang: str) -> str:
    return word.lower() if lang == "en" else word


def _key(difference) -> tuple:
    return (difference.what, difference.piece, difference.color, difference.at)


def _pieces_of(scan):
    """The scan and what stands at each corner and edge of its photo (read at the size the lattice was fitted
    at; the photo as the reader saw it, turned back if it was a mirror image)."""
    from vision.board.pieces import read_slots

    return scan, read_slots(scan.photo, scan.reading.lattice.homography)


def install(app, manager) -> None:
    """Add the screen, its texts and its button in the play screen's bottom row (beside Umpire and Menu)."""
    try:
        button = install_screen(app, manager, TEXT, KV, CheckBoardScreen, "check_board")
        play = manager.get_screen("play")
        row = play.ids.menu.parent
        row.cols += 1
        row.add_widget(button, index=1)  # before Menu, which stays last
        play.ids["check_board"] = button
    except Exception:  # an optional screen must not stop the table app
        log.exception("the board check screen could not be added")
