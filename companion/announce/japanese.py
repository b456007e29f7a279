"""Japanese sentences from an outcome, as clip keys: 「8。赤は羊毛2枚と鉄1枚、青は鉄1枚。」

Counts carry their counter (枚 for cards, 本 for roads, 人 for knights, 隻 for ships, つ for
buildings), each rendered as one clip so the reading (いちまい, ひとり, いっせき...) is the engine's, not
glued from digits.  The news comes in the same order as in English (:mod:`.english`).
"""

from __future__ import annotations

from typing import Sequence

from ..own_words import own_word
from ..rules.card_game import CardOutcome
from ..rules.outcome import Outcome
from ..rules.starfarers import StarOutcome
from .phrases import (Language, game_of, left_of, mention, numbered_places, register_language, robber_mover,
                      tied_places, who_robs)
from .vocabulary import ALIENS, BALLS, FLOOD_TERRAINS, JA_COUNTERS, LANDMARK_TERRAINS, MAX_COUNT, PHASES, RESOURCES

_PIECE_COUNTERS = {"road": "hon", "ship": "seki", "settlement": "tsu", "city": "tsu"}
_AWARDS = {"longest_road": ("longest_road", "road", "hon"), "longest_trade_route": ("longest_road", "road", "hon"),
           "largest_army": ("largest_army", "knight", "nin")}


def _counted(prefix: str, n: int) -> str:
    """A count with its counter (``mai3`` = 3枚); past the recorded range, the bare number or たくさん."""
    top = JA_COUNTERS[prefix][1]
    if 1 <= n <= top:
        return f"{prefix}{n}"
    return f"n{n}" if 0 <= n <= MAX_COUNT else "many"


def _tile(terrain: str, number: int | None) -> list[str]:
    """「5の山地」「砂漠」"""
    return ([_counted_bare(number), "particle_no"] if number is not None else []) + [f"terrain_{terrain}"]


def _flood(o: Outcome) -> list[str]:
    """「5の山地が浸水しました。」 -- every hex the tide took, as it was, in the screen's words: 「6の畑と6の丘陵が
    浸水しました。」, a twin told apart by its neighbour: 「8の丘陵の隣の5の山地が…」.  Without the names:
    「土地が浸水しました。」."""
    if not o.floods or any(f.terrain not in FLOOD_TERRAINS for f in o.floods):
        return ["tide_floods", "。"]
    items = []
    for f in o.floods:
        beside = [*_tile(*f.beside), "no_tonari_no"] if f.beside is not None and f.beside[0] in LANDMARK_TERRAINS \
            else []
        items.append([*beside, *_tile(f.terrain, f.number)])
    return [*_joined(items, "and"), "ga_flooded", "。"]


def _dikes(o: Outcome) -> list[str]:
    """「6の畑の堤防が持ちこたえ、取り除かれました。」 -- every dike that held, named as the screen names it
    (「6の畑と6の丘陵の堤防が…」, a twin told apart by its neighbour).  Without the names: 「堤防が持ちこたえ、
    取り除かれました。」."""
    if not o.dikes or any(d.terrain not in FLOOD_TERRAINS for d in o.dikes):
        return ["dike_held", "。"]
    items = []
    for d in o.dikes:
        beside = [*_tile(*d.beside), "no_tonari_no"] if d.beside is not None and d.beside[0] in LANDMARK_TERRAINS \
            else []
        items.append([*beside, *_tile(d.terrain, d.number)])
    return [*_joined(items, "and"), "no_dike_held", "。"]


def _resource(name: str | None, game: str | None = None) -> str:
    """A resource's clip, in ``game``'s own word where its seed has one (ore: 鉱石 in Starfarers and the card game)."""
    return own_word(game, name) if name in RESOURCES else "resource_other"


def _joined(items: list[list[str]], joiner: str) -> list[str]:
    out: list[str] = []
    for i, item in enumerate(items):
        if i:
            out.append(joiner)
        out.extend(item)
    return out


