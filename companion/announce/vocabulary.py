"""Every clip the announcer can say, per language: key → (text given to the speech engine, caption).

Announcements are sequences of these keys, so every word spoken at the table was rendered in
advance (``tools/render_voice.py`` turns this table into ``companion/assets/voice/<lang>/``); no speech
engine runs on the tablet.  The caption is what the screen shows for the clip; it differs from the
spoken text only where the engine needs punctuation for the right intonation ("Eight." is spoken,
"Eight" is shown and the pause after it shows the full stop).

Pauses are not recorded: they are silence of a fixed length (:data:`PAUSES`), made at load time.
"""

from __future__ import annotations

from ..own_words import OWN_WORDS, own_word  # noqa: F401  (a game's own words: their keys are clips here)

LANGUAGES = ("en", "ja")
COLORS = ("red", "blue", "white", "orange", "green", "brown")
RESOURCES = ("lumber", "brick", "wool", "grain", "ore", "fuel", "carbon", "food", "trade_goods")

#: Pause tokens: key → (milliseconds of silence, caption).
PAUSES: dict[str, dict[str, tuple[int, str]]] = {
    "en": {",": (180, ","), ".": (320, ".")},
    "ja": {"、": (180, "、"), "。": (320, "。")},
}

#: High Tide phases (``Outcome.phase``, see companion/rules/high_tide.py) → clip key.
PHASES = {"dike_round": "phase_dike_round", "high_tide": "phase_high_tide", "spring_tide": "phase_spring_tide",
          "ended": "phase_ended"}

#: Land the High Tide can flood (a hex with a number: never the desert) -> its clip, ``terrain_<name>``
#: (``FloodedHex.terrain``; the words are the screen's, companion/ui/i18n.py).
FLOOD_TERRAINS = ("forest", "hills", "pasture", "fields", "mountains", "gold")
#: What a flooded hex can be told apart by (``FloodedHex.beside``: "the 5 mountains next to the desert"): any
#: terrain a neighbour can have.
LANDMARK_TERRAINS = (*FLOOD_TERRAINS, "desert", "sea")

#: Starfarers alien races with their own words (``friendship_<alien>`` awards); another race is said as
#: "a friendship marker" / 友好親善マーカー without its name.
ALIENS = ("merchants", "scientists", "travelers", "green_folk")

#: Mothership balls → clip key (red and blue are the players' colour words).
BALLS = {"yellow": "ball_yellow", "red": "red", "blue": "blue", "black": "ball_black"}

#: Highest count that has its own clip; larger counts are said as "many" (they do not occur in play).
MAX_COUNT = 30

_EN_NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
               "sixteen seventeen eighteen nineteen twenty").split()


def _english_number(n: int) -> str:
    if n <= 20:
        return _EN_NUMBERS[n]
    return "twenty-" + _EN_NUMBERS[n - 20] if n < 30 else "thirty"


