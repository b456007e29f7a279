"""From an outcome (or a device notice) to a :class:`Phrase`: a sequence of clip keys and its caption.

Phrase building is pure: it reads the :class:`~companion.rules.outcome.Outcome` the rules core
published and the players' colours, and picks clips from :mod:`.vocabulary`.  Each language has its own
sentence builder (:mod:`.english`, :mod:`.japanese`), because word order differs, but both say the
same things in the same order: the number, who takes what, what the bank lacks, gold choices,
discards, the robber/pirate, steals, then what Starfarers and the card game add (supply draws, the
mothership, flights, half-medals; a city's face, the fate card, a card taken from a neighbour, the
draw), the tide (a dike that held, the flood, sunk pieces), the awards it moved (friendship markers
too), the leader, a new phase, who floods next, and the end (winner, final order).

This module knows no language: each language module registers its sentence builder here
(:func:`register_language`) and the package imports them, so the core and the languages do not import
each other in a circle.  A word that names a player is a :class:`Mention`: its clip is the player's colour,
and it remembers the seat, so that a player's typed name can take its place in the caption and a name
they recorded can take its place in the voice (``names``; :meth:`.clips.ClipLibrary.render`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..rules.outcome import Outcome
from .vocabulary import CLIPS, COLORS, PAUSES, RESOURCES

#: Notices that do not come from the rules: the dice hardware speaking up.
NOTICES = ("box_disconnected", "box_reconnected", "camera_lost", "camera_back", "camera_reroll",
           "clock_10", "clock_5", "clock_1", "clock_time_up")  # (the last four: the tournament's round clock)


class Mention(str):
    """A clip key that names a player: the colour's clip (with a Japanese particle: ``red_wa``), and the seat
    and particle it stands for, so that a player's own name can be said and shown in its place.  It compares
    equal to its clip key, so a phrase reads as the keys it is made of."""

    seat: int
    particle: str

    def __new__(cls, key: str, seat: int, particle: str = "") -> "Mention":
        mention = super().__new__(cls, key)
        mention.seat, mention.particle = seat, particle
        return mention

    def __reduce__(self):  # keeps seat and particle through a copy or a pickle
        return (Mention, (str(self), self.seat, self.particle))


@dataclass(frozen=True)
class Language:
    """What the core needs of a language: how its sentences end and join, and its sentence builders.

    ``outcome_tokens(outcome, colors)`` and ``given_back_tokens(paid, colors, game)`` return clip keys,
    players named with :func:`mention`; ``spaced``: words are joined by spaces and a sentence starts with a
    capital (English), else they run on (Japanese)."""

    code: str
    full_stop: str
    spaced: bool
    outcome_tokens: Callable[[Outcome, Sequence[str]], list[str]]
    given_back_tokens: Callable[..., list[str]]
    #: ``trade_tokens(event, colors)``: a trade event said with what went each way, in the place of the
    #: outcome's short "Red trades." (the outcome does not carry the cards; the record's event does).
    trade_tokens: Callable[[dict, Sequence[str]], list[str]] | None = None
    #: ``market_tokens(event, colors)``: the card game's exchange with the market (its cards lie face up), said
    #: with the card taken: "Red takes ore." / 「赤が鉱石を取りました。」 (an exchange is otherwise quiet).
    market_tokens: Callable[[dict, Sequence[str]], list[str]] | None = None


_LANGUAGES: dict[str, Language] = {}


def register_language(language: Language) -> None:
    """Make a language sayable (each language module calls this when it is imported)."""
    if language.code not in CLIPS:
        raise ValueError(f"language {language.code!r} has no clips in the vocabulary")
    _LANGUAGES[language.code] = language


def language(lang: str) -> Language:
    """The registered language ``lang`` (a clear error for one that is not)."""
    try:
        return _LANGUAGES[lang]
    except KeyError:
        raise ValueError(f"language must be one of {', '.join(sorted(_LANGUAGES))}, got {lang!r}") from None


@dataclass(frozen=True)
class Phrase:
    """What to say: clip keys in order (pauses included) and the caption the screen shows."""

    lang: str
    tokens: tuple[str, ...]
    caption: str


def check_language(lang: str) -> str:
    return language(lang).code


def check_colors(colors: Sequence[str]) -> tuple[str, ...]:
    """The seat → colour list, checked: every player has a colour, the fallback for their name."""
    colors = tuple(colors)
    if not colors:
        raise ValueError("players: need at least one player colour")
    for seat, color in enumerate(colors):
        if color not in COLORS:
            raise ValueError(f"player {seat}: colour must be one of {', '.join(COLORS)}, got {color!r}")
    return colors


def check_names(names: Sequence[str | None] | None, colors: Sequence[str]) -> tuple[str | None, ...]:
    """The seat → typed name list (None or "" for a player who gave none), one per colour."""
    if names is None:
        return (None,) * len(colors)
    names = tuple(name.strip() if isinstance(name, str) and name.strip() else None for name in names)
    if len(names) != len(colors):
        raise ValueError(f"players: {len(names)} names for {len(colors)} colours")
    return names


def mention(colors: Sequence[str], seat: int, particle: str = "", index: int | None = None) -> Mention:
    """The word naming the player at ``seat`` (``particle``: the Japanese は/が/の that follows it)."""
    if not 0 <= seat < len(colors):
        where = f"outcome of event {index}" if index is not None else "phrase"
        raise ValueError(f"{where}: player {seat} has no colour ({len(colors)} players)")
    return Mention(colors[seat] + (f"_{particle}" if particle else ""), seat, particle)


def particle_clip(particle: str) -> str:
    """The clip key of a Japanese particle said on its own, after a player's recorded name."""
    return f"particle_{particle}"