def given_back_tokens(paid: dict[int, dict[str, int]], colors: Sequence[str], game: str | None = None) -> list[str]:
    """出目を直したとき、前の出目で受け取った分を戻す：「赤は鉱石1枚、青は羊毛1枚戻します。」"""
    items = [[mention(colors, seat, "wa"), *_joined([[_resource(r, game), _counted("mai", n)]
                                             for r, n in got.items() if n], "and")]
             for seat, got in sorted(paid.items()) if any(got.values()) and 0 <= seat < len(colors)]
    return [*_joined(items, "、"), "return", "。"] if items else []


def trade_tokens(event: dict, colors: Sequence[str]) -> list[str]:
    """交易：「赤は銀行と羊毛2枚を鉄1枚に交換しました。」/「赤は青と…」"""
    give = [[_resource(r), _counted("mai", n)] for r, n in event["give"].items() if n]
    get = [[_resource(r), _counted("mai", n)] for r, n in event["get"].items() if n]
    partner = ["with_the_bank"] if event["with"] == "bank" else [mention(colors, event["with"]), "and"]
    return [mention(colors, event["player"], "wa"), *partner, *_joined(give, "and"), "wo", *_joined(get, "and"),
            "exchanged_for", "。"]


def outcome_tokens(o: Outcome, colors: Sequence[str]) -> list[str]:
    def who(seat: int, particle: str = "") -> str:
        return mention(colors, seat, particle, index=o.index)

    star = isinstance(o, StarOutcome)
    game = game_of(o)
    t: list[str] = []
    if o.player is not None and o.kind == "buy_development":  # 「赤は発展カードを買いました。」(中身は秘密のまま)
        t += [who(o.player, "wa"), "bought_a_development_card", "。"]
    if o.player is not None and o.kind == "trade":  # 出したものと受け取ったものは、記録の事象がわかれば言う
        t += [who(o.player, "wa"), "traded", "。"]
    if o.dice:
        t += [f"roll{o.number}", "。"]
        if o.number != 7 and not o.payouts and not o.gold_owed:
            t += ["no_production", "。"]
    payouts = [[who(seat, "wa"), *_joined([[_resource(r, game), _counted("mai", n)] for r, n in got.items() if n], "and")]
               for seat, got in o.payouts.items() if any(got.values())]
    if payouts:
        t += [*_joined(payouts, "、"), "。"]
    if o.shortages:
        t += ["bank_no", *_joined([[_resource(r, game)] for r in o.shortages], "and"), "short", "。"]
    # A gold choice or a discard repeats who still owes one; the table heard that with the roll.
    if o.kind != "gold":
        for seat, n in o.gold_owed.items():
            t += [who(seat, "wa"), "from_gold", _counted("mai", n), "choose", "。"]
    if o.discards_owed and o.kind != "discard":
        t += [*_joined([[who(seat, "wa"), _counted("mai", n)] for seat, n in o.discards_owed.items()], "、"),
              "return" if star else "discard", "。"]  # Starfarers: back to the stock
    if o.robber_hexes or o.pirate_hexes:
        move = ("moves_robber_or_pirate" if o.robber_hexes and o.pirate_hexes
                else "moves_robber" if o.robber_hexes else "moves_pirate")
        mover = robber_mover(o)
        t += ([who(mover, "ga")] if mover is not None else []) + [move, "。"]
    if o.robber_moved is not None:
        t += ["robber_moved", "。"]
    if o.pirate_moved is not None:
        t += ["pirate_moved", "。"]
    if o.steal_from:
        mover = who_robs(o)
        t += ([who(mover, "wa")] if mover is not None else []) + [
            *_joined([[who(s)] for s in o.steal_from], "or"), "can_rob_from", "。"]
    elif o.robber_moved is not None or o.pirate_moved is not None:
        t += ["nobody_to_rob", "。"]
    if o.stolen is not None:
        victim, resource = o.stolen
        thief = [who(o.player, "ga")] if o.player is not None else []
        loot = ["stole_a_card"] if resource is None else [_resource(resource, game), "stole"]
        t += thief + [who(victim), "from", *loot, "。"]
    if star:
        t += _starfarers(o, who, colors)
    elif isinstance(o, CardOutcome):
        t += _card_game(o, who)
    # The tide before what it changed (as in English).
    if o.dike_removed is not None:
        t += _dikes(o)
    if o.flooded is not None:
        t += _flood(o)
    t += _sunk(o, who)
    for change in o.awards:
        if change.award.startswith("friendship_"):
            t += _friendship(change, who)
            continue
        award, unit, counter = _AWARDS.get(change.award, ("award_other", "road", "hon"))
        if change.after is None:
            t += [f"{award}_wa", "set_aside", "。"]
        else:
            t += [who(change.after, "ga"), f"{award}_get"]
            if change.length:
                t += ["、", unit, _counted(counter, change.length)]
            t += ["。"]
    if o.leader is not None:
        t += [who(o.leader, "ga"), "is_leader", "。"]
    if o.phase:
        t += [PHASES.get(o.phase, "phase_other"), "。"]
    if o.flood_choices:
        chooser = o.player if o.player is not None else o.next_player  # the roller floods
        t += ([who(chooser, "ga")] if chooser is not None else []) + ["chooses_flood", "。"]
    if len(o.winners) > 1:  # level on points and cards at High Tide's end: a shared win
        t += [*_joined([[who(p)] for p in o.winners[:-1]] + [[who(o.winners[-1], "ga")]], "and"),
              "share_the_win", "。"]
    elif o.winner is not None:
        t += [who(o.winner, "no"), "wins", "。"]
    if tied_places(o):
        t += _places(o, who)
    elif len(o.ranking) > 1:
        t += ["final_order", *_joined([[who(s)] for s in o.ranking], "、"), "。"]
    if o.warnings:
        t += ["forced_note", "。"]
    return t