def _english() -> dict[str, tuple[str, str]]:
    v: dict[str, tuple[str, str]] = {}
    for n in range(MAX_COUNT + 1):
        word = _english_number(n)
        v[f"n{n}"] = (word, word)
    v["many"] = ("many", "many")
    for n in range(2, 13):
        word = _english_number(n).capitalize()
        v[f"roll{n}"] = (word + ".", word)
    for color in COLORS:
        v[color] = (color.capitalize(), color)
    for resource in RESOURCES:
        word = resource.replace("_", " ")
        v[resource] = (word, word)
    v["resource_other"] = ("other goods", "other goods")
    words = {
        "and": "and", "or": "or", "from": "from",
        "takes": "takes", "gives_back": "gives back", "no_production": "No production",
        "bank_short": "The bank is short of",
        "discards": "discards",
        "moves_robber": "moves the robber", "moves_pirate": "moves the pirate",
        "moves_robber_or_pirate": "moves the robber or the pirate",
        "robber_moved": "The robber moved", "pirate_moved": "The pirate moved",
        "can_rob": "can rob", "nobody_to_rob": "Nobody to rob",
        "steals": "steals", "steals_a_card_from": "steals a card from",
        "now_holds": "now holds", "is_set_aside": "is set aside",
        "longest_road": "Longest Road", "largest_army": "Largest Army",
        "longest_trade_route": "Longest Trade Route", "award_other": "The award",
        "road": "road", "roads": "roads", "knight": "knight", "knights": "knights",
        "picks": "picks", "from_gold": "from the gold field",
        "is_leader": "is the new leader",
        "phase_dike_round": "Dike round", "phase_high_tide": "High tide", "phase_spring_tide": "Spring tide",
        "phase_ended": "The game is over",
        "phase_other": "A new phase begins",
        "tide_floods": "The tide floods the land",
        "tide_floods_the": "The tide floods the",
        "terrain_forest": "forest", "terrain_hills": "hills", "terrain_pasture": "pasture",
        "terrain_fields": "fields", "terrain_mountains": "mountains", "terrain_gold": "gold field",
        "terrain_desert": "desert", "terrain_sea": "sea", "the": "the", "next_to_the": "next to the",
        "dike_held": "The dike held back the tide, and is removed",
        "the_dike_on_the": "The dike on the", "the_dikes_on_the": "The dikes on the",
        "held_back_the_tide": "held back the tide, and is removed",
        "held_back_the_tide_many": "held back the tide, and are removed",
        "chooses_flood": "chooses land to flood",
        "loses": "loses", "to_the_sea": "to the sea",
        "a_road": "a road", "a_ship": "a ship", "a_settlement": "a settlement", "a_city": "a city",
        "ships": "ships", "settlements": "settlements", "cities": "cities",
        "wins": "wins the game", "share_the_win": "share the win",
        "forced_note": "Recorded against the rules",
        "box_disconnected": "Dice box unplugged", "box_reconnected": "Dice box connected",
        "camera_lost": "Camera lost", "camera_back": "Camera back",
        "camera_reroll": "Please roll again",
        # the tournament's round clock (the desk's warnings, companion/tournament/clock.py)
        "clock_10": "Ten minutes left in the round", "clock_5": "Five minutes left in the round",
        "clock_1": "One minute left in the round", "clock_time_up": "Time is up",
        # why (the camera's re-roll reasons, vision.rolls.RollEvent.reason_code)
        "reroll_cocked": "A die is cocked", "reroll_unreadable": "A die cannot be read",
        "reroll_unreadable_all": "The dice cannot be read",
        "reroll_seen_1": "Only one die seen", "reroll_seen_3": "Three dice seen", "reroll_seen_4": "Four dice seen",
        "reroll_seen_5": "Five dice seen", "reroll_seen_6": "Six dice seen", "reroll_seen_many": "Too many dice seen",
    }
    for key, text in words.items():
        v[key] = (text, text)
    v["final_order"] = ("Final order", "Final order:")
    v.update(_english_starfarers_and_card_game())
    return v


def _english_starfarers_and_card_game() -> dict[str, tuple[str, str]]:
    """Issue 9: the words Starfarers and the card game add."""
    v: dict[str, tuple[str, str]] = {}
    words = {
        # Starfarers: the 7, supply draws, the mothership, flights, medals
        "returns": "returns", "draws": "draws", "from_the_supply": "from the supply",
        "supply_refilled": "The supply pile is refilled",
        "ball_yellow": "yellow", "ball_black": "black",
        "speed": "speed", "with_boosters": "with boosters",
        "reads_the_card": "reads the card",
        "founds_a_colony": "founds a colony", "builds_a_spaceport": "builds a spaceport",
        "docks_a_trade_station": "docks a trade station",
        "defeats_a_pirate_base": "defeats a pirate base", "terraforms_an_ice_planet": "terraforms an ice planet",
        "gains": "gains", "a_half_medal": "a half-medal", "half_medals": "half-medals",
        "now_has": "now has", "point": "point", "points": "points",
        "station": "station", "stations": "stations",
        "friendship_other": "a friendship marker",
        # the card game: the fate card, cities, cards taken from a neighbour, the draw
        "fate_turns": "The fate card turns to",
        "fate_black": "black, pointing right", "fate_white": "white, pointing left",
        "robber_raid": "Robber raid", "market_day": "Market day",
        "a_knight": "a knight", "side_b": "B side up",
        "is_protected_by": "is protected by", "a_church": "a church", "a_city_wall": "a city wall",
        "discards_reshuffled": "The discards are shuffled into a new draw pile",
    }
    for key, text in words.items():
        v[key] = (text, text)
    v["encounter"] = ("Encounter!", "Encounter")
    v["side_a"] = ("A-side up", "A side up")  # unhyphenated, the engine reads "a side up"
    for alien, owners in (("merchants", "merchants'"), ("scientists", "scientists'"), ("travelers", "travelers'"),
                          ("green_folk", "green folk's")):
        text = f"the {owners} friendship marker"
        v[f"friendship_{alien}"] = (text, text)
    return v


