"""What the app's "Scan the board" needs from the board reader, without Kivy: a photo read once, the reading
as an editable board, the photo with that board drawn over it, and which hex a tap on the photo means.

:class:`BoardScan` keeps the photo at the size it was read at (the lattice's pixels), so a hex outline drawn
from the lattice lies exactly on the photo's hex, at any angle or slant.  Corrections replace a hex's terrain
or number and take it off the unsure list: a person has looked at it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from vision.board.deduce import surplus as deduce_surplus
from vision.board.harbours import NEIGHBOURS, TRADES, edge_corners
from vision.board.lattice import LAND, canonical_center, turned
from vision.board.reader import WORK_SIZE, BoardReading, board_object, read_board, read_photo_file

PRODUCING = ("forest", "hills", "pasture", "fields", "mountains")
LAND_TERRAINS = PRODUCING + ("desert",)
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def hex_corners(h: tuple[int, int], shrink: float = 1.0) -> np.ndarray:
    """The six corners of hex ``h`` in the reader's canonical plane (pointy-top, circumradius 1)."""
    x, y = canonical_center(h)
    angles = [math.radians(30 + 60 * k) for k in range(6)]
    return np.array([(x + shrink * math.cos(a), y + shrink * math.sin(a)) for a in angles], np.float64)