def _places(o: Outcome, who) -> list[str]:
    """同点の順位をそのまま：「青と白が同点で2位です。オレンジは4位です。」(1位は勝ちの文が言う。時間切れで勝者の
    いないゲームは1位も：「赤と青が同点で1位です。」)"""
    t: list[str] = []
    for place, seats in numbered_places(o):
        if place == 1 and (o.winner is not None or o.winners):
            continue
        if len(seats) == 1:
            t += [who(seats[0], "wa"), f"place_{place}", "。"]
        else:
            names = [[who(s)] for s in seats[:-1]]  # 「青と白が」「青、白、オレンジと緑が」 (as the screen joins names)
            t += [*_joined(names, "、"), "and", who(seats[-1], "ga"), f"share_place_{place}", "。"]
    return t


def _sunk(o: Outcome, who) -> list[str]:
    """赤は開拓地1つと道2本を失いました。"""
    by_player: dict[int, dict[str, int]] = {}
    for piece in o.sunk:
        counts = by_player.setdefault(piece.player, {})
        counts[piece.piece] = counts.get(piece.piece, 0) + 1
    t: list[str] = []
    for seat, counts in by_player.items():
        items = [[piece if piece in _PIECE_COUNTERS else "road", _counted(_PIECE_COUNTERS.get(piece, "hon"), n)]
                 for piece, n in counts.items()]
        t += [who(seat, "wa"), *_joined(items, "and"), "lost", "。"]
    return t


