"""The development folds of SettlersEye's pieces (vision.board.make_piece_model.fold_boards): the 17 board names
are photos of 4 physical boards (PHYSICAL_BOARDS, docs/board-reader.md); a fold scored on one board's photos must
not have trained on another name of the same board, or the figures count that board's look twice."""

from __future__ import annotations

from vision.board.make_piece_model import PHYSICAL_BOARDS, SEALED_BOARDS, fold_boards

DEVELOPMENT = sorted(set(PHYSICAL_BOARDS) - set(SEALED_BOARDS))


def test_a_physical_board_is_held_out_whole():
    held = fold_boards(DEVELOPMENT, 3)
    assert sorted(b for fold in held for b in fold) == DEVELOPMENT  # every board scored once
    for fold in held:
        trained_on = set(DEVELOPMENT) - fold
        assert not {PHYSICAL_BOARDS[b] for b in fold} & {PHYSICAL_BOARDS[b] for b in trained_on}, held
    assert all(held), held  # no fold empty
    # the very same pieces photographed under two names: never split
    for twins in (("board1", "board2"), ("board6", "board11"), ("board14", "board16")):
        assert any(set(twins) <= fold for fold in held), (twins, held)


def test_a_name_of_its_own_is_a_board_of_its_own():
    held = fold_boards(DEVELOPMENT + ["board99"], 3)
    assert sum("board99" in fold for fold in held) == 1
