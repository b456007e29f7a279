"""Phrase building: every kind of outcome content, said in English and Japanese, from recorded clips only."""

from __future__ import annotations

import json
import wave

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.announce import phrase_for_notice, phrase_for_outcome
from companion.announce.clips import RATE, VOICE_DIR, ClipLibrary
from companion.announce.vocabulary import CLIPS, PAUSES, RESOURCES
from companion.rules.card_game import CardOutcome
from companion.rules.outcome import AwardChange, FloodedHex, Outcome, SunkPiece
from companion.rules.starfarers import StarOutcome

SEATS = ["red", "blue", "white", "orange"]

# (what happened, Outcome fields, English caption, Japanese caption) — captions worked out by hand.
CASES = [
    ("roll with payouts", dict(kind="roll", player=0, dice=(3, 5), payouts={0: {"wool": 2}, 1: {"ore": 1}}),
     "Eight. Red takes two wool. Blue takes one ore.", "8。赤は羊毛2枚、青は鉄1枚。"),
    ("roll producing nothing", dict(kind="roll", player=0, dice=(1, 5)),
     "Six. No production.", "6。産出なし。"),
    ("several resources and a bank shortage",
     dict(kind="roll", player=2, dice=(2, 3), payouts={2: {"lumber": 1, "brick": 1, "grain": 2}}, shortages=("ore",)),
     "Five. White takes one lumber, one brick and two grain. The bank is short of ore.",
     "5。白は木材1枚とレンガ1枚と小麦2枚。銀行の鉄が足りません。"),
    ("shortage of two resources", dict(kind="roll", player=0, dice=(5, 6), shortages=("ore", "wool")),
     "Eleven. No production. The bank is short of ore and wool.", "11。産出なし。銀行の鉄と羊毛が足りません。"),
    ("seven with discards and the robber", dict(kind="roll", player=1, dice=(3, 4), discards_owed={0: 4, 3: 5},
                                                 robber_hexes=((0, 0), (1, 0)), next="discard", next_player=0),
     "Seven. Red discards four. Orange discards five. Blue moves the robber.",
     "7。赤は4枚、オレンジは5枚捨てます。青が盗賊を動かします。"),
    ("seven with robber or pirate", dict(kind="roll", player=3, dice=(6, 1), robber_hexes=((0, 0),),
                                         pirate_hexes=((4, 0),)),
     "Seven. Orange moves the robber or the pirate.", "7。オレンジが盗賊か海賊を動かします。"),
    ("knight: pirate only", dict(kind="play_knight", player=2, pirate_hexes=((4, 0),)),
     "White moves the pirate.", "白が海賊を動かします。"),
    ("robber moved, two to rob", dict(kind="move_robber", player=1, robber_moved=(1, 0), steal_from=(0, 2)),
     "The robber moved. Blue can rob red or white.", "盗賊が移動しました。青は赤か白から奪えます。"),
    ("robber moved, three to rob", dict(kind="move_robber", player=1, robber_moved=(1, 0), steal_from=(0, 2, 3)),
     "The robber moved. Blue can rob red, white or orange.", "盗賊が移動しました。青は赤か白かオレンジから奪えます。"),
    ("robber moved, nobody to rob", dict(kind="move_robber", player=1, robber_moved=(1, 0)),
     "The robber moved. Nobody to rob.", "盗賊が移動しました。奪える相手はいません。"),
    ("pirate moved", dict(kind="move_pirate", player=2, pirate_moved=(3, -1), steal_from=(3,)),
     "The pirate moved. White can rob orange.", "海賊が移動しました。白はオレンジから奪えます。"),
    ("steal seen", dict(kind="steal", player=1, stolen=(0, "ore")),
     "Blue steals ore from red.", "青が赤から鉄を奪いました。"),
    ("steal unseen", dict(kind="steal", player=1, stolen=(0, None)),
     "Blue steals a card from red.", "青が赤からカードを1枚奪いました。"),
    ("longest road changes hands", dict(kind="build", player=1, awards=(AwardChange("longest_road", 0, 1, 6),)),
     "Blue now holds Longest Road, six roads.", "青が最長交易路を獲得、道6本。"),
    ("largest army first taken", dict(kind="play_knight", player=2, awards=(AwardChange("largest_army", None, 2, 3),)),
     "White now holds Largest Army, three knights.", "白が最大騎士力を獲得、騎士3人。"),
    ("longest road set aside", dict(kind="build", player=0, awards=(AwardChange("longest_road", 1, None),)),
     "Longest Road is set aside.", "最長交易路は保留になりました。"),
    ("gold owed", dict(kind="roll", player=3, dice=(4, 5), gold_owed={3: 2}),
     "Nine. Orange picks two from the gold field.", "9。オレンジは金鉱から2枚選びます。"),
    ("High Tide leader and phase", dict(kind="build", player=2, leader=2, phase="dike_round"),
     "White is the new leader. Dike round.", "白がトップになりました。堤防ラウンドです。"),
    ("flood sinks pieces", dict(kind="flood", player=0, flooded=(0, 1),
                                floods=(FloodedHex((0, 1), "mountains", 5),), sunk=(
        SunkPiece(0, "settlement", ((0, 1), (1, 0), (1, 1))), SunkPiece(0, "road", ((0, 1), (1, 0))),
        SunkPiece(0, "road", ((0, 1), (0, 2))), SunkPiece(1, "ship", ((0, 1), (-1, 1))))),
     "The tide floods the five mountains. Red loses a settlement and two roads to the sea. Blue loses a ship to the "
     "sea.",
     "5の山地が浸水しました。赤は開拓地1つと道2本を失いました。青は船1隻を失いました。"),
    ("flood sinks a city and hands on the award", dict(kind="flood", player=2, flooded=(0, 1),
                                                       floods=(FloodedHex((0, 1), "gold", 11),), sunk=(
        SunkPiece(0, "city", ((0, 1), (1, 0), (1, 1))), SunkPiece(0, "settlement", ((0, 2), (1, 1), (1, 2)))),
        awards=(AwardChange("longest_road", 0, 1, 5),)),
     "The tide floods the eleven gold field. Red loses a city and a settlement to the sea. Blue now holds Longest Road, "
     "five roads.",
     "11の金鉱が浸水しました。赤は都市1つと開拓地1つを失いました。青が最長交易路を獲得、道5本。"),
    ("High Tide phases: high tide", dict(kind="end_turn", player=0, phase="high_tide"), "High tide.", "満潮です。"),
    ("High Tide phases: spring tide", dict(kind="end_turn", player=0, phase="spring_tide"),
     "Spring tide.", "大潮です。"),
    ("High Tide end", dict(kind="end_turn", player=0, phase="ended", winner=2, ranking=(2, 0, 1),
                           next="game_over"),
     "The game is over. White wins the game. Final order: white, red and blue.",
     "ゲーム終了です。白の勝ちです。順位は白、赤、青。"),
    ("a phase this version does not know", dict(kind="end_turn", player=0, phase="neap_tide"),
     "A new phase begins.", "新しい局面です。"),
    ("the roller floods even when gold is chosen first",
     dict(kind="roll", player=1, dice=(4, 5), gold_owed={3: 1}, flood_choices=((0, 1),), next="gold",
          next_player=3),
     "Nine. Orange picks one from the gold field. Blue chooses land to flood.",
     "9。オレンジは金鉱から1枚選びます。青が浸水させる土地を選びます。"),
    ("a gold choice does not repeat who else owes one", dict(kind="gold", player=3, payouts={3: {"ore": 1}},
                                                             gold_owed={0: 1}, next="gold", next_player=0),
     "Orange takes one ore.", "オレンジは鉄1枚。"),
    ("the last discard: the roller moves the robber",
     dict(kind="discard", player=0, robber_hexes=((0, 0),), next="move_robber", next_player=2),
     "White moves the robber.", "白が盗賊を動かします。"),
    ("a discard does not repeat who else owes", dict(kind="discard", player=0, discards_owed={3: 4},
                                                     next="discard", next_player=3),
     None, None),
    ("pirate moved, nobody to rob", dict(kind="move_pirate", player=2, pirate_moved=(3, -1)),
     "The pirate moved. Nobody to rob.", "海賊が移動しました。奪える相手はいません。"),
    ("dike held", dict(kind="roll", player=0, dice=(2, 2), payouts={0: {"grain": 1}}, dike_removed=(2, 0)),
     "Four. Red takes one grain. The dike held back the tide, and is removed.",
     "4。赤は小麦1枚。堤防が持ちこたえ、取り除かれました。"),
    ("flood choice owed", dict(kind="roll", player=0, dice=(1, 3), flood_choices=((0, 1), (1, 1)),
                               next="flood", next_player=0),
     "Four. No production. Red chooses land to flood.", "4。産出なし。赤が浸水させる土地を選びます。"),
    ("winner and ranking", dict(kind="build", player=1, winner=1, ranking=(1, 0, 3, 2), next="game_over"),
     "Blue wins the game. Final order: blue, red, orange and white.",
     "青の勝ちです。順位は青、赤、オレンジ、白。"),
    ("forced entry", dict(kind="build", player=0, warnings=("road not connected",)),
     "Recorded against the rules.", "ルール違反として記録しました。"),
    ("counts past the recorded range", dict(kind="roll", player=0, dice=(3, 4), discards_owed={0: 31}),
     "Seven. Red discards many.", "7。赤はたくさん捨てます。"),
]