@dataclass
class BoardScan:
    """A photo read as a board; ``terrains``/``numbers``/``robber`` start as read and take corrections."""

    photo: np.ndarray                       # BGR, the size the reader worked at (lattice pixels)
    reading: BoardReading
    terrains: dict[tuple[int, int], str] = field(default_factory=dict)
    numbers: dict[tuple[int, int], int | None] = field(default_factory=dict)
    unsure: set[tuple[int, int]] = field(default_factory=set)
    robber: tuple[int, int] | None = None
    harbours: list = field(default_factory=list)          # harbours.Harbour, as read and then corrected
    unsure_harbours: set[tuple[int, int]] = field(default_factory=set)  # their sea hexes

    @property
    def land(self) -> tuple:
        """The board's land hexes: the 3-4 board's 19, or the 5-6 board's 30 (board56.Reading56)."""
        return getattr(self.reading, "land", LAND)

    @classmethod
    def of_file(cls, path: str | Path, players: str = "3-4") -> "BoardScan":
        """Read ``path`` as a board of ``players`` ("3-4" or "5-6": vision/board/board56.py); raises OSError (not
        an image, too large) or NoBoardError (reader.OtherSizeError when the photo shows the other size), as the
        CLI does."""
        if players == "5-6":
            from vision.board.board56 import read_56_photo

            return cls.of_image(*read_56_photo(path))  # decoded as the CLI decodes it, the prints counted
        image, reading = read_photo_file(path)  # a 12 MP photo at half size, as the CLI reads it
        return cls.of_image(image, reading)

    @classmethod
    def of_image(cls, image: np.ndarray, reading: BoardReading | None = None, players: str = "3-4"
                 ) -> "BoardScan":
        """``reading``: read_board(image) (or board56.read_56(image) for ``players`` "5-6") when already made."""
        if reading is None and players == "5-6":
            from vision.board.board56 import read_56

            reading = read_56(image)
        reading = read_board(image) if reading is None else reading
        if reading.mirrored:
            image = cv2.flip(image, 1)  # shown the right way round, as it was read
        scale = WORK_SIZE / max(image.shape[:2])  # as read_board scales it: the lattice's pixels
        work = cv2.resize(image, None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        numbers = {h: (None if reading.terrains[h] == "desert" else reading.numbers.get(h))
                   for h in getattr(reading, "land", LAND)}
        harbours = list(reading.harbours)
        unsure_harbours = {h.sea for h in harbours if not (h.sure and h.edge_sure)}
        return cls(work, reading, dict(reading.terrains), numbers, set(reading.unsure), reading.robber, harbours,
                   unsure_harbours)

    # --- corrections ------------------------------------------------------------------------------------
    def set_terrain(self, h: tuple[int, int], terrain: str) -> None:
        if terrain not in LAND_TERRAINS:
            raise ValueError(f"{terrain!r} is not a land terrain of the base game's boards")
        self.terrains[h] = terrain
        if terrain == "desert":
            self.numbers[h] = None
        self.confirm(h)

    def set_number(self, h: tuple[int, int], number: int | None) -> None:
        if number is not None and number not in NUMBERS:
            raise ValueError(f"{number!r} is not a number token")
        if self.terrains[h] == "desert" and number is not None:
            return  # the desert carries none; the tap changes nothing
        self.numbers[h] = number
        self.confirm(h)

    def set_robber(self, h: tuple[int, int]) -> None:
        self.robber = h

    def harbour(self, sea: tuple[int, int]):
        return next((h for h in self.harbours if h.sea == sea), None)

    def set_trade(self, sea: tuple[int, int], trade: str) -> None:
        """The harbour at ``sea`` trades ``trade``; a person has looked at it (no longer ringed)."""
        if trade not in TRADES:
            raise ValueError(f"{trade!r} is not a harbour's trade (one of {', '.join(TRADES)})")
        self._replace_harbour(sea, trade=trade)

    def other_edge(self, sea: tuple[int, int]) -> None:
        """The harbour at ``sea`` serves its other coast edge (a side hex of the ring touches two land hexes;
        a corner hex one, where this changes nothing)."""
        current = self.harbour(sea)
        if current is None:
            return
        lands = [(sea[0] + dq, sea[1] + dr) for dq, dr in NEIGHBOURS if (sea[0] + dq, sea[1] + dr) in self.land]
        others = [land for land in lands if land != current.land]
        self._replace_harbour(sea, land=others[0] if others else current.land)

    def confirm_harbour(self, sea: tuple[int, int]) -> None:
        self.unsure_harbours.discard(sea)

    def _replace_harbour(self, sea: tuple[int, int], **change) -> None:
        self.harbours = [replace(h, sure=True, edge_sure=True, **change) if h.sea == sea else h
                         for h in self.harbours]
        self.confirm_harbour(sea)

    def confirm(self, h: tuple[int, int]) -> None:
        """A person looked at ``h``: it is no longer unsure (unless its number is still unknown)."""
        if self.terrains[h] == "desert" or self.numbers[h] is not None:
            self.unsure.discard(h)

    def surplus(self) -> list[tuple[int, int, int]]:
        """(number, hexes showing it, tokens of it in the standard set) for each number the board as it now
        stands shows more often than the standard set holds it (deduce.surplus): a misreading, or another set.
        Follows the corrections: set right, the note goes.  (The 5-6 board's set: its 28 tokens.)"""
        if self.land != LAND:
            from vision.board.board56 import SET_56

            return deduce_surplus(self.numbers, dict(SET_56))
        return deduce_surplus(self.numbers)

    # --- the board ---------------------------------------------------------------------------------------
    def board_json(self) -> dict:
        """The record's board object (docs/record-format.md): 19 land hexes (a 5-6 board's 30), the sea ring, the harbours the
        frame shows (as read: the editor puts a wrong one right), turned as the photo shows the board (the editor then draws it as the table sees it).  A producing hex whose
        number is unknown has ``number: null`` (the board editor names it)."""
        robber = self.robber
        if robber is None or self.terrains.get(robber) is None:
            robber = next((h for h in self.land if self.terrains[h] == "desert"), None)
        return board_object(self.terrains, self.numbers, robber, self.reading.photo_turns(), self.harbours,
                            land=self.land)

    def in_record(self, h: tuple[int, int]) -> tuple[int, int]:
        """Where hex ``h`` (the reader's) is in :meth:`board_json`."""
        return turned(h, self.reading.photo_turns())

    # --- the picture -------------------------------------------------------------------------------------
    def outline(self, h: tuple[int, int], shrink: float = 0.96) -> np.ndarray:
        """Hex ``h``'s corners in the photo's pixels (N x 2)."""
        return self.reading.lattice.to_image(hex_corners(h, shrink))

    def centre(self, h: tuple[int, int]) -> tuple[float, float]:
        return self.reading.lattice.center(h)

    def hex_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The land hex under the photo pixel ``(x, y)``, or None (off the board)."""
        for h in self.land:
            poly = self.outline(h, 1.0).astype(np.float32)
            if cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0:
                return h
        return None

    def harbour_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The sea hex of the harbour whose badge (or ship) is under photo pixel ``(x, y)``, or None.  A badge
        is a finger's size on the tablet only when it is drawn large: a tap within 1.6 of its radius counts."""
        best, best_distance = None, math.inf
        for harbour in self.harbours:
            (bx, by), radius = self.harbour_badge(harbour)
            sx, sy = self.centre(harbour.sea)
            distance = min(math.dist((x, y), (bx, by)), math.dist((x, y), (sx, sy))) / radius
            if distance <= 1.6 and distance < best_distance:
                best, best_distance = harbour.sea, distance
        return best

    def drawn(self, colours: dict[str, tuple[float, float, float]], selected: tuple[int, int] | None = None,
              selected_harbour: tuple[int, int] | None = None) -> np.ndarray:
        """The photo with the board as read drawn over it: each hex outlined, a badge in its middle in the
        terrain's colour (``colours``: RGB 0-1, the app's tile colours) below its middle, with the number
        read (red 6 and 8, "?" where unknown), the robber a dark disc above the middle, unsure hexes ringed
        thick orange, the selected hex white; each harbour read, its coast edge drawn thick and a badge on
        its ship saying "3:1" (white) or "2:1" in the colour of the terrain that yields its resource, ringed
        orange when its trade or edge is unsure and white when selected."""
        out = self.photo.copy()
        spacing = self.reading.lattice.spacing
        line = max(2, int(spacing / 40))
        for h in self.land:
            pts = self.outline(h).round().astype(np.int32)
            cv2.polylines(out, [pts], True, (40, 40, 40), line, cv2.LINE_AA)
        for h in self.land:
            # the badge sits below the hex's middle, so the photo's own token stays in sight beside the reading
            cx, cy = canonical_center(h)
            x, y = self.reading.lattice.to_image(np.array([(cx, cy + 0.52)]))[0]
            radius = max(9, int(spacing * 0.16))
            r, g, b = colours.get(self.terrains[h], (0.5, 0.5, 0.5))
            centre = (int(round(x)), int(round(y)))
            cv2.circle(out, centre, radius, (int(b * 255), int(g * 255), int(r * 255)), -1, cv2.LINE_AA)
            cv2.circle(out, centre, radius, (20, 20, 20), max(1, line // 2), cv2.LINE_AA)
            if self.terrains[h] != "desert":
                inner = int(radius * 0.72)
                cv2.circle(out, centre, inner, (245, 245, 245), -1, cv2.LINE_AA)
                number = self.numbers.get(h)
                text = "?" if number is None else str(number)
                ink = (30, 30, 210) if number in (6, 8) else (15, 15, 15)
                font = inner / (17.0 if len(text) > 1 else 13.0)
                thick = max(1, int(inner / 9))
                (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, font, thick)
                cv2.putText(out, text, (centre[0] - tw // 2, centre[1] + th // 2), cv2.FONT_HERSHEY_DUPLEX, font,
                            ink, thick, cv2.LINE_AA)
        for harbour in self.harbours:
            self._draw_harbour(out, harbour, colours, line)
            if harbour.sea in self.unsure_harbours or harbour.sea == selected_harbour:
                # ringed as an unsure hex is (orange), or white while selected
                centre, radius = self.harbour_badge(harbour)
                ring = (255, 255, 255) if harbour.sea == selected_harbour else (0, 140, 255)
                cv2.circle(out, centre, radius + line * 2, ring, line * 2, cv2.LINE_AA)
        if self.robber is not None:
            # the robber as read: a dark disc above the hex's middle, where the badge is not
            cx, cy = canonical_center(self.robber)
            x, y = self.reading.lattice.to_image(np.array([(cx, cy - 0.5)]))[0]
            radius = max(7, int(spacing * 0.11))
            cv2.circle(out, (int(round(x)), int(round(y))), radius, (45, 45, 45), -1, cv2.LINE_AA)
            cv2.circle(out, (int(round(x)), int(round(y))), radius, (235, 235, 235), max(1, line // 2), cv2.LINE_AA)
        for h in sorted(self.unsure):
            pts = self.outline(h, 0.82).round().astype(np.int32)
            cv2.polylines(out, [pts], True, (0, 140, 255), line * 3, cv2.LINE_AA)
        if selected is not None:
            pts = self.outline(selected, 0.9).round().astype(np.int32)
            cv2.polylines(out, [pts], True, (255, 255, 255), line * 2, cv2.LINE_AA)
        return out

    def harbour_badge(self, harbour) -> tuple[tuple[int, int], int]:
        """Where a harbour's badge is drawn (photo pixels) and its radius: beside the ship, seawards, so the
        photo's own sail stays in sight next to the reading -- on the ship where that would leave the photo."""
        radius = max(9, int(self.reading.lattice.spacing * 0.16))
        (sx, sy), (lx, ly) = canonical_center(harbour.sea), canonical_center(harbour.land)
        out_x, out_y = (sx - lx) / math.sqrt(3), (sy - ly) / math.sqrt(3)  # away from the land
        height, width = self.photo.shape[:2]
        for k in (0.55, 0.0):
            x, y = self.reading.lattice.to_image(np.array([(sx + k * out_x, sy + k * out_y)]))[0]
            if radius <= x < width - radius and radius <= y < height - radius:
                break
        return (int(round(x)), int(round(y))), radius

    def _draw_harbour(self, out: np.ndarray, harbour, colours: dict, line: int) -> None:
        """No words in the picture (the app speaks two languages): the ratio, and the resource by its
        terrain's colour."""
        r, g, b = (1.0, 1.0, 1.0) if harbour.trade == "3:1" else colours.get(RESOURCE_TERRAIN[harbour.trade],
                                                                              (0.5, 0.5, 0.5))
        fill = (int(b * 255), int(g * 255), int(r * 255))
        corners = self.reading.lattice.to_image(np.array(edge_corners(harbour.sea, harbour.land)))
        ends = [tuple(int(round(v)) for v in c) for c in corners]
        cv2.line(out, ends[0], ends[1], (20, 20, 20), line * 4, cv2.LINE_AA)
        cv2.line(out, ends[0], ends[1], fill, line * 2, cv2.LINE_AA)
        centre, radius = self.harbour_badge(harbour)
        cv2.circle(out, centre, radius, fill, -1, cv2.LINE_AA)
        cv2.circle(out, centre, radius, (20, 20, 20), max(1, line // 2), cv2.LINE_AA)
        text = "3:1" if harbour.trade == "3:1" else "2:1"
        font = radius / 30.0
        thick = max(1, int(radius / 10))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, font, thick)
        cv2.putText(out, text, (centre[0] - tw // 2, centre[1] + th // 2), cv2.FONT_HERSHEY_DUPLEX, font,
                    (15, 15, 15), thick, cv2.LINE_AA)


# The terrain whose tiles yield each harbour's resource (its badge takes that terrain's colour).
RESOURCE_TERRAIN = {"lumber": "forest", "brick": "hills", "wool": "pasture", "grain": "fields", "ore": "mountains"}


__all__ = ["BoardScan", "LAND_TERRAINS", "NUMBERS", "hex_corners"]
