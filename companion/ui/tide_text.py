"""High Tide explains itself: what the tide is doing now and what comes next, in the user's language.

The play screen shows these lines under the payouts at every moment of a High Tide game: before the leader, who
becomes leader at how many points and what follows; in the dike round, what a dike costs and does and how many
dike cards the player has left; in the high tide, the round, how many turns the leader has left before the end
and which hexes may flood (the land with the number rolled); in the spring tide, how much land must go.  Then
what the last event did: the hex flooded (said as players say it), a dike that held, the pieces that sank.

Every fact comes from the rules core (the game's ``tide``, ``options``, ``leader_turns``, ``spring_tide_land``,
the last :class:`~companion.rules.outcome.Outcome`); this module only words them.
"""

from __future__ import annotations

from typing import Any, Callable

from . import i18n

TEXT: dict[str, dict[str, str]] = {
    "tide_normal": {
        "en": "Tide: normal. Nobody wins by points: the first to reach {vp} VP becomes the leader; after that "
              "turn comes one dike round, then the high tide.",
        "ja": "潮：通常。点数では勝てません。最初に{vp}点に達した人がリーダーになり、その手番の後に堤防ラウンドが"
              "1周、続いて満潮です。"},
    "tide_leader_now": {
        "en": "{name} reached {vp} VP and leads. When this turn ends the dike round begins, from the player after "
              "{name}.",
        "ja": "{name}が{vp}点に達してリーダーです。この手番が終わると、{name}の次の人から堤防ラウンドが始まります。"},
    "tide_dike_round": {
        "en": "Dike round (leader: {name}): one round to build dikes at {cost} each ({who} has {left} dike cards "
              "left). A dike saves a land hex from one flood. Next: the high tide.",
        "ja": "堤防ラウンド（リーダー：{name}）：1周の間、堤防を1つ{cost}で作れます（{who}の堤防カード残り{left}枚）。"
              "堤防は陸地のヘクスを1回の浸水から守ります。次は満潮です。"},
    "tide_high": {
        "en": "High tide, round {round} (leader: {name}; {turns} leader turns left, then the game ends). After "
              "every roll but 7 the roller floods one land hex with the number rolled; a dike holds it back once.",
        "ja": "満潮 第{round}ラウンド（リーダー：{name}。リーダーの手番は残り{turns}回で終了）。7以外の目のたびに、"
              "振った人はその数字の陸地を1つ浸水させます。堤防があれば1回だけ防ぎます。"},
    # a count of one said as one (i18n.tr picks these for n=1): "1 dike card left", "1 leader turn left"
    "tide_dike_round_1": {
        "en": "Dike round (leader: {name}): one round to build dikes at {cost} each ({who} has 1 dike card left). "
              "A dike saves a land hex from one flood. Next: the high tide.",
        "ja": "堤防ラウンド（リーダー：{name}）：1周の間、堤防を1つ{cost}で作れます（{who}の堤防カード残り1枚）。"
              "堤防は陸地のヘクスを1回の浸水から守ります。次は満潮です。"},
    "tide_high_1": {
        "en": "High tide, round {round} (leader: {name}; 1 leader turn left, then the game ends). After "
              "every roll but 7 the roller floods one land hex with the number rolled; a dike holds it back once.",
        "ja": "満潮 第{round}ラウンド（リーダー：{name}。リーダーの手番は残り1回で終了）。7以外の目のたびに、"
              "振った人はその数字の陸地を1つ浸水させます。堤防があれば1回だけ防ぎます。"},
    "tide_sunk_pieces": {"en": "{name}'s {n} {pieces}", "ja": "{name}の{pieces}{n}つ"},
    "tide_sunk_pieces_1": {"en": "{name}'s {piece}", "ja": "{name}の{piece}"},
    "tide_spring": {
        "en": "Spring tide (no more dikes): the floods go on until only {target} land hexes remain ({land} now).",
        "ja": "大潮（堤防はもう作れません）：陸地のヘクスが{target}枚になるまで浸水が続きます（現在{land}枚）。"},
    "tide_ended": {
        "en": "The tide has ended: ranked by VP, then by resource cards.",
        "ja": "潮は終わりました：勝利点、次に資源カードの枚数で順位を決めます。"},
    "tide_choose": {
        "en": "The tide comes: {name} picks the hex it floods, one of {choices} (ringed).",
        "ja": "潮が来ます：{name}が浸水させるヘクスを選びます（{choices}のどれか。丸印）。"},
    # one land hex left with the number: nothing to pick from ("one of the 8 forest" / 「8の森林のどれか」; s18)
    "tide_choose_1": {
        "en": "The tide comes: {name} taps the hex it floods, {choices} (ringed).",
        "ja": "潮が来ます：{name}が浸水させるヘクスをタップします（{choices}。丸印）。"},
    # which of the hexes offered to the tide a dike stands on: tapped, the dike goes and the land stays (the table
    # chose without seeing it: a dike was a thin line, and the offer did not say; playtest s10)
    "tide_choice_diked": {"en": "Dikes stand on {hexes}: a hex tapped there loses its dike and stays land.",
                          "ja": "{hexes}には堤防があります：選ぶと堤防がなくなり、土地は残ります。"},
    "tide_choice_diked_1": {"en": "A dike stands on {hexes}: tapped, it loses the dike and stays land.",
                            "ja": "{hexes}には堤防があります：選ぶと堤防がなくなり、土地は残ります。"},
    # a list of flooded hexes (flood-all): "the 6 fields and the 6 hills" / 「6の畑と6の丘陵」, as the voice says it
    "tide_list_and": {"en": " and ", "ja": "と"},
    "tide_list_comma": {"en": ", ", "ja": "と"},
    "tide_dike_held": {"en": "The dike on {hex} held back the tide (and is gone).",
                       "ja": "{hex}の堤防が潮を防ぎました（堤防はなくなります）。"},
    "tide_dikes_held": {"en": "The dikes on {hex} held back the tide (and are gone).",
                        "ja": "{hex}の堤防が潮を防ぎました（堤防はなくなります）。"},
}