@pytest.mark.parametrize("what, fields, english, japanese", CASES, ids=[c[0] for c in CASES])
def test_outcome_is_said_in_both_languages(what, fields, english, japanese):
    outcome = Outcome(index=7, **fields)
    said = [phrase_for_outcome(outcome, SEATS, lang) for lang in ("en", "ja")]
    assert [p and p.caption for p in said] == [english, japanese]


# Starfarers and the card game (issue 9): what the scenario records (test_announce_scenarios.py) do not reach.
STAR_AND_CARD_CASES = [
    ("a spaceport built in play", StarOutcome, dict(kind="build", player=1, spaceport=((3, 0), (4, 0)), vp={1: 6}),
     "Blue builds a spaceport.", "青が宇宙港を建設しました。"),
    ("a spaceport placed in the set-up", StarOutcome, dict(kind="setup_spaceport", player=1,
                                                           spaceport=((3, 0), (4, 0))), None, None),
    ("a pirate base defeated", StarOutcome, dict(kind="defeat_pirate", player=2, conquered=("pirate", (7, 0)),
                                                 vp={2: 7}),
     "White defeats a pirate base.", "白が海賊基地を撃退しました。"),
    ("two half-medals lost, a medal broken", StarOutcome, dict(kind="encounter", player=3, half_medals={3: -2},
                                                              vp={3: 8}),
     "Orange loses two half-medals. Orange now has eight points.",
     "オレンジはハーフメダル2枚を失いました。オレンジは8点になりました。"),
    ("the 7 when nobody returns: the roller steals", StarOutcome,
     dict(kind="roll", player=0, dice=(6, 1), steal_from=(1, 3), next="steal", next_player=0),
     "Seven. Red can rob blue or orange.", "7。赤は青かオレンジから奪えます。"),
    ("a steal seen, Starfarers' ore", StarOutcome, dict(kind="steal", player=1, stolen=(0, "ore")),
     "Blue steals ore from red.", "青が赤から鉱石を奪いました。"),
    ("friendship of another race, the green folk", StarOutcome, dict(
        kind="trade_station", player=3, station=(4, -5), awards=(
            AwardChange("friendship_green_folk", None, 3, 1), AwardChange("friendship_diplomats", 0, 2, 2))),
     "Orange docks a trade station. Orange now holds the green folk's friendship marker, one station. "
     "White now holds a friendship marker, two stations.",
     "オレンジが交易ステーションを設置しました。オレンジが緑の民の友好親善マーカーを獲得、交易ステーション1つ。"
     "白が友好親善マーカーを獲得、交易ステーション2つ。"),
    ("a friendship marker set aside", StarOutcome, dict(kind="note", awards=(
        AwardChange("friendship_travelers", 1, None),)),
     "The travelers' friendship marker is set aside.", "旅人の友好親善マーカーは保留になりました。"),
    ("the black ball with the last seat rolling", StarOutcome, dict(kind="shake", player=3, balls=("red", "black"),
                                                                    speed=3, movement=4, encounter=True),
     "Red and black. Speed three, four with boosters. Encounter. Red reads the card.",
     "赤と黒。移動力3、動力炉込みで4。遭遇です。赤がカードを読みます。"),
    ("an exchange with the pile is quiet", CardOutcome, dict(kind="exchange", player=0, draws={0: 1},
                                                             exchanges_left=0), None, None),
    ("a draw that empties the pile", CardOutcome, dict(kind="end_turn", player=2, draws={2: 4}, reshuffled=True),
     "White draws four. The discards are shuffled into a new draw pile.", "白は4枚引きます。捨て札を切り直しました。"),
    ("a road taken past a player without one and a church", CardOutcome, dict(
        kind="build", player=0, side="A", taken={"piece": "road", "from": 3, "side": "A"},
        skipped=((1, "none"), (2, "church"))),
     "Red takes a road from orange, A side up. White is protected by a church.",
     "赤がオレンジから街道を取りました。A面で置きます。白は教会で守られています。"),
    ("a card's text flips the fate card", CardOutcome, dict(kind="flip_fate", player=1, fate="white"),
     "The fate card turns to white, pointing left.", "運命カードが裏返りました。白い矢印、左隣です。"),
]


