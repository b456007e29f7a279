"""The card game's ore is 鉱石 in Japanese, as its seed says (001: 「小麦2枚+鉱石3枚で建設する」), on its screen, in
its refusals and in its voice, as in Starfarers (seed 003); the base game keeps 鉄.  English says "ore"
everywhere.  The screen is the real one under Xvfb, driven by taps, upright and lying down; the refusals and the
sentences come from the real rules.  (Playtest s10: the card game said 鉄 on all three.)"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.announce import phrase_for_outcome
from companion.record import Record
from companion.rules import RulesError, game_class
from companion.rules.card_game import CardSetup
from companion.rules.outcome import Outcome
from companion.rules.refusals import Refusal
from companion.ui import driver as d
from companion.ui import i18n, i18n_extra
from companion.ui.refusals_text import app_describe, describe

pytestmark = pytest.mark.timeout(240)

PLAYERS = [{"name": "Aki", "color": "red"}, {"name": "Ben", "color": "blue"}]
BASE_WORD, SEED_WORD = "鉄", "鉱石"

#: a refusal the rules give in the card game (its own code) and one shared with the board games
CARD_REFUSAL = {"type": "build", "player": 0, "piece": "city", "face": "market_day", "paid": {"ore": 2, "grain": 2}}
SHARED_REFUSAL = Refusal("cannot_afford", player=0, purpose="city", cards={"grain": 2, "ore": 3}, holds={"ore": 1})

#: (what, game, the Japanese said or shown) -- game None: a board game, which keeps 鉄
CASES = [
    ("text", "card-game", lambda: i18n.TEXT[i18n_extra.resource_key("card-game", "ore")]["ja"]),
    ("text", "starfarers", lambda: i18n.TEXT[i18n_extra.resource_key("starfarers", "ore")]["ja"]),
    ("text", None, lambda: i18n.TEXT[i18n_extra.resource_key("base", "ore")]["ja"]),
    ("card refusal", "card-game", lambda: _card_refusal("ja")),
    ("shared refusal", "card-game", lambda: describe(SHARED_REFUSAL, "ja", game="card-game")),
    ("shared refusal", None, lambda: describe(SHARED_REFUSAL, "ja", game="base")),
    ("voice: market take", "card-game", lambda: _market_take("ja")),
    ("voice: payout", None, lambda: phrase_for_outcome(
        Outcome(index=0, kind="roll", dice=(3, 5), player=0, payouts={1: {"ore": 1}}), ("red", "blue"), "ja").caption),
]


def _card_refusal(lang: str) -> str:
    game = game_class("card-game")(CardSetup(), 2)
    with pytest.raises(RulesError) as refused:
        game.push(CARD_REFUSAL)
    return describe(refused.value, lang)


def _market_take(lang: str) -> str:
    """Aki takes the ore of the market (the cards lie face up): the sentence the table hears."""
    game = game_class("card-game")(CardSetup(), 2)
    event = {"type": "exchange", "player": 0, "with": "market", "get": "ore"}
    phrase = phrase_for_outcome(game.push(event), ("red", "blue"), lang, event=event)
    assert phrase is not None, "the market's card taken is said"
    return phrase.caption


@pytest.mark.parametrize("what, game, said", CASES, ids=[f"{w}-{g}" for w, g, _ in CASES])
def test_ore_is_the_seeds_word_in_the_card_game_and_starfarers_and_iron_in_the_base_game(what, game, said):
    i18n_extra.install()
    text = said()
    right, wrong = (SEED_WORD, BASE_WORD) if game else (BASE_WORD, SEED_WORD)
    assert right in text and wrong not in text, (what, game, text)


def test_english_says_ore_in_every_game():
    i18n_extra.install()
    assert i18n.TEXT[i18n_extra.resource_key("card-game", "ore")]["en"] == "ore"
    assert "2 ore does not pay for a city (2 grain, 3 ore)" in _card_refusal("en")
    assert _market_take("en") == "Red takes ore."


@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)], ids=["upright", "lying"])
def test_the_japanese_card_game_screen_shows_koseki_never_tetsu(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(replace(app.settings, lang="ja"))
        app.start_game(Record("card-game", PLAYERS, {"start": {"cards": 6}}, {}, []))  # enough for 3 for 1
        d.settle()
        screen = app.root.get_screen("card_game")
        assert app.root.current == "card_game"
        # the market row: one button per resource, ore as the seed says
        market = d.find(screen.ids.actions, SEED_WORD)
        texts = d.screen_texts(screen)
        assert not [t for t in texts if BASE_WORD in t], texts
        # a refusal as the screen says it (the app's own path: the open game's words)
        assert SEED_WORD in app_describe(SHARED_REFUSAL) and BASE_WORD not in app_describe(SHARED_REFUSAL)
        # Aki takes the market's ore: recorded, and the last-event line names it
        d.tap(market)
        assert app.table.record.events[-1] == {"type": "exchange", "player": 0, "with": "market", "get": "ore"}
        d.settle()
        texts = d.screen_texts(screen)
        assert any("場札の鉱石" in t for t in texts), texts
        assert "Akiが鉱石を取りました。" in texts, "the voice's caption: the sentence the table hears"
        # three identical cards for a missing one: the rows name ore 鉱石 (Aki's cards are unseen)
        d.tap(d.find(screen.ids.actions, "3枚で1枚分"))
        d.tap(d.find(screen.ids.actions, "騎士"))
        d.settle()
        texts = d.screen_texts(screen)
        assert "鉱石の代わりに：" in texts and any("鉱石×3" in t for t in texts), texts
        assert not [t for t in texts if BASE_WORD in t], texts
        assert d.layout_problems(app.root) == []
        d.screenshot(tmp_path / f"card-game-ore-{size[0]}x{size[1]}-ja.png")
        print("shot", tmp_path / f"card-game-ore-{size[0]}x{size[1]}-ja.png")  # looked at by hand
    finally:
        d.stop_app(app)
