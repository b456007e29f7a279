"""The round clock as people see it: time left, the warnings, and what the event's rule says happens at time.

Pure: the stored clock (round, length, when it was started, time already run) and a moment ``now`` in, a
:class:`ClockView` out. The desk stores the clock (``floor_clock``); the desk server reads it with the clock it
was given (tests give one they move by hand), the tablets and the display show what this module says.

**Warnings** at 10, 5 and 1 minutes left (:data:`WARNINGS`): the issue asks for 10 and 1, the floor's brief for
10 and 5; organisers want each of them, and a warning is only a line on the screens.

**At time** (:data:`TIME_RULES`, the event's setting):

- ``finish_round`` -- the table finishes the round of turns it is in: play goes on until the first player's turn
  comes again, then the game ends by time and scores as it stands (the Japanese championship and most club
  events play it so);
- ``stop`` -- the game ends where it stands when the clock reaches 0:00 and scores as it stands.

Either way no one is credited with reaching the target; the preset's ``time_win`` says whether a sole VP leader
counts as the winner (docs/tournament.md, "Places in a game").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

WARNINGS = (600.0, 300.0, 60.0)  # seconds left at which everybody is warned, largest first
TIME_RULES = ("finish_round", "stop")
DEFAULT_TIME_RULE = "finish_round"

TEXTS = {
    # before the desk sets the round's clock (it showed "--:--", which a venue's screen drew as big bars)
    "en": {"none": "Round {round} — clock not started", "none_no_round": "Clock not started", "paused": "paused", "warning": "{minutes} min left", "time_up": "Time!",
           "finish_round": "At time: the table finishes the round (until the first player's turn), "
                           "then scores as it stands.",
           "stop": "At time: the game ends where it stands and scores as it stands.",
           "time_up_finish_round": "Time is up: finish this round of turns; the game ends before the first "
                                   "player's next turn.",
           "time_up_stop": "Time is up: the game ends now and scores as it stands."},
    "ja": {"none": "第{round}ラウンド — 時計はまだ動いていません", "none_no_round": "時計はまだ動いていません",
           "paused": "一時停止", "warning": "残り{minutes}分", "time_up": "時間です",
           "finish_round": "時間になったら：その手番の一巡を終えて（スタートプレイヤーの手番の前まで）、"
                           "その時点の得点で終了します。",
           "stop": "時間になったら：その場でゲームを終了し、その時点の得点で決まります。",
           "time_up_finish_round": "時間です。この一巡を終えてください。スタートプレイヤーの次の手番の前で"
                                   "ゲーム終了です。",
           "time_up_stop": "時間です。ゲームはここで終了し、今の得点で決まります。"},
}


def text(lang: str, key: str, **values: Any) -> str:
    return TEXTS.get(lang, TEXTS["en"]).get(key, TEXTS["en"][key]).format(**values)


@dataclass(frozen=True)
class ClockView:
    """The round clock at one moment."""

    round: int
    duration: float  # seconds
    running: bool
    left: float  # seconds, never below 0
    warning: float | None  # the smallest warning threshold passed (600, 300, 60), None before the first
    time_up: bool

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "duration": self.duration, "running": self.running, "left": self.left,
                "warning": self.warning, "time_up": self.time_up}


def view(stored: Mapping[str, Any] | tuple | None, now: float) -> ClockView | None:
    """The clock from its stored row ``(round, duration, started_at, elapsed)`` at ``now`` (None: never set)."""
    if stored is None:
        return None
    if isinstance(stored, Mapping):
        stored = (stored["round"], stored["duration"], stored.get("started_at"), stored.get("elapsed", 0.0))
    round_no, duration, started_at, elapsed = stored
    if started_at is not None:
        elapsed += max(0.0, now - started_at)  # a clock set back while running never adds time
    left = max(0.0, duration - elapsed)
    passed = [w for w in WARNINGS if w < duration and left <= w]
    return ClockView(int(round_no), float(duration), started_at is not None, left,
                     min(passed) if passed else None, left <= 0.0)


def new_warnings(before: ClockView | None, after: ClockView | None) -> list[float]:
    """The warnings reached between two looks at the clock (a tablet announces each once), largest first."""
    if after is None or after.warning is None:
        return []
    old = before.warning if before is not None and before.round == after.round else None
    return [w for w in WARNINGS if w < after.duration and after.left <= w and (old is None or w < old)]


def clock_text(clock: ClockView | Mapping[str, Any] | None, lang: str = "en", round_no: int | None = None) -> str:
    """``MM:SS`` left, ``(paused)`` / ``Time!`` as it is (the display's and the tablets' big line); before the
    clock is set, that it has not started (in round ``round_no``, when given)."""
    if clock is None:
        return text(lang, "none", round=round_no) if round_no else text(lang, "none_no_round")
    left = clock.left if isinstance(clock, ClockView) else float(clock["left"])
    running = clock.running if isinstance(clock, ClockView) else bool(clock["running"])
    if left <= 0:
        return text(lang, "time_up")
    whole = int(left + 0.999)  # 59.2 s left shows 01:00 -- a clock that shows 00:00 has run out
    out = f"{whole // 60:02d}:{whole % 60:02d}"
    if running:
        return out
    # Japanese in its own brackets (the tablet showed 「01:00 (一時停止)」: session 16's trial)
    return f"{out}（{text(lang, 'paused')}）" if lang == "ja" else f"{out} ({text(lang, 'paused')})"


def warning_text(clock: ClockView | Mapping[str, Any] | None, time_rule: str, lang: str = "en") -> str:
    """The line under the clock: the latest warning, what happens at time, or what to do now that it is up."""
    if clock is None:
        return ""
    left = clock.left if isinstance(clock, ClockView) else float(clock["left"])
    warning = clock.warning if isinstance(clock, ClockView) else clock.get("warning")
    rule = text(lang, time_rule if time_rule in TIME_RULES else DEFAULT_TIME_RULE)
    if left <= 0:
        return text(lang, f"time_up_{time_rule if time_rule in TIME_RULES else DEFAULT_TIME_RULE}")
    if warning is not None:
        return f"{text(lang, 'warning', minutes=int(warning // 60))}. {rule}" if lang == "en" else \
            f"{text(lang, 'warning', minutes=int(warning // 60))}。{rule}"
    return rule


def round_finished_after_time(turn: Mapping[str, Any]) -> bool:
    """Under ``finish_round``: whether a game whose clock has run out has finished its round of turns -- the
    first player (seat 0) is to roll (a game still in its set-up has not started a round)."""
    return turn.get("player") == 0 and turn.get("phase") == "roll"


def from_told(told: Mapping[str, Any] | None, seconds_since: float) -> ClockView | None:
    """The clock ``seconds_since`` after the desk told it (``{round, duration, running, left}``): a tablet counts
    down on its own between the desk's answers."""
    if not told:
        return None
    duration = float(told["duration"])
    started = 0.0 if told.get("running") else None
    return view((int(told["round"]), duration, started, duration - float(told["left"])), max(0.0, seconds_since))
