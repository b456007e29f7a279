"""What the table hears for real games: scenario records replayed by the rules core, then phrased.

The unit cases in test_announce_phrases.py build outcomes by hand; these take them from the rules
(Seafarers gold and pirate, High Tide leader, phases, floods, dikes, sinking and the end), so a field
the rules start filling differently shows up here as a wrong sentence, not as silence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.announce import library, phrase_for_outcome
from companion.record import load_record, parse_record, replay

SCENARIOS = Path(__file__).parent / "scenarios"
GAMES = Path(__file__).resolve().parents[1] / "assets" / "games"

# scenario → {event index: (English caption, Japanese caption)}, checked against the scenario's own
# description (who owns which piece, who rolls) by hand.
HEARD = {
    "discards_7_8_9_11": {
        15: ("Seven. Blue discards four. White discards four.", "7。青は4枚、白は4枚捨てます。"),
        17: ("Red moves the robber.", "赤が盗賊を動かします。"),  # the roller, after white's discard
        18: ("The robber moved. Nobody to rob.", "盗賊が移動しました。奪える相手はいません。"),
    },
    "sea_gold_with_short_bank": {
        6: ("White picks one from the gold field.", "白は金鉱から1枚選びます。"),
        7: ("White takes one ore.", "白は鉄1枚。"),
        16: ("Nine. White picks one from the gold field.", "9。白は金鉱から1枚選びます。"),
    },
    "sea_pirate_robs_a_ship_owner": {
        14: ("Seven. Blue moves the robber or the pirate.", "7。青が盗賊か海賊を動かします。"),
        15: ("The pirate moved. Blue can rob red.", "海賊が移動しました。青は赤から奪えます。"),
        16: ("Blue steals a card from red.", "青が赤からカードを1枚奪いました。"),
    },
    "tide_flood_sinks_settlement_and_longest_road": {
        17: ("Red now holds Longest Road, six roads. Red is the new leader.",
             "赤が最長交易路を獲得、道6本。赤がトップになりました。"),
        18: ("Dike round.", "堤防ラウンドです。"),
        29: ("High tide.", "満潮です。"),
        30: ("Six. Red takes one grain. Blue chooses land to flood.", "6。赤は小麦1枚。青が水没させる土地を選びます。"),
        31: ("The tide floods the land. Red loses a settlement and two roads to the sea. "
             "Blue now holds Longest Road, five roads.",
             "土地が水没しました。赤は開拓地1つと道2本を失いました。青が最長交易路を獲得、道5本。"),
    },
    "tide_dike_holds_and_three_player_end": {
        33: ("The dike held back the tide, and is removed.", "堤防が持ちこたえ、取り除かれました。"),
        57: ("The game is over. Red wins the game. Final order: red, white and blue.",
             "ゲーム終了です。赤の勝ちです。順位は赤、白、青。"),
    },
    "tide_variant_flood_all": {
        25: ("Six. Red takes one brick and one grain. The tide floods the land. Red loses a settlement and two "
             "roads to the sea. Longest Road is set aside.",
             "6。赤はレンガ1枚と小麦1枚。土地が水没しました。赤は開拓地1つと道2本を失いました。最長交易路は保留になりました。"),
    },
    "tide_variant_leader_at_8": {
        22: ("Red is the new leader.", "赤がトップになりました。"),
    },
    "tide_variant_spring_tide": {
        48: ("Spring tide.", "大潮です。"),
        49: ("Eleven. No production. Blue chooses land to flood.", "11。産出なし。青が水没させる土地を選びます。"),
        53: ("The tide floods the land. The game is over. Red wins the game. Final order: red, blue and white.",
             "土地が水没しました。ゲーム終了です。赤の勝ちです。順位は赤、青、白。"),
    },
}


def _game(stem: str):
    record = parse_record(json.loads((SCENARIOS / f"{stem}.json").read_text())["record"])
    return record, replay(record)


@pytest.mark.parametrize("stem", sorted(HEARD))
def test_scenario_outcomes_are_said(stem):
    record, game = _game(stem)
    colors = [p["color"] for p in record.players]
    for index, (english, japanese) in HEARD[stem].items():
        outcome = game.outcomes[index]
        said = [phrase_for_outcome(outcome, colors, lang) for lang in ("en", "ja")]
        assert [p and p.caption for p in said] == [english, japanese], f"{stem} event {index} ({outcome.kind})"


def _every_game():
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text())
        if "expect_error" not in data:
            yield path.stem, parse_record(data["record"])
    for path in sorted(GAMES.glob("*.json")):
        yield path.name, load_record(path)


#: The games whose every outcome has its own words (issue 6).  Others (Starfarers, issue 9) are still said,
#: with generic words ("the award", "a new phase begins") for what this vocabulary does not know yet.
VOICED_GAMES = {"base", "base56", "seafarers", "high-tide"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_everything_the_rules_publish_has_its_own_words(lang):
    """No outcome of any scenario or example game falls back to a generic clip, and each one renders."""
    clips = library(lang)
    generic = {"phase_other", "award_other", "award_other_get", "award_other_wa", "resource_other", "many"}
    spoken = 0
    for name, record in _every_game():
        colors = [p["color"] for p in record.players]
        for outcome in replay(record).outcomes:
            phrase = phrase_for_outcome(outcome, colors, lang)
            if phrase is None:
                continue
            spoken += 1
            if record.game in VOICED_GAMES:
                assert not generic & set(phrase.tokens), f"{name} event {outcome.index}: {phrase.caption}"
            assert len(clips.render(phrase.tokens)) > 0
    assert spoken > 500