@pytest.mark.parametrize("what, kind, fields, english, japanese", STAR_AND_CARD_CASES,
                         ids=[c[0] for c in STAR_AND_CARD_CASES])
def test_starfarers_and_card_game_outcomes_are_said(what, kind, fields, english, japanese):
    outcome = kind.make(index=9, **fields)
    said = [phrase_for_outcome(outcome, SEATS, lang) for lang in ("en", "ja")]
    assert [p and p.caption for p in said] == [english, japanese]


def test_quiet_events_say_nothing():
    assert phrase_for_outcome(Outcome(index=3, kind="build", player=0, next="main"), SEATS, "en") is None
    assert phrase_for_outcome(Outcome(index=3, kind="end_turn", player=0, next="roll"), SEATS, "ja") is None


@pytest.mark.parametrize("notice, english, japanese", [
    ("box_disconnected", "Dice box unplugged.", "ダイスボックスが外れました。"),
    ("box_reconnected", "Dice box connected.", "ダイスボックスがつながりました。"),
    ("camera_lost", "Camera lost.", "カメラが切れました。"),
    ("camera_back", "Camera back.", "カメラがつながりました。"),
    ("camera_reroll", "Please roll again.", "もう一度振ってください。"),
])
def test_device_notices(notice, english, japanese):
    assert phrase_for_notice(notice, "en").caption == english
    assert phrase_for_notice(notice, "ja").caption == japanese