def robber_mover(o: Outcome) -> int | None:
    """Who moves the robber/pirate: the player the table now waits for (after the last discard that is the
    roller, not the discarder), else whoever acted."""
    if o.next == "move_robber" and o.next_player is not None:
        return o.next_player
    return o.player if o.player is not None else o.next_player


def who_robs(o: Outcome) -> int | None:
    """Who may rob now: the player the table waits to steal (in Starfarers, the roller after the last return,
    not the player who returned cards), else whoever acted."""
    if o.next == "steal" and o.next_player is not None:
        return o.next_player
    return o.player if o.player is not None else o.next_player


#: The highest place said with its own clip ("is sixth" / 「6位です」): six players at most.
MAX_PLACE = 6


def numbered_places(o: Outcome) -> list[tuple[int, tuple[int, ...]]]:
    """The outcome's places with their numbers, level players sharing the better one: ``((0,), (1, 3), (2,))`` →
    ``[(1, (0,)), (2, (1, 3)), (4, (2,))]``."""
    out, place = [], 1
    for seats in o.places:
        out.append((place, tuple(seats)))
        place += len(seats)
    return out


def tied_places(o: Outcome) -> bool:
    """Whether the game ended with players level on a place (the places are then said as they are, not the
    ranking as a plain order), every place one with its clip."""
    return (len(o.places) < len(o.ranking) and sum(map(len, o.places)) == len(o.ranking)
            and all(place <= MAX_PLACE for place, _ in numbered_places(o)))


def left_of(seat: int, colors: Sequence[str]) -> int:
    """The left neighbour: the next seat (play passes to the left; docs/starfarers-and-card-game.md)."""
    return (seat + 1) % len(colors)


def caption_of(lang: str, tokens: Sequence[str], names: Sequence[str | None] = ()) -> str:
    """Join clip captions: English with spaces and sentence capitals, Japanese without spaces.  A player
    named in ``names`` (seat → typed name) is shown by that name, a player without one by their colour."""
    spaced = language(lang).spaced
    clips, pauses = CLIPS[lang], PAUSES[lang]
    text = ""
    sentence_start = True
    for token in tokens:
        if token in pauses:
            text += pauses[token][1]
            sentence_start = token in (".", "。")
            continue
        name = names[token.seat] if isinstance(token, Mention) and token.seat < len(names) else None
        if name is None:
            word = clips[token][1]
        else:
            word = name + (clips[particle_clip(token.particle)][1] if token.particle else "")
        if spaced:
            if sentence_start:
                word = word[:1].upper() + word[1:]
            text += (" " if text else "") + word
        else:
            text += word
        sentence_start = False
    return text