def install() -> None:
    """Add these texts to the app's table (the app's own keys win)."""
    for key, entry in TEXT.items():
        i18n.TEXT.setdefault(key, entry)


install()


def tide_text(g, last, tr: Callable[..., str], name: Callable[[int], str], places: Any, lang: str,
              places_then: Any = None) -> str:
    """The lines the play screen shows for a High Tide game ``g`` after the outcome ``last``; ``tr`` is the app's
    ``tr``, ``name`` its ``player_name``, ``places`` its place words (``refusals_text.app_places``) and
    ``places_then`` those of the board as it was dealt (a flooded hex is said as what it was: "the 5 hills")."""
    tide = g.tide
    opts = g.options
    who = g.waiting_for()
    leader = name(tide.leader) if tide.leader is not None else ""
    hexes = places.hexes if places is not None else (lambda hs: ", ".join(str(list(h)) for h in hs))
    then = places_then if places_then is not None else places
    hex_ = then.hex if then is not None else (lambda h: str(list(h)))
    if g.state.phase == "flood" and tide.flood_choices:
        lines = [tr("tide_choose", name=name(who), choices=hexes(tide.flood_choices), n=len(tide.flood_choices))]
        diked = [h for h in tide.flood_choices if tuple(h) in tide.dikes]
        if diked:
            lines.append(tr("tide_choice_diked", hexes=hexes(diked), n=len(diked)))
    elif tide.phase == "normal" and tide.leader is not None:
        lines = [tr("tide_leader_now", name=leader, vp=opts.leader_vp)]
    elif tide.phase == "normal":
        lines = [tr("tide_normal", vp=opts.leader_vp)]
    elif tide.phase == "dike_round":
        cost = i18n.cards_text(dict(opts.dike_cost), lang)
        left = tide.dikes_left[who] if who is not None else 0
        lines = [tr("tide_dike_round", name=leader, cost=cost, who=name(who) if who is not None else "", left=left,
                    n=left)]
    elif tide.phase == "high_tide":
        turns = g.leader_turns - tide.leader_turns_done
        lines = [tr("tide_high", round=tide.round, name=leader, turns=turns, n=turns)]
    elif tide.phase == "spring_tide":
        lines = [tr("tide_spring", target=g.spring_tide_land, land=len(g.board.land))]
    else:
        lines = [tr("tide_ended")]
    if last is not None and last.floods:
        # every hex the tide took (with the flood-all option, all the land with the number: it named the first
        # only), each as it was before the flood and told apart from a twin by a neighbour, in the words the
        # outcome gives the voice too: "The tide floods the 6 fields and the 6 hills."
        name_of = then.named if then is not None else (lambda terrain, number, beside=None: f"{number} {terrain}")
        names = [name_of(f.terrain, f.number, f.beside) for f in last.floods]
        lines.append(tr("flooded", hex=_listed(tr, names)))
    elif last is not None and last.flooded is not None:  # (an outcome built without its names)
        lines.append(tr("flooded", hex=hex_(last.flooded)))
    if last is not None and last.dike_removed is not None:
        held = last.dikes_removed or (last.dike_removed,)
        lines.append(tr("tide_dike_held" if len(held) == 1 else "tide_dikes_held",
                        hex=_listed(tr, [hex_(h) for h in held])))
    if last is not None and last.sunk:
        # whose pieces, counted, in the order they sank ("Ben's 2 roads, Aki's settlement"; it read "Ben's road,
        # Ben's road"), listed in the language's own way
        counts: dict[tuple[int, str], int] = {}
        for x in last.sunk:
            counts[(x.player, x.piece)] = counts.get((x.player, x.piece), 0) + 1
        what = ("、" if lang == "ja" else ", ").join(
            tr("tide_sunk_pieces", name=name(p), n=n, piece=_piece(tr, piece, lang), pieces=_pieces(tr, piece, lang))
            for (p, piece), n in counts.items())
        lines.append(tr("sank", what=what))
    return "\n".join(lines)


def _listed(tr: Callable[..., str], names: list[str]) -> str:
    """"a", "a and b", "a, b and c" / 「aとb」「aとbとc」 (the voice lists them with the same words)."""
    if len(names) < 2:
        return "".join(names)
    return tr("tide_list_comma").join(names[:-1]) + tr("tide_list_and") + names[-1]


def _piece(tr: Callable[..., str], piece: str, lang: str) -> str:
    """A piece's name inside a sentence: "road" (the app's "Road" button word, lower case), "道"."""
    return tr(piece) if lang == "ja" else tr(piece).lower()


def _pieces(tr: Callable[..., str], piece: str, lang: str) -> str:
    """More than one of a piece: "roads", "cities" (Japanese counts without a plural: the word as it is)."""
    word = _piece(tr, piece, lang)
    if lang == "ja":
        return word
    return word[:-1] + "ies" if word.endswith("y") else word + "s"