@pytest.mark.parametrize("reason, params, english, japanese", [
    ("cocked", {}, "Please roll again. A die is cocked.", "もう一度振ってください。ダイスが傾いています。"),
    ("crooked_dice", {}, "Please roll again. A die is cocked.", "もう一度振ってください。ダイスが傾いています。"),
    ("count", {"seen": 3, "expected": 2}, "Please roll again. Three dice seen.",
     "もう一度振ってください。ダイスが3個見えます。"),
    ("count", {"seen": 1, "expected": 2}, "Please roll again. Only one die seen.",
     "もう一度振ってください。ダイスが1個しか見えません。"),
    ("count", {"seen": 9, "expected": 2}, "Please roll again. Too many dice seen.",
     "もう一度振ってください。ダイスが多すぎます。"),
    ("count", {"seen": 2, "expected": 3}, "Please roll again.", "もう一度振ってください。"),  # no words for it
    ("unreadable", {"count": 1}, "Please roll again. A die cannot be read.",
     "もう一度振ってください。読めないダイスがあります。"),
    ("unreadable", {"count": 2}, "Please roll again. The dice cannot be read.",
     "もう一度振ってください。ダイスが読めません。"),
    ("", {}, "Please roll again.", "もう一度振ってください。"),
])
def test_a_request_to_roll_again_says_why(reason, params, english, japanese):
    """The table hears whether to straighten a die, take a spare one out or roll where the camera sees."""
    from companion.announce.phrases import phrase_for_reroll

    for lang, caption in (("en", english), ("ja", japanese)):
        phrase = phrase_for_reroll(reason, params, lang)
        assert phrase.caption == caption
        ClipLibrary(lang).render(phrase.tokens)  # every word has its clip