_JA_COLORS = {"red": "赤", "blue": "青", "white": "白", "orange": "オレンジ", "green": "緑", "brown": "茶色"}
_JA_RESOURCES = {"lumber": "木材", "brick": "レンガ", "wool": "羊毛", "grain": "小麦", "ore": "鉄",
                 "fuel": "燃料", "carbon": "炭素", "food": "食料", "trade_goods": "交易品"}
#: Japanese counters: key prefix → (counter, highest count with a clip).
JA_COUNTERS = {"mai": ("枚", MAX_COUNT), "hon": ("本", 15), "nin": ("人", 15), "seki": ("隻", 15),
               "tsu": ("つ", 9), "ten": ("点", 20)}
#: Alien races in Japanese: our own translations (the seed does not name them); spoken text first where the
#: engine needs kana for the reading (民 alone is read ミン).
_JA_ALIENS = {"merchants": ("商人の", "商人の"), "scientists": ("科学者の", "科学者の"),
              "travelers": ("旅人の", "旅人の"), "green_folk": ("緑のたみの", "緑の民の")}


def _japanese() -> dict[str, tuple[str, str]]:
    v: dict[str, tuple[str, str]] = {}
    for n in range(MAX_COUNT + 1):
        v[f"n{n}"] = (str(n), str(n))
    v["many"] = ("たくさん", "たくさん")
    for n in range(2, 13):
        v[f"roll{n}"] = (f"{n}。", str(n))
    for prefix, (counter, top) in JA_COUNTERS.items():
        for n in range(1, top + 1):
            v[f"{prefix}{n}"] = (f"{n}{counter}", f"{n}{counter}")
    for color, word in _JA_COLORS.items():
        v[color] = (word, word)
        for particle, suffix in (("wa", "は"), ("ga", "が"), ("no", "の")):
            v[f"{color}_{particle}"] = (word + suffix, word + suffix)
    for resource, word in _JA_RESOURCES.items():
        v[resource] = (word, word)
    v["resource_other"] = ("資源", "資源")
    # A particle on its own, after a player's recorded name (「<name>は」); spoken as it sounds (は is read わ).
    for particle, (spoken, caption) in {"wa": ("わ", "は"), "ga": ("が", "が"), "no": ("の", "の")}.items():
        v[f"particle_{particle}"] = (spoken, caption)
    words = {
        "and": "と", "or": "か", "from": "から",
        "no_production": "産出なし",
        "bank_no": "銀行の", "short": "が足りません",
        "discard": "捨てます",
        "moves_robber": "盗賊を動かします", "moves_pirate": "海賊を動かします",
        "moves_robber_or_pirate": "盗賊か海賊を動かします",
        "robber_moved": "盗賊が移動しました", "pirate_moved": "海賊が移動しました",
        "can_rob_from": "から奪えます", "nobody_to_rob": "奪える相手はいません",
        "stole": "を奪いました", "stole_a_card": "カードを1枚奪いました",
        "longest_road_get": "最長交易路を獲得", "largest_army_get": "最大騎士力を獲得",
        "award_other_get": "特別賞を獲得",
        "longest_road_wa": "最長交易路は", "largest_army_wa": "最大騎士力は", "award_other_wa": "特別賞は",
        "set_aside": "保留になりました",
        "road": "道", "knight": "騎士", "ship": "船", "settlement": "開拓地", "city": "都市",
        "from_gold": "金鉱から", "choose": "選びます",
        "is_leader": "トップになりました",
        "phase_dike_round": "堤防ラウンドです", "phase_high_tide": "満潮です", "phase_spring_tide": "大潮です",
        "phase_ended": "ゲーム終了です",
        "phase_other": "新しい局面です",
        "tide_floods": "土地が浸水しました",
        "ga_flooded": "が浸水しました",
        "terrain_forest": "森林", "terrain_hills": "丘陵", "terrain_pasture": "牧草地",
        "terrain_fields": "畑", "terrain_mountains": "山地", "terrain_gold": "金鉱",
        "terrain_desert": "砂漠", "terrain_sea": "海", "no_tonari_no": "の隣の",
        "dike_held": "堤防が持ちこたえ、取り除かれました",
        "no_dike_held": "の堤防が持ちこたえ、取り除かれました",
        "chooses_flood": "浸水させる土地を選びます",
        "lost": "を失いました",
        "wins": "勝ちです", "share_the_win": "同点で勝ちです", "final_order": "順位は",
        "forced_note": "ルール違反として記録しました",
        "box_disconnected": "ダイスボックスが外れました", "box_reconnected": "ダイスボックスがつながりました",
        "camera_lost": "カメラが切れました", "camera_back": "カメラがつながりました",
        "camera_reroll": "もう一度振ってください",
        "clock_10": "ラウンド終了まであと10分です", "clock_5": "ラウンド終了まであと5分です",
        "clock_1": "ラウンド終了まであと1分です", "clock_time_up": "時間です",
        "reroll_cocked": "ダイスが傾いています", "reroll_unreadable": "読めないダイスがあります",
        "reroll_unreadable_all": "ダイスが読めません",
        "reroll_seen_1": "ダイスが1個しか見えません", "reroll_seen_3": "ダイスが3個見えます",
        "reroll_seen_4": "ダイスが4個見えます", "reroll_seen_5": "ダイスが5個見えます", "reroll_seen_6": "ダイスが6個見えます",
        "reroll_seen_many": "ダイスが多すぎます",
    }
    for key, text in words.items():
        v[key] = (text, text)
    v.update(_japanese_starfarers_and_card_game())
    return v


