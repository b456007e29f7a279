"""Every text the app shows exists in English and Japanese, with the same fields to fill.

A key missing in Japanese is shown in English on a Japanese screen (the table falls back rather than fail), and
a field missing in one language is a ``KeyError`` or a blank at the moment the text is shown: both are found here,
for the app's table and the screens that keep their own (calibration, tournament).
"""

from __future__ import annotations

import string

import pytest

from companion.ui import calibration_screen, i18n, i18n_extra, tide_text, tournament_screen


def fields(text: str) -> set[str]:
    return {name for _literal, name, _spec, _conversion in string.Formatter().parse(text) if name is not None}


def app_texts() -> dict[str, tuple[str | None, str | None]]:
    i18n_extra.install()
    tide_text.install()
    return {key: (entry.get("en"), entry.get("ja")) for key, entry in i18n.TEXT.items()}


def screen_texts(texts: dict[str, dict[str, str]]) -> dict[str, tuple[str | None, str | None]]:
    return {key: (texts["en"].get(key), texts["ja"].get(key)) for key in set(texts["en"]) | set(texts["ja"])}


def problems(texts: dict[str, tuple[str | None, str | None]]) -> list[str]:
    found = []
    for key, (english, japanese) in sorted(texts.items()):
        if not english:
            found.append(f"{key}: no English")
        elif not japanese:
            found.append(f"{key}: no Japanese (a Japanese screen shows {english!r})")
        elif fields(english) != fields(japanese):
            found.append(f"{key}: fields {sorted(fields(english))} in English, {sorted(fields(japanese))} in Japanese")
    return found


@pytest.mark.parametrize("table", ["app", "calibration", "tournament"])
def test_every_text_is_in_both_languages_with_the_same_fields(table):
    texts = {"app": app_texts, "calibration": lambda: screen_texts(calibration_screen.TEXTS),
             "tournament": lambda: screen_texts(tournament_screen.TEXTS)}[table]()
    assert len(texts) > 10
    assert problems(texts) == []


def test_a_missing_japanese_text_or_field_is_found():
    assert problems({"a": ("Roll {n}", None), "b": ("Roll {n}", "{m}を振る"), "c": ("ok", "了解")}) == [
        "a: no Japanese (a Japanese screen shows 'Roll {n}')", "b: fields ['n'] in English, ['m'] in Japanese"]


def test_the_starfarers_supply_pile_is_one_word_on_the_panel_and_in_the_caption():
    """The seed's 補充用の山札 is 補充の山 in what is said and captioned; the roll panel's line says the same word
    (it said 補給, so a table read two names for one pile)."""
    from companion.announce.vocabulary import CLIPS

    caption, _spoken = CLIPS["ja"]["supply_from"]
    pile = caption.removesuffix("から")
    assert pile == "補充の山"
    i18n_extra.install()
    assert pile in i18n.TEXT["sf_supply_draws"]["ja"].format(name="赤", n=2)


@pytest.mark.parametrize("race", ["merchants", "scientists", "travelers", "green_folk"])
def test_each_starfarers_race_has_one_japanese_name_on_screen_and_in_the_caption(race):
    """The board's label and the tiles say what the voice's caption says (the screen said グリーンフォーク where the
    caption said 緑の民)."""
    from companion.announce.vocabulary import _JA_ALIENS

    _spoken, caption = _JA_ALIENS[race]
    i18n_extra.install()
    assert i18n.TEXT[race]["ja"] + "の" == caption


def test_a_count_is_said_in_words_not_with_a_bracketed_plural():
    """English texts say "1 card" and "2 cards" ("Ben: choose 1 card(s) for gold" on the Seafarers gold field, "4
    leader turn(s) left" in High Tide: playtest s10).  A key's "_1" text is the one for a count of one."""
    texts = app_texts()
    assert [key for key, (english, _ja) in texts.items() if "(s)" in (english or "")] == []
    assert i18n.tr("p_gold", "en", name="Ben", n=1) == "Ben: choose 1 card for gold"
    assert i18n.tr("p_gold", "en", name="Ben", n=2) == "Ben: choose 2 cards for gold"
    assert i18n.tr("p_gold", "ja", name="Ben", n=1) == "Ben：金鉱のカードを1枚選ぶ"
    assert i18n.tr("tide_high", "en", round=2, name="Chie", turns=1, n=1).startswith(
        "High tide, round 2 (leader: Chie; 1 leader turn left, then")


@pytest.mark.parametrize("n, m, english", [
    (3, 1, "3 hexes to check, and 1 harbour (ringed)."),  # "1 harbours" (session 16's trial, test5_2)
    (1, 2, "1 hex to check, and 2 harbours (ringed)."),
    (1, 1, "1 hex to check, and 1 harbour (ringed)."),
    (4, 2, "4 hexes to check, and 2 harbours (ringed)."),
])
def test_scan_the_boards_counts_say_one_as_one(n, m, english):
    """Scan the board's message counts hexes and harbours as words do: "1 harbour", "1 hex"."""
    from companion.ui import board_scan

    for key, entry in board_scan.TEXT.items():  # as the screen installs them (photo_reading.install_screen)
        i18n.TEXT.setdefault(key, entry)
    assert board_scan.unsure_line(n, m) == english  # (no app running: the English table)
    key = "scan_unsure_harbour" if m == 1 else "scan_unsure_harbours"
    assert i18n.tr(key, "ja", n=n, m=m) == f"確認が必要な地形：{n}、港：{m}（枠付き）。"
    assert board_scan.unsure_line(1, 0) == "1 hex to check (ringed)."
