"""The game-over panel of the board games (base, Seafarers, High Tide) on the play screen: the ranking, with
what put tied players in their order, and the way on (a new game for the same table).

The places are the rules core's (``Outcome.places``: the winner, then victory points, level players sharing
the better place; High Tide looks at resource cards in hand too, its tie-break, seed 002). Two players on the
same points read "3. Ben — 3 VP" and "4. Dan — 3 VP" and nothing said why Ben came first (playtest s11, High
Tide for 5 played to its end by taps): in High Tide a player level on points with another is shown with the
cards in hand that placed them, and players level on both share their place; in the other games players level
on points share their place (session 18).

Players level on both at the top share the win (seed 002 breaks a tie on points by the cards and says no more):
the heading names them all, "Game over — Aki and Chie share the win" / 「ゲーム終了 — AkiとChieの同点勝ち」
(it named the first in seat order alone over two "1." lines: playtest s11).
"""

from __future__ import annotations

from kivy.metrics import dp, sp
from kivy.uix.label import Label

from .widgets import BigButton, app


def ranking_lines(g) -> list[str]:
    """``g``'s final places, a line a player: "1. Chie — 10 VP", "2. Ben — 3 VP" and "2. Dan — 3 VP" when level.

    The places are the rules core's (``Outcome.places``, the one the voice says): the winner first, the others by
    VP, level players sharing the better place (a base game: a player level on points with another shared
    nothing with them here, "3. Ben — 3 VP (5 cards)" over "4. Dan — 3 VP (2 cards)", as if cards in hand placed
    players: they do not; session 18). High Tide places players level on points by their resource cards (seed
    002): there a player level on points with another shows the cards that placed them, "3. Ben — 3 VP (5 cards)".
    A game the tournament desk ended by the round's time limit is placed as the desk places it (VP alone, equal VP
    sharing the better place), with no cards: the tablet ranked "1. Aki — 2 VP (4 cards)" over three players the
    desk had all in 1st place (session 15's tournament trial)."""
    a = app()
    places = g.outcomes[-1].places if g.outcomes and g.outcomes[-1].places else g.places()
    seats = [p for held in places for p in held]
    vp = {p: g.victory_points(p) for p in seats}
    cards = {p: g.state.players[p].hand.size for p in seats}
    # cards in hand are said where they placed players: a game whose places look past the points (High Tide)
    by_cards = getattr(g, "ended_by_time", None) is None and any(len(g.place_key(p)) > 1 for p in seats)
    lines: list[str] = []
    place = 1
    for held in places:
        for p in held:
            level = by_cards and any(vp[q] == vp[p] for q in seats if q != p)
            tie_break = a.tr("ranking_cards", n=cards[p]) if level else ""
            lines.append(f"{place}. {a.player_name(p)} — {vp[p]} {a.tr('vp')}{tie_break}")
        place += len(held)
    return lines


def winners(g) -> tuple[int, ...]:
    """Who won ``g`` (the rules core's word: every player who shares a win), the winner alone for a game that
    cannot end shared."""
    named = getattr(g, "winners", None)
    return tuple(named()) if named is not None else ((g.state.winner,) if g.state.winner is not None else ())


def names_joined(names: list[str], lang: str) -> str:
    """Players named together: "Aki and Chie", "Aki, Ben and Chie" / "AkiとChie", "Aki、BenとChie"."""
    if len(names) < 2:
        return "".join(names)
    if lang == "ja":
        return "、".join(names[:-1]) + "と" + names[-1]
    return ", ".join(names[:-1]) + " and " + names[-1]


def game_over_heading(g) -> tuple[str, str]:
    """The prompt's text key and name at the end: ("p_game_over", "Aki"), or at a shared win
    ("p_game_over_shared", "Aki and Chie")."""
    a = app()
    names = [a.player_name(p) for p in winners(g)] or [a.player_name(g.state.winner)]
    return ("p_game_over", names[0]) if len(names) == 1 else ("p_game_over_shared", names_joined(names, a.lang))


def play_again_button() -> BigButton:
    """The way on: the new-game form holding this table (NewGameScreen.same_table), one tap from its Start; for
    the tournament desk's game, the Tournament table screen (the next round's seat is found there): "New game,
    same players" there started a game outside the tournament (session 16's trial)."""
    if desks_game():
        from .tournament_table import text as desk_text

        button = BigButton(text=desk_text("menu"))
        button.bind(on_release=lambda _b: app().go("tournament_table"))
        return button
    button = BigButton(text=app().tr("play_again"))
    button.bind(on_release=lambda _b: play_again())
    return button


def desks_game() -> bool:
    """Whether the game open is the one this tablet plays for the tournament desk (its link sends it)."""
    a = app()
    link, table = getattr(a, "desk_link", None), a.table
    sender = getattr(link, "sender", None)
    return sender is not None and table is not None and sender.assignment.game_id == table.game_id


def play_again() -> None:
    a = app()
    a.root.get_screen("new_game").same_table(a.table.record)
    a.go("new_game")


def game_over_widgets(g) -> list:
    """The panel under the prompt at a game's end: the ranking, then the way on ("New game, same players", or
    for the desk's game "Tournament table"), both in sight.

    The ranking is as tall as its lines (it was 40 dp a line, its words centred in it), in 22 sp up to four
    players and 18 sp for five or six: High Tide for six ended with the button wholly below the view lying down
    (1280x800: the view 264 px, the ranking alone 280) and 42 of its 60 px below it upright."""
    lines = ranking_lines(g)
    ranking = Label(text=app().tr("ranking") + "\n" + "\n".join(lines), font_size=sp(22 if len(lines) <= 4 else 18),
                    size_hint_y=None, halign="center")
    ranking.bind(texture_size=lambda w, size: setattr(w, "height", size[1] + dp(8)))
    return [ranking, play_again_button()]