@pytest.mark.parametrize("call, message", [
    (lambda: phrase_for_outcome(Outcome(0, "roll", 0, (1, 1)), ["red", "purple"], "en"), "player 1.*purple"),
    (lambda: phrase_for_outcome(Outcome(12, "steal", 0, stolen=(5, None)), SEATS, "en"), "event 12.*player 5"),
    (lambda: phrase_for_outcome(Outcome(0, "roll", 0, (1, 1)), SEATS, "fr"), "language.*'fr'"),
    (lambda: phrase_for_notice("box_exploded", "en"), "notice.*box_exploded"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()


seat = st.integers(0, len(SEATS) - 1)
count = st.integers(0, 40)
hexes = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=3).map(tuple)
resource = st.sampled_from(RESOURCES + ("mystery",))
terrain = st.sampled_from(("forest", "hills", "pasture", "fields", "mountains", "gold", "desert", "sea", "mystery"))
outcomes = st.builds(
    Outcome, index=st.integers(0, 500),
    kind=st.sampled_from(["roll", "build", "move_robber", "move_pirate", "steal", "flood", "discard", "gold",
                          "end_turn"]),
    player=st.none() | seat, dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    payouts=st.dictionaries(seat, st.dictionaries(resource, count, max_size=3), max_size=4),
    shortages=st.lists(resource, max_size=2).map(tuple),
    gold_owed=st.dictionaries(seat, count, max_size=2), discards_owed=st.dictionaries(seat, count, max_size=4),
    robber_hexes=hexes, pirate_hexes=hexes, steal_from=st.lists(seat, max_size=3, unique=True).map(tuple),
    robber_moved=st.none() | st.tuples(st.integers(), st.integers()),
    stolen=st.none() | st.tuples(seat, st.none() | resource),
    awards=st.lists(st.builds(AwardChange, st.sampled_from(["longest_road", "largest_army", "other"]),
                              st.none() | seat, st.none() | seat, count), max_size=2).map(tuple),
    leader=st.none() | seat, phase=st.none() | st.sampled_from(["dike_round", "high_tide", "something_new"]),
    flooded=st.none() | st.just((0, 0)),
    floods=st.lists(st.builds(FloodedHex, st.just((0, 0)), terrain, st.none() | st.integers(0, 40),
                              st.none() | st.tuples(terrain, st.none() | st.integers(0, 40))), max_size=3).map(tuple),
    sunk=st.lists(st.builds(
        SunkPiece, seat, st.sampled_from(["road", "ship", "settlement", "city"]), st.just(())), max_size=5).map(tuple),
    winner=st.none() | seat, ranking=st.lists(seat, max_size=4, unique=True).map(tuple),
    pirate_moved=st.none() | st.tuples(st.integers(), st.integers()), dike_removed=st.none() | st.just((1, 0)),
    flood_choices=hexes, warnings=st.lists(st.just("forced"), max_size=1).map(tuple),
    next=st.sampled_from(["", "roll", "discard", "move_robber", "flood", "gold", "main"]), next_player=st.none() | seat)


star_outcomes = st.builds(
    lambda base, **extra: StarOutcome.make(**{**base.__dict__, **extra}), outcomes,
    supply_draws=st.dictionaries(seat, count, max_size=4), refills=st.none() | st.integers(0, 2),
    balls=st.lists(st.sampled_from(["yellow", "red", "blue", "black"]), max_size=2).map(tuple),
    speed=st.none() | st.integers(0, 6), movement=st.none() | st.integers(0, 12), encounter=st.none() | st.booleans(),
    half_medals=st.dictionaries(seat, st.integers(-3, 3), max_size=2), vp=st.dictionaries(seat, count, max_size=4),
    founded=st.none() | st.just(((0, 0), (1, 0))), spaceport=st.none() | st.just(((0, 0), (1, 0))),
    station=st.none() | st.just((0, -3)), conquered=st.none() | st.tuples(st.sampled_from(["pirate", "ice"]),
                                                                            st.just((6, 0))),
    awards=st.lists(st.builds(AwardChange, st.sampled_from(["friendship_merchants", "friendship_unknown"]),
                              st.none() | seat, st.none() | seat, count), max_size=2).map(tuple))
card_outcomes = st.builds(
    lambda base, **extra: CardOutcome.make(**{**base.__dict__, **extra}), outcomes,
    side=st.none() | st.sampled_from(["A", "B"]),
    taken=st.just({}) | st.fixed_dictionaries({"piece": st.sampled_from(["road", "knight"]), "from": seat,
                                               "side": st.sampled_from(["A", "B"])}),
    skipped=st.lists(st.tuples(seat, st.sampled_from(["none", "church", "city_wall"])), max_size=2).map(tuple),
    fate=st.none() | st.sampled_from(["white", "black"]), city_face=st.none() | st.sampled_from(
        ["robber_raid", "market_day"]), draws=st.dictionaries(seat, count, max_size=2),
    reshuffled=st.none() | st.booleans())


@settings(max_examples=300, deadline=None)
@given(outcomes | star_outcomes | card_outcomes, st.sampled_from(["en", "ja"]))
def test_every_phrase_is_made_of_recorded_clips(outcome, lang):
    phrase = phrase_for_outcome(outcome, SEATS, lang)
    if phrase is None:
        return
    pauses = PAUSES[lang]
    assert all(t in CLIPS[lang] or t in pauses for t in phrase.tokens)
    assert phrase.tokens[0] not in pauses and phrase.tokens[-1] in pauses  # starts with a word, ends a sentence
    assert not any(a in pauses and b in pauses for a, b in zip(phrase.tokens, phrase.tokens[1:]))
    receivers = [s for s, got in outcome.payouts.items() if any(got.values())]
    receivers += [s for s, n in getattr(outcome, "supply_draws", {}).items() if n]  # Starfarers
    if outcome.kind != "exchange":
        receivers += [s for s, n in getattr(outcome, "draws", {}).items() if n]  # the card game
    for seat_index in receivers:  # whoever receives something hears their colour
        assert CLIPS[lang][SEATS[seat_index]][1] in phrase.caption.lower()
    if outcome.dice:  # a roll is said number first
        assert phrase.tokens[0] == f"roll{outcome.number}"
    if outcome.winner is not None:
        assert CLIPS[lang]["wins"][1] in phrase.caption


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rendered_clips_match_the_vocabulary(lang):
    manifest = json.loads((VOICE_DIR / lang / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["rate"] == RATE
    assert set(manifest["clips"]) == set(CLIPS[lang]), "re-run tools/render_voice.py"
    for key, (spoken, _) in CLIPS[lang].items():
        entry = manifest["clips"][key]
        assert entry["text"] == spoken, f"{lang}/{key} was rendered from other text; re-run tools/render_voice.py"
        with wave.open(str(VOICE_DIR / lang / entry["file"]), "rb") as clip:
            assert (clip.getnchannels(), clip.getsampwidth(), clip.getframerate()) == (1, 2, RATE)
            assert clip.getnframes() == entry["frames"]
            assert 0.1 < clip.getnframes() / RATE < 3.0, f"{lang}/{key}: implausible length"


def test_phrase_audio_is_its_clips_back_to_back():
    clips = ClipLibrary("en")
    phrase = phrase_for_outcome(Outcome(0, "roll", 0, (3, 5), payouts={0: {"wool": 2}}), SEATS, "en")
    audio = clips.render(phrase.tokens)
    assert phrase.tokens == ("roll8", ".", "red", "takes", "n2", "wool", ".")
    assert len(audio) == sum(len(clips.samples(t)) for t in phrase.tokens)
    assert (audio[:len(clips.samples("roll8"))] == clips.samples("roll8")).all()


def test_a_missing_clip_set_is_named(tmp_path):
    from companion.announce import ClipError
    with pytest.raises(ClipError, match="manifest"):
        ClipLibrary("en", tmp_path)


def test_a_roll_the_camera_read_is_said_with_its_faces_lowest_first():
    """For a camera's roll the table hears the faces after the number, so a misread is caught against the dice
    without looking at the screen; other rolls, and other events, are said as before."""
    roll = Outcome(index=7, kind="roll", player=0, dice=(5, 3), payouts={0: {"lumber": 1}})
    said = [phrase_for_outcome(roll, SEATS, lang, faces=True) for lang in ("en", "ja")]
    assert [p.caption for p in said] == ["Eight. Three and five. Red takes one lumber.", "8。3と5。赤は木材1枚。"]
    assert said[0].tokens[:6] == ("roll8", ".", "n3", "and", "n5", ".")
    plain = phrase_for_outcome(roll, SEATS, "en")
    assert plain.caption == "Eight. Red takes one lumber."
    build = Outcome(index=3, kind="build", player=1, winner=1, ranking=(1, 0), next="game_over")
    assert phrase_for_outcome(build, SEATS, "en", faces=True) == phrase_for_outcome(build, SEATS, "en")


def test_a_roll_put_right_says_first_what_the_wrong_one_paid_so_it_goes_back():
    """A roll entered in the place of one read or tapped wrong: the table had handed out that one's cards, so the
    players hear who gives what back before the roll itself; every word has its recorded clip."""
    roll = Outcome(index=7, kind="roll", player=0, dice=(5, 3), payouts={0: {"lumber": 1}})
    paid = {0: {"ore": 1}, 2: {"wool": 2, "grain": 1}}
    said = [phrase_for_outcome(roll, SEATS, lang, faces=True, given_back=paid) for lang in ("en", "ja")]
    assert [p.caption for p in said] == [
        "Red gives back one ore. White gives back two wool and one grain. Eight. Three and five. Red takes one lumber.",
        "赤は鉄1枚、白は羊毛2枚と小麦1枚戻します。8。3と5。赤は木材1枚。"]
    for lang, phrase in zip(("en", "ja"), said):
        ClipLibrary(lang).render(phrase.tokens)  # raises for a word without its clip
    assert phrase_for_outcome(roll, SEATS, "en", given_back={}) == phrase_for_outcome(roll, SEATS, "en")


def test_a_camera_reading_waiting_for_ok_is_said_as_its_faces():
    from companion.announce.phrases import phrase_for_reading

    said = [phrase_for_reading((5, 3), lang) for lang in ("en", "ja")]
    assert [p.caption for p in said] == ["Three and five.", "3と5。"]
    for lang, phrase in zip(("en", "ja"), said):
        ClipLibrary(lang).render(phrase.tokens)  # every word has its clip