def _japanese_starfarers_and_card_game() -> dict[str, tuple[str, str]]:
    """Issue 9, in the seeds' terms (補充用の山札, 母船, 動力炉, 遭遇, 友好親善マーカー, 運命カード, 街道...)."""
    v: dict[str, tuple[str, str]] = {}
    words = {
        # Starfarers
        "ore_koseki": "鉱石",  # Starfarers' and the card game's word (OWN_WORDS); the base game says 鉄
        "return": "戻します", "supply_from": "補充の山から", "draw": "引きます",
        "supply_refilled": "補充の山を作り直しました",
        "ball_yellow": "黄色", "ball_black": "黒",
        "speed": "移動力", "with_boosters": "動力炉込みで",
        "encounter": "遭遇です", "reads_the_card": "カードを読みます",
        "founded_colony": "コロニーを設置しました", "docked_station": "交易ステーションを設置しました",
        "defeated_pirate": "海賊基地を撃退しました", "terraformed_ice": "氷の惑星を地球化しました",
        "half_medal": "ハーフメダル", "gained": "を獲得しました", "became": "になりました",
        "friendship_get": "友好親善マーカーを獲得", "friendship_wa": "友好親善マーカーは",
        "trade_station": "交易ステーション",
        # the card game
        "fate_turned": "運命カードが裏返りました",
        "fate_black": "黒い矢印、右隣です", "fate_white": "白い矢印、左隣です",
        "robber_raid": "盗賊の襲撃です",
        "kaido": "街道", "took": "を取りました",
        "side_a": "A面で置きます", "side_b": "B面で置きます",
        "protected_church": "教会で守られています", "protected_city_wall": "城壁で守られています",
        "discards_reshuffled": "捨て札を切り直しました",
    }
    for key, text in words.items():
        v[key] = (text, text)
    # Readings the engine gets wrong from kanji alone: 宇宙港 (ウチューミナト), 市場の日 (シジョー; the card is いちば).
    v["built_spaceport"] = ("うちゅうこうを建設しました", "宇宙港を建設しました")
    v["market_day"] = ("いちばの日です", "市場の日です")
    for alien, (spoken, caption) in _JA_ALIENS.items():
        v[f"alien_{alien}"] = (spoken, caption)
    return v


