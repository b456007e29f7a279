"""What working out the board's offers with nothing armed costs (``play_screen.direct_builds``: for each piece
the player may build now, the rules core's legal spots), run on every refresh of the play screen in the main
phase, beside the build buttons' own ``build_problem`` questions.  On the bundled base example, three moments.

Run:  xvfb-run -a .venv/bin/python bench/bench_direct_build_offers.py   (importing the play screen opens Kivy)
Prints the median of 7 runs of 20 calls each, in milliseconds (docs/performance.md).
"""

from __future__ import annotations

import statistics
import time

from companion import assets
from companion.record import load_record
from companion.record.format import replay
from companion.ui.play_screen import direct_builds


def median_ms(call, runs: int = 7, calls: int = 20) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        times.append((time.perf_counter() - start) / calls * 1000)
    return statistics.median(times)


def main() -> None:
    record = load_record(assets.path("games", "example-base.json"))
    for share in (0.3, 0.6, 0.9):
        upto = int(len(record.events) * share)
        game = replay(record, upto=upto)
        who = game.waiting_for()
        offers = median_ms(lambda: direct_builds(game, who))
        buttons = median_ms(lambda: [game.build_problem(who, p) for p in game.buildable_pieces()])
        print(f"event {upto} of {len(record.events)}: direct_builds {offers:.2f} ms "
              f"({len(direct_builds(game, who))} spots); the build buttons' build_problem {buttons:.2f} ms")


if __name__ == "__main__":
    main()