def read_by_camera(outcome: Outcome, events: Sequence[dict]) -> bool:
    """Whether ``outcome`` is of a roll the camera read (its event in the record ``events`` says so): such a roll
    is said with its faces."""
    return outcome.kind == "roll" and 0 <= outcome.index < len(events) \
        and events[outcome.index].get("source") == "camera"


def phrase_for_outcome(outcome: Outcome, colors: Sequence[str], lang: str, faces: bool = False,
                       given_back: dict[int, dict[str, int]] | None = None,
                       names: Sequence[str | None] | None = None, event: dict | None = None) -> Phrase | None:
    """The phrase announcing ``outcome``, or None when the event changes nothing worth saying.

    ``faces``: a roll's two faces are said after its number ("Eight. Three and five."), lowest first: for a
    roll the camera read, so that the table hears a misread against the dice in front of it without looking
    at the screen.  ``given_back``: for a roll entered in the place of one read or tapped wrong, what that one
    paid out (seat → cards, ``Table.replaced_payouts``), said first so the cards go back: "Red gives back one
    ore. Eight. …".  ``names``: the players' typed names (seat order), shown in the caption in the place of
    their colours (the tokens keep the colours: the voice's fallback).  ``event``: the record's event the outcome
    is of; a trade is then said with the cards that went each way (the outcome alone gives "Red trades.")."""
    speech = language(lang)
    colors = check_colors(colors)
    names = check_names(names, colors)
    tokens = speech.outcome_tokens(outcome, colors)
    if _a_market_take(outcome, event, colors) and speech.market_tokens is not None:
        tokens[0:0] = speech.market_tokens(event, colors)
    if not tokens:
        return None
    from ..rules.starfarers import StarOutcome

    if (outcome.kind == "trade" and _a_known_trade(event, colors) and speech.trade_tokens is not None
            and not isinstance(outcome, StarOutcome)):
        short = tokens.index(speech.full_stop) + 1  # the outcome's own first sentence: "Red trades."
        tokens[:short] = speech.trade_tokens(event, colors)
    if faces and outcome.dice and tokens[:1] == [f"roll{outcome.number}"]:
        tokens[2:2] = faces_tokens(outcome.dice, lang)  # after the number and its full stop
    if given_back:
        tokens[0:0] = speech.given_back_tokens(given_back, colors, game_of(outcome))
    return Phrase(lang, tuple(tokens), caption_of(lang, tokens, names))


def game_of(outcome: Outcome) -> str | None:
    """The record's name of the game whose outcome this is, for its own words (``vocabulary.OWN_WORDS``); None
    for the hex-board games, which say the base game's."""
    from ..rules.card_game import CardOutcome
    from ..rules.starfarers import StarOutcome

    return "starfarers" if isinstance(outcome, StarOutcome) else "card-game" if isinstance(outcome, CardOutcome) \
        else None


def _a_market_take(outcome: Outcome, event: dict | None, colors: Sequence[str]) -> bool:
    """Whether ``event`` is the card game's exchange with the market, naming a resource the card taken."""
    from ..rules.card_game import CardOutcome

    return (isinstance(outcome, CardOutcome) and outcome.kind == "exchange" and isinstance(event, dict)
            and event.get("type") == "exchange" and event.get("with") == "market" and event.get("get") in RESOURCES
            and isinstance(event.get("player"), int) and 0 <= event["player"] < len(colors))


def _a_known_trade(event: dict | None, colors: Sequence[str]) -> bool:
    """Whether ``event`` is a base-game trade this phrase can say: counts per resource, a partner at the table
    or the bank (Starfarers trades with "the stock" and keeps the short sentence)."""
    if not isinstance(event, dict) or event.get("type") != "trade":
        return False
    partner = event.get("with")
    return (isinstance(event.get("give"), dict) and isinstance(event.get("get"), dict)
            and (partner == "bank" or isinstance(partner, int) and 0 <= partner < len(colors))
            and isinstance(event.get("player"), int) and 0 <= event["player"] < len(colors))


def phrase_for_reading(dice: Sequence[int], lang: str) -> Phrase:
    """A camera's reading that waits for a player's OK (Settings), its faces lowest first: "Three and five." /
    「3と5。」 — the table hears what was read and checks it against the dice before anything counts."""
    check_language(lang)
    tokens = tuple(faces_tokens(dice, lang))
    return Phrase(lang, tokens, caption_of(lang, tokens))