def _bought_and_traded() -> dict[str, dict[str, tuple[str, str]]]:
    """Issue 25: a card bought and a trade made are said, not only shown: "Red buys a development card." /
    "Red trades two wool to the bank for one ore."; 「赤は発展カードを買いました。」/「赤は青と羊毛1枚を鉄1枚に交換しました。」"""
    english = {"buys_a_development_card": "buys a development card", "trades": "trades", "to": "to",
               "to_the_bank": "to the bank", "for": "for"}
    japanese = {"bought_a_development_card": "発展カードを買いました", "traded": "交易しました",
                "with_the_bank": "銀行と", "wo": "を", "exchanged_for": "に交換しました"}
    return {"en": {key: (text, text) for key, text in english.items()},
            "ja": {key: (text, text) for key, text in japanese.items()}}


def _places() -> dict[str, dict[str, tuple[str, str]]]:
    """Session 18: the places at a game's end as they are when players are level (``Outcome.places``): "Blue and
    white share second place. Orange is fourth." / 「青と白が同点で2位です。オレンジは4位です。」 -- a place held
    alone up to the sixth, a shared one up to the fifth (six players at most)."""
    ordinals = ("first", "second", "third", "fourth", "fifth", "sixth")
    english = {f"is_place_{n}": f"is {word}" for n, word in enumerate(ordinals, 1)}
    english.update({f"share_place_{n}": f"share {word} place" for n, word in enumerate(ordinals[:5], 1)})
    japanese = {f"place_{n}": f"{n}位です" for n in range(1, 7)}
    japanese.update({f"share_place_{n}": f"同点で{n}位です" for n in range(1, 6)})
    return {"en": {key: (text, text) for key, text in english.items()},
            "ja": {key: (text, text) for key, text in japanese.items()}}


#: The most pieces one tap of Check the board's "Add the N sure ones" is said with as a number (``n40``... for the
#: tens): a larger batch is said "Over a hundred pieces recorded." / 「100件以上を記録しました。」.
MAX_BATCH = 99


def _batch() -> dict[str, dict[str, tuple[str, str]]]:
    """Session 18: Check the board's "Add the N sure ones" said in one short line (it recorded in silence):
    "Forty eight pieces recorded. Four not recorded." / 「48件を記録しました。4件は記録していません。」 -- 件 as the
    screen counts its rows (確かな52件), a count past 30 said as its tens and its units ("forty" + "eight"; 「40」 +
    「8件」 from 11 on: the counter's sound change, ろっけん, is in the units' clip, and 10-90件 have their own:
    じゅっけん)."""
    tens = {40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety"}
    english = {f"n{n}": word for n, word in tens.items()}
    english.update({"piece_recorded": "piece recorded", "pieces_recorded": "pieces recorded",
                    "not_recorded": "not recorded", "over_a_hundred": "over a hundred"})
    japanese = {f"ken{n}": f"{n}件" for n in (*range(1, 10), *range(10, 100, 10))}
    japanese.update({"ken_over_100": "100件以上", "wo_recorded": "を記録しました", "wa_not_recorded": "は記録していません"})
    ja = {key: (text, text) for key, text in japanese.items()}
    # the tens before a unit's clip: spoken 「40」 (よんじゅう), written 「4」 so that the caption reads 「48件」
    ja.update({f"tens{k}": (str(10 * k), str(k)) for k in range(1, 10)})
    return {"en": {key: (text, text) for key, text in english.items()}, "ja": ja}


#: language → clip key → (spoken text, caption)
CLIPS: dict[str, dict[str, tuple[str, str]]] = {"en": _english(), "ja": _japanese()}
for _lang, _words in (*_bought_and_traded().items(), *_places().items(), *_batch().items()):
    CLIPS[_lang].update(_words)
