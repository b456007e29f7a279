"""What fitting a player tile costs (``companion/ui/tile_fit.fit_tile``), run when a tile is made or resized:
one measurement when the text fits, one per step when it must shrink.  A 266 x 90 px tile (a landscape
1280x800 tile, or upright with three a row) in the app's font, English and Japanese.

Run:  xvfb-run -a .venv/bin/python bench/bench_tile_fit.py
Prints the median of 7 runs of 20 fits each, in milliseconds, and the font size the tile ends at (docs/performance.md).
"""

from __future__ import annotations

import statistics
import time

from kivy.uix.label import Label

from companion.ui.app import register_font
from companion.ui.tile_fit import fit_tile

TILES = {
    "fits (en)": "▶ [b]Aki[/b]  [size=24]3[/size] VP   30 cards\n[size=13]2 brick, 12 grain, 3 lumber[/size]",
    "shrinks (en)": "▶ [b]Christopher[/b]  [size=24]3[/size] VP   30 cards\n[size=13]2 brick, 12 grain, 3 lumber, "
                    "11 ore, 2 wool · dev cards 3 · VP cards 1[/size]\n[size=14]Longest Road · Largest Army[/size]",
    "shrinks (ja)": "▶ [b]Christopher[/b]  [size=24]3[/size] 点   30 枚\n[size=13]レンガ2、小麦12、木材3、鉄11、羊毛2"
                    " · 発展3 · 勝利点カード1[/size]\n[size=14]最長交易路 · 最大騎士力[/size]",
}


def fitted(text: str) -> Label:
    label = Label(text=text, markup=True, font_size=17, size=(266, 90), text_size=(266, 90), padding=(24, 4, 6, 4))
    fit_tile(label)
    return label


def main() -> None:
    register_font()
    for name, text in TILES.items():
        times = []
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(20):
                label = fitted(text)
            times.append((time.perf_counter() - start) / 20 * 1000)
        print(f"{name:14s} {statistics.median(times):6.2f} ms  (font {label.font_size:.1f} px)")


if __name__ == "__main__":
    main()