def faces_tokens(dice: Sequence[int], lang: str) -> list[str]:
    """Two faces, lowest first, as a sentence: "Three and five." / 「3と5。」"""
    low, high = sorted(dice)
    return [f"n{low}", "and", f"n{high}", language(lang).full_stop]


def phrase_for_reroll(reason: str, params: dict, lang: str) -> Phrase:
    """The camera's request to roll again, with why (``vision.rolls.RollEvent.reason_code`` and its params):
    "Please roll again. Three dice seen." / 「もう一度振ってください。ダイスが3個見えます。」 — the table hears
    whether to straighten a die or take a spare one out of the tray.  A reason without words: the request alone."""
    stop = language(lang).full_stop
    why = None
    if reason in ("cocked", "crooked_dice"):  # the camera's, the dice box's
        why = "reroll_cocked"
    elif reason == "unreadable":
        why = "reroll_unreadable_all" if params.get("count", 1) >= 2 else "reroll_unreadable"
    elif reason == "count" and params.get("seen") != 2:
        seen = params.get("seen", 0)
        why = f"reroll_seen_{seen}" if seen in (1, 3, 4, 5, 6) else "reroll_seen_many" if seen > 6 else None
    tokens = ("camera_reroll", stop) + ((why, stop) if why else ())
    return Phrase(lang, tokens, caption_of(lang, tokens))


def batch_count(n: int, lang: str) -> list[str]:
    """A count of pieces as clip keys: "forty" "eight" / 「40」「8件」 (English without its noun, Japanese with 件:
    ``tens4`` is spoken 「40」 and written 「4」, so the caption reads 「48件」)."""
    from .vocabulary import MAX_BATCH, MAX_COUNT

    if n > MAX_BATCH:
        return ["over_a_hundred" if lang == "en" else "ken_over_100"]
    if lang == "en":
        return [f"n{n}"] if n <= MAX_COUNT or n % 10 == 0 else [f"n{n - n % 10}", f"n{n % 10}"]
    if n < 10 or n % 10 == 0:
        return [f"ken{n}"]
    return [f"tens{n // 10}", f"ken{n % 10}"]


def phrase_for_batch(recorded: int, not_recorded: int, lang: str) -> Phrase:
    """Check the board's "Add the N sure ones" in one short line (the screen's line says how each went in): "Forty
    eight pieces recorded. Four not recorded." / 「48件を記録しました。4件は記録していません。」 -- the second
    sentence only when some sure ones were not (refused by the rules, or waiting for the set-up)."""
    stop = language(lang).full_stop
    if recorded < 1 or not_recorded < 0:
        raise ValueError(f"a batch records a piece or more: {recorded} recorded, {not_recorded} not")
    if lang == "en":
        tokens = [*batch_count(recorded, lang), "piece_recorded" if recorded == 1 else "pieces_recorded", stop]
        if not_recorded:
            tokens += [*batch_count(not_recorded, lang), "not_recorded", stop]
        # (the caption writes a number said as two clips as one word: "Forty-eight", not "Forty eight")
        caption = caption_of(lang, tokens)
        for n in {recorded, not_recorded}:
            said = batch_count(n, lang)
            if len(said) == 2:
                two = caption_of(lang, said)
                caption = caption.replace(two, two.replace(" ", "-"), 1)
        return Phrase(lang, tuple(tokens), caption)
    tokens = [*batch_count(recorded, lang), "wo_recorded", stop]
    if not_recorded:
        tokens += [*batch_count(not_recorded, lang), "wa_not_recorded", stop]
    return Phrase(lang, tuple(tokens), caption_of(lang, tokens))


def phrase_for_notice(notice: str, lang: str) -> Phrase:
    """The phrase for a hardware notice (one of :data:`NOTICES`)."""
    stop = language(lang).full_stop
    if notice not in NOTICES:
        raise ValueError(f"notice must be one of {', '.join(NOTICES)}, got {notice!r}")
    tokens = (notice, stop)
    return Phrase(lang, tokens, caption_of(lang, tokens))
