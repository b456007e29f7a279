"""What the table hears for real games: scenario records replayed by the rules core, then phrased.

The unit cases in test_announce_phrases.py build outcomes by hand; these take them from the rules
(Seafarers gold and pirate, High Tide leader, phases, floods, dikes, sinking and the end; Starfarers
production, supply draws, the 7, the mothership, encounters, half-medals, friendship markers, flights and
the end; the card game's fate card, cards taken past protected players, the draw and the end), so a field
the rules start filling differently shows up here as a wrong sentence, not as silence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.announce import library, phrase_for_outcome
from companion.record import load_record, parse_record, replay

SCENARIOS = Path(__file__).parent / "scenarios"
GAMES = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games"

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
        30: ("Six. Red takes one grain. Blue chooses land to flood.", "6。赤は小麦1枚。青が浸水させる土地を選びます。"),
        31: ("The tide floods the six fields. Red loses a settlement and two roads to the sea. "
             "Blue now holds Longest Road, five roads.",
             "6の畑が浸水しました。赤は開拓地1つと道2本を失いました。青が最長交易路を獲得、道5本。"),
    },
    "tide_dike_holds_and_three_player_end": {
        33: ("The dike on the six fields held back the tide, and is removed.", "6の畑の堤防が持ちこたえ、取り除かれました。"),
        57: ("The game is over. Red wins the game. Final order: red, white and blue.",
             "ゲーム終了です。赤の勝ちです。順位は赤、白、青。"),
    },
    "tide_variant_flood_all": {
        25: ("Six. Red takes one brick and one grain. The tide floods the six fields and the six hills. Red loses a "
             "settlement and two roads to the sea. Longest Road is set aside.",
             "6。赤はレンガ1枚と小麦1枚。6の畑と6の丘陵が浸水しました。赤は開拓地1つと道2本を失いました。最長交易路は保留になりました。"),
    },
    "tide_variant_leader_at_8": {
        22: ("Red buys a development card. Red is the new leader.", "赤は発展カードを買いました。赤がトップになりました。"),
    },
    "tide_variant_spring_tide": {
        48: ("Spring tide.", "大潮です。"),
        49: ("Eleven. No production. Blue chooses land to flood.", "11。産出なし。青が浸水させる土地を選びます。"),
        # blue and white level on VP and cards: they share second place (session 18; "Final order: red, blue and white")
        53: ("The tide floods the twelve fields. The game is over. Red wins the game. Blue and white share second "
             "place.", "12の畑が浸水しました。ゲーム終了です。赤の勝ちです。青と白が同点で2位です。"),
    },
    # Starfarers (issue 9). Seats: red, blue, white, clockwise; the left neighbour is the next seat.
    "star_production_supply_and_seven": {
        12: ("Eight. Red takes two food. White takes one fuel. Red draws two from the supply.",
             "8。赤は食料2枚、白は燃料1枚。補充の山から赤が2枚引きます。"),
        15: ("Seven. Red returns nine. Blue returns seven. White returns eight.",
             "7。赤は9枚、青は7枚、白は8枚戻します。"),
        16: None, 17: None,  # a return does not repeat who else still owes
        18: ("Blue can rob red or white.", "青は赤か白から奪えます。"),  # the roller, not the last to return
        # the steal, then the others draw 1 each clockwise from the roller's left, then the roller by VP
        19: ("Blue steals a card from white. White draws one, red one and blue two from the supply.",
             "青が白からカードを1枚奪いました。補充の山から白が1枚、赤が1枚、青が2枚引きます。"),
        # red's draw empties the pile, refilled at once (seed 003)
        25: ("Two. Blue takes one food. Red draws two from the supply. The supply pile is refilled.",
             "2。青は食料1枚。補充の山から赤が2枚引きます。補充の山を作り直しました。"),
        28: ("Twelve. No production. Blue draws two from the supply.", "12。産出なし。補充の山から青が2枚引きます。"),
    },
    "star_terraform_and_half_medals": {
        0: None, 9: None,  # the set-up's colonies and spaceports are placed in view: not news
        14: ("Black and yellow. Speed three. Encounter. Blue reads the card.",
             "黒と黄色。移動力3。遭遇です。青がカードを読みます。"),
        15: ("Red gains a half-medal. Red now has five points.",
             "赤はハーフメダル1枚を獲得しました。赤は5点になりました。"),
        16: ("Red terraforms an ice planet.", "赤が氷の惑星を地球化しました。"),
        19: ("Red and yellow. Speed five, seven with boosters.", "赤と黄色。移動力5、動力炉込みで7。"),
        20: ("Blue founds a colony.", "青がコロニーを設置しました。"),
        23: ("Black and red. Speed three. Encounter. Red reads the card.",
             "黒と赤。移動力3。遭遇です。赤がカードを読みます。"),
        24: ("White takes one carbon. White loses a half-medal.", "白は炭素1枚。白はハーフメダル1枚を失いました。"),
        26: ("Eight. Red takes two food. Blue takes one ore. White takes one fuel. Red draws two from the supply.",
             "8。赤は食料2枚、青は鉱石1枚、白は燃料1枚。補充の山から赤が2枚引きます。"),
    },
    "star_friendship_majority_changes": {
        15: ("Yellow and red. Speed five.", "黄色と赤。移動力5。"),
        16: ("Red docks a trade station. Red now holds the merchants' friendship marker, one station.",
             "赤が交易ステーションを設置しました。赤が商人の友好親善マーカーを獲得、交易ステーション1つ。"),
        21: ("Blue docks a trade station.", "青が交易ステーションを設置しました。"),  # 1:1, the first keeps it
        37: ("Blue docks a trade station. Blue now holds the merchants' friendship marker, two stations.",
             "青が交易ステーションを設置しました。青が商人の友好親善マーカーを獲得、交易ステーション2つ。"),
        44: ("Red docks a trade station.", "赤が交易ステーションを設置しました。"),  # 2:2
        55: ("Red docks a trade station. Red now holds the merchants' friendship marker, three stations.",
             "赤が交易ステーションを設置しました。赤が商人の友好親善マーカーを獲得、交易ステーション3つ。"),
    },
    "star_win_at_the_end_of_the_turn": {
        14: ("Red docks a trade station. Red now holds the merchants' friendship marker, one station.",
             "赤が交易ステーションを設置しました。赤が商人の友好親善マーカーを獲得、交易ステーション1つ。"),
        # blue and white level on 4 VP share second place (session 18; it said "Final order: red, blue and white.")
        15: ("Red wins the game. Blue and white share second place.", "赤の勝ちです。青と白が同点で2位です。"),
    },
    # The card game (issue 9). White arrow: the left neighbour (next seat); black: the right (previous seat).
    "card_expansion_replaces_city_vp": {
        0: None,  # an exchange with the pile is the player's own business
        1: ("The fate card turns to black, pointing right.", "運命カードが裏返りました。黒い矢印、右隣です。"),
        2: ("Robber raid. The fate card turns to white, pointing left.",
            "盗賊の襲撃です。運命カードが裏返りました。白い矢印、左隣です。"),
        3: ("Red draws two.", "赤は2枚引きます。"),
        4: ("Market day.", "市場の日です。"),
        6: None,  # a plain build says nothing
        9: ("Blue wins the game. Final order: blue and red.", "青の勝ちです。順位は青、赤。"),
    },
    "card_steal_skips_protected_neighbour": {
        4: ("Blue draws three.", "青は3枚引きます。"),  # 2 + one A-side knight
        7: ("Red takes a knight from white, A side up. Blue is protected by a church.",
            "赤が白から騎士を取りました。A面で置きます。青は教会で守られています。"),
        9: ("Blue takes a knight from red, B side up.", "青が赤から騎士を取りました。B面で置きます。"),  # white had none
    },
    "card_road_taken_to_the_right_past_a_city_wall": {
        5: ("Red takes a road from blue, B side up. White is protected by a city wall.",
            "赤が青から街道を取りました。B面で置きます。白は城壁で守られています。"),
    },
}


def _game(stem: str):
    record = parse_record(json.loads((SCENARIOS / f"{stem}.json").read_text())["record"])
    return record, replay(record)


@pytest.mark.parametrize("stem", sorted(HEARD))
def test_scenario_outcomes_are_said(stem):
    record, game = _game(stem)
    colors = [p["color"] for p in record.players]
    for index, heard in HEARD[stem].items():
        outcome = game.outcomes[index]
        said = [phrase_for_outcome(outcome, colors, lang) for lang in ("en", "ja")]
        expected = list(heard) if heard else [None, None]  # None: the event says nothing
        assert [p and p.caption for p in said] == expected, f"{stem} event {index} ({outcome.kind})"


def _every_game():
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text())
        if "expect_error" not in data:
            yield path.stem, parse_record(data["record"])
    for path in sorted(GAMES.glob("*.json")):
        yield path.name, load_record(path)


#: The games whose every outcome has its own words (issue 6; Starfarers and the card game: issue 9).  A game
#: added later is still said, with generic words ("the award", "a new phase begins") until it has its own.
VOICED_GAMES = {"base", "base56", "seafarers", "high-tide", "starfarers", "card-game"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_everything_the_rules_publish_has_its_own_words(lang):
    """No outcome of any scenario or example game falls back to a generic clip, and each one renders."""
    clips = library(lang)
    generic = {"phase_other", "award_other", "award_other_get", "award_other_wa", "resource_other", "many",
               "friendship_other"}
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
