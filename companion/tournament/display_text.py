"""The live display's words in the event's language (the floor setting ``language``: ``en`` or ``ja``).

Only words: the numbers, names and the clock's digits are the same in both. The built-in presets' titles are
said in Japanese on a Japanese display (an organiser's own title stays as typed); the Japanese for the standings'
columns follows the Japanese championship's own words where it has them (勝利数, 勝利ポイント, 占有率).
"""

from __future__ import annotations

from typing import Any

WORDS = {
    "en": {"round": "round", "round_of": "round {n}", "standings": "Standings", "tables": "Tables", "table": "Table {n}", "name": "Name",
           "longest_road": "Longest Road", "largest_army": "Largest Army", "finished": "finished",
           "ended_by_time": "ended by time", "paused": "paused", "time_up": "Time!", "bye": "Bye",
           "vp_of": "{n} VP", "robber": "Robber",
           "terrains": {"forest": "Forest", "hills": "Hills", "pasture": "Pasture", "fields": "Fields",
                        "mountains": "Mountains", "desert": "Desert", "sea": "Sea", "gold": "Gold field"},
           "columns": {"games": "Games", "wins": "Wins", "points": "Points", "vp": "VP",
                       "share_sum": "VP share % (sum)", "share_avg": "VP share % (avg)", "firsts": "1st",
                       "seconds": "2nd", "thirds": "3rd", "lot": "Lot"}},
    "ja": {"round": "ラウンド", "round_of": "第{n}ラウンド", "standings": "順位", "tables": "各卓", "table": "{n}卓", "name": "名前",
           "longest_road": "最長交易路", "largest_army": "最大騎士力", "finished": "終了",
           "ended_by_time": "時間切れ", "paused": "一時停止", "time_up": "時間です", "bye": "不戦",
           "vp_of": "{n}点", "robber": "盗賊",
           "terrains": {"forest": "森林", "hills": "丘陵", "pasture": "牧草地", "fields": "畑", "mountains": "山地",
                        "desert": "砂漠", "sea": "海", "gold": "金鉱"},
           "columns": {"games": "試合数", "wins": "勝利数", "points": "順位点", "vp": "勝利ポイント",
                       "share_sum": "占有率 %（合計）", "share_avg": "占有率 %（平均）", "firsts": "1位",
                       "seconds": "2位", "thirds": "3位", "lot": "抽選"}},
}


# The built-in presets' titles (companion/tournament/scoring.PRESETS) as a Japanese display says them. Keyed by
# the English title because that is what the display's data carries (its "preset"); the page maps it itself.
PRESET_TITLES_JA = {
    "Japanese championship": "日本選手権",
    "CATAN Studio / world championship": "CATAN Studio／世界選手権",
    "German championship (Deutsche Catan-Meisterschaft)": "ドイツ選手権（Deutsche Catan-Meisterschaft）",
}

# What the page says when it pages through more tables or players than one screen holds ({a}-{b} of {n}).
PAGING = {
    "en": {"tables": "Tables {a}–{b} of {n}", "standings": "Places {a}–{b} of {n}"},
    "ja": {"tables": "全{n}卓中 {a}～{b}卓", "standings": "全{n}人中 {a}～{b}位"},
}


def preset_title(lang: str, title: str) -> str:
    return PRESET_TITLES_JA.get(title, title) if lang == "ja" else title


def words(lang: str) -> dict[str, Any]:
    return WORDS.get(lang, WORDS["en"])


def column(lang: str, key: str, english: str) -> str:
    """A standings column's heading (``english``: what the export calls it, for a column this table lacks)."""
    return words(lang)["columns"].get(key, english)


def table_line(table: dict[str, Any], lang: str) -> str:
    """One table's line: each player's VP, who holds Longest Road and Largest Army, whether it is over."""
    w = words(lang)
    sep, colon = ("、", "：") if lang == "ja" else (", ", ": ")
    players = sep.join(f"{p['name']} {'' if p['vp'] is None else p['vp']}".strip() for p in table["players"])
    extra = []
    if table.get("longest_road"):
        extra.append(f"{w['longest_road']}{colon}{table['longest_road']}")
    if table.get("largest_army"):
        extra.append(f"{w['largest_army']}{colon}{table['largest_army']}")
    if table.get("finished"):
        extra.append(w["finished"])
    joiner = "；" if lang == "ja" else "; "
    return players + (joiner + joiner.join(extra) if extra else "")