def _starfarers(o: StarOutcome, who, colors: Sequence[str]) -> list[str]:
    """補充の山から赤が2枚引きます。黄色と赤。移動力5、動力炉込みで7。遭遇です。白がカードを読みます。"""
    t: list[str] = []
    if o.supply_draws:
        t += ["supply_from", *_joined([[who(seat, "ga"), _counted("mai", n)] for seat, n in o.supply_draws.items()],
                                      "、"), "draw", "。"]
    if o.refills:
        t += ["supply_refilled", "。"]
    if o.balls:
        t += [*_joined([[BALLS.get(b, "ball_black")] for b in o.balls], "and"), "。"]
    if o.speed is not None:
        t += ["speed", _counted_bare(o.speed)]
        if o.movement is not None and o.movement != o.speed:
            t += ["、", "with_boosters", _counted_bare(o.movement)]
        t += ["。"]
    if o.encounter:
        t += ["encounter", "。"]
        if o.player is not None:  # the roller's left neighbour reads the encounter card (the seed)
            t += [who(left_of(o.player, colors), "ga"), "reads_the_card", "。"]
    actor = [who(o.player, "ga")] if o.player is not None else []
    scored = o.player is not None and o.player in o.vp  # set-up placements are not news (see english.py)
    if o.founded is not None and scored:
        t += actor + ["founded_colony", "。"]
    if o.spaceport is not None and scored:
        t += actor + ["built_spaceport", "。"]
    if o.station is not None:
        t += actor + ["docked_station", "。"]
    if o.conquered is not None:
        t += actor + ["defeated_pirate" if o.conquered[0] == "pirate" else "terraformed_ice", "。"]
    for seat, change in o.half_medals.items():
        if change:
            t += [who(seat, "wa"), "half_medal", _counted("mai", abs(change)), "gained" if change > 0 else "lost", "。"]
            if seat in o.vp:  # a pair made or broken: the points it moved
                t += [who(seat, "wa"), _counted("ten", o.vp[seat]), "became", "。"]
    return t


def _counted_bare(n: int) -> str:
    return f"n{n}" if 0 <= n <= MAX_COUNT else "many"


def _friendship(change, who) -> list[str]:
    """赤が商人の友好親善マーカーを獲得、交易ステーション2つ。"""
    alien = change.award.removeprefix("friendship_")
    race = [f"alien_{alien}"] if alien in ALIENS else []
    if change.after is None:
        return [*race, "friendship_wa", "set_aside", "。"]
    t = [who(change.after, "ga"), *race, "friendship_get"]
    if change.length:
        t += ["、", "trade_station", _counted("tsu", change.length)]
    return t + ["。"]


def _card_game(o: CardOutcome, who) -> list[str]:
    """盗賊の襲撃です。運命カードが裏返りました。黒い矢印、右隣です。赤が青から街道を取りました。B面で置きます。"""
    t: list[str] = []
    if o.city_face in ("robber_raid", "market_day"):
        t += [o.city_face, "。"]
    if o.fate in ("black", "white"):
        t += ["fate_turned", "。", f"fate_{o.fate}", "。"]
    if o.taken and o.player is not None:
        piece = "knight" if o.taken.get("piece") == "knight" else "kaido"
        t += [who(o.player, "ga"), who(o.taken["from"]), "from", piece, "took", "。"]
        if o.taken.get("side") in ("A", "B"):
            t += [f"side_{o.taken['side'].lower()}", "。"]
    for seat, reason in o.skipped:
        if reason in ("church", "city_wall"):
            t += [who(seat, "wa"), f"protected_{reason}", "。"]
    if o.kind != "exchange":  # as in English: an exchange's draw is quiet
        for seat, n in o.draws.items():
            if n:
                t += [who(seat, "wa"), _counted("mai", n), "draw", "。"]
    if o.reshuffled:
        t += ["discards_reshuffled", "。"]
    return t


def market_tokens(event: dict, colors: Sequence[str]) -> list[str]:
    """The card game's exchange with the market, whose cards lie face up: 「赤が鉱石を取りました。」"""
    return [mention(colors, event["player"], "ga"), _resource(event["get"], "card-game"), "took", "。"]


register_language(Language("ja", full_stop="。", spaced=False, outcome_tokens=outcome_tokens,
                           given_back_tokens=given_back_tokens, trade_tokens=trade_tokens,
                           market_tokens=market_tokens))
