"""Tournament formats beyond one seating: byes, seating by score (Swiss), semi-final winners to the final, and
the play-off stage kept out of the qualifying standings.

Pure planning over what the desk hands in (players ranked, earlier rounds, results); the desk stores the plan.

- **Byes.** A field that tables of four and three cannot seat (5 players; 1 or 2 are no event) seats all but
  the fewest players it must leave out: those sit the round out with a *bye*. The bye goes to the player with
  the fewest byes so far, then the lowest in the standings (the leaders play), then the event's lot. A bye is
  not a game: it scores nothing (no win, no VP) and counts as no game played -- rank by an average (the
  ``german`` preset's share, or a custom preset) where that matters; an event whose preset has ``bye_win`` counts
  each bye as a win, a 1st place and its points (:func:`.scoring.standings`). Stored with the round (its ``byes``).
- **Seating by score** (``kind="score"``; the Japanese championship's rounds 3-4 are スイスドロー): the
  players in standings order fill the tables in turn -- places 1-4 at table 1, 5-8 at table 2, ... -- the
  tables of three last; then swaps between tables at most two apart avoid repeat opponents where they can
  (:func:`fewer_repeats`); seats within a table as the solver's (fewest repeated start positions).
- **Semi-final winners to the final** (``kind="final"`` after a ``semi`` round): the winner of each semi-final
  table goes to the final, as CATAN Studio's qualifiers do ("the winner of each one of those games move to the
  finals") -- not the top four of the standings, who may be four semi-final losers. A semi-final ended by time
  sends its sole VP leader (the preset's ``time_win``); a table without a winner is refused, naming it. Seats in
  the final follow the winners' places in the qualifying standings (the best-placed chooses first).
- **Stages.** Semi-final and final games are their own stage: the qualifying standings count only the other
  rounds (:func:`playoff_rounds`), so a semi-final is not a 4th game in them.
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from . import seating as seating_mod
from .scoring import Preset, TableResult, score_game

PLAYOFF_KINDS = ("semi", "final")


def seatable(n: int) -> bool:
    return n in (3, 4) or n >= 6


def bye_count(n: int) -> int:
    """How many players must sit out so that the rest fill tables of four and three (5 players: 1)."""
    for byes in range(n + 1):
        if seatable(n - byes):
            return byes
    raise seating_mod.SeatingError(f"{n} players cannot be seated", "cannot_seat", n=n)


def choose_byes(ranked: Sequence[int], count: int, byes_before: Mapping[int, int], seed: str,
                round_no: int) -> tuple[int, ...]:
    """``count`` players to sit out: fewest byes so far, then lowest in ``ranked`` (best first), then lot."""
    if not count:
        return ()
    lot = list(ranked)
    random.Random(f"{seed}:bye:{round_no}").shuffle(lot)
    place = {p: i for i, p in enumerate(ranked)}
    order = sorted(ranked, key=lambda p: (byes_before.get(p, 0), -place[p], lot.index(p)))
    return tuple(order[:count])


def by_score(ranked: Sequence[int], round_no: int, history: seating_mod.History, seed: str) -> tuple:
    """Tables filled in standings order (fours first, threes last), then players swapped between nearby tables
    where that makes fewer earlier opponents meet again (:func:`fewer_repeats`); seats by fewest repeated start
    positions."""
    sizes = seating_mod.table_sizes(len(ranked))
    rng = random.Random(f"{seed}:score:{round_no}")
    blocks, i = [], 0
    for size in sizes:
        blocks.append(list(ranked[i:i + size]))
        i += size
    return tuple(seating_mod._order_seats(table, history, rng) for table in fewer_repeats(blocks, history))


SCORE_REACH = 2  # seating by score moves a player at most this many tables from their standings' table


def fewer_repeats(blocks: list[list[int]], history: seating_mod.History, reach: int = SCORE_REACH) -> list[list[int]]:
    """Seating by score with repeat opponents avoided where possible: from the standings' tables ``blocks``, swaps
    of two players at tables at most ``reach`` apart, each taken when it makes fewer pairs at those tables meet
    again -- or as many, with the players nearer their standings' tables (the sum of the tables each player is
    moved) -- until no swap helps. A local search: it leaves a repeat that only a longer chain of swaps, or a
    player moved further, would avoid; the leaders stay at the top tables. Deterministic (the standings' order)."""
    home = {p: t for t, block in enumerate(blocks) for p in block}
    tables = [list(block) for block in blocks]

    def cost(table: list[int], t: int) -> tuple[int, int]:
        again = sum(1 for i, a in enumerate(table) for b in table[i + 1:] if (min(a, b), max(a, b)) in history.meetings)
        return again, sum(abs(home[p] - t) for p in table)

    def better() -> bool:
        for t in range(len(tables)):
            for u in range(t + 1, min(len(tables), t + reach + 1)):
                before = tuple(map(sum, zip(cost(tables[t], t), cost(tables[u], u))))
                for i in range(len(tables[t])):
                    for j in range(len(tables[u])):
                        if abs(home[tables[t][i]] - u) > reach or abs(home[tables[u][j]] - t) > reach:
                            continue  # nobody ends up further than ``reach`` from their standings' table
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
                        if tuple(map(sum, zip(cost(tables[t], t), cost(tables[u], u)))) < before:
                            return True
                        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
        return False

    while better():  # each swap taken lowers (repeats, players moved): the search ends
        pass
    return tables


def table_winner(result: TableResult, preset: Preset, vp_target: int) -> int | None:
    """The player the preset counts as the table's winner (a time-limited game's sole VP leader, if it says so)."""
    won = [s.player for s in score_game(result, preset, vp_target) if s.won]
    return won[0] if won else None


def finalists(semi_tables: Sequence[Sequence[int]], results: Mapping[int, TableResult], preset: Preset,
              vp_target: int, ranked: Sequence[int]) -> tuple[int, ...]:
    """The winners of the semi-final tables (``results`` by table number), best-placed in ``ranked`` first."""
    winners, missing = [], []
    for t, _table in enumerate(semi_tables, start=1):
        result = results.get(t)
        winner = None if result is None else table_winner(result, preset, vp_target)
        if winner is None:
            missing.append(t)
        else:
            winners.append(winner)
    if missing:
        raise seating_mod.SeatingError(
            f"semi-final table(s) {', '.join(map(str, missing))} have no winner (no result, or a game ended by "
            "time with VP leaders level): enter or correct the result, or seat the final by hand")
    if len(winners) not in (3, 4):
        raise seating_mod.SeatingError(f"{len(winners)} semi-final winners do not make a final table of 3 or 4; "
                                       "seat the final by hand")
    place = {p: i for i, p in enumerate(ranked)}
    return tuple(sorted(winners, key=lambda p: place.get(p, len(place))))


def playoff_rounds(rounds) -> set[int]:
    """The numbers of the semi-final and final rounds (the play-off stage)."""
    return {r.number for r in rounds if r.kind in PLAYOFF_KINDS}


def byes_of(rnd) -> tuple[int, ...]:
    """The players a stored round gave a bye."""
    return tuple((rnd.cost or {}).get("byes", ()))


def plan(desk, ev, number: int, players, history: seating_mod.History, kind: str):
    """The next round's seating when a format of this module applies, else None (the desk's own planning).

    ``players``: the active players; ``history``: the earlier rounds."""
    rounds = desk.rounds(ev.id)
    semis = [r for r in rounds if r.kind == "semi"]
    if kind == "final" and semis and rounds[-1].kind == "semi":
        desk._check_round_complete(ev.id, number - 1)
        last = semis[-1]
        results = {r.table: r.as_table_result() for r in desk.results(ev.id) if r.round == last.number}
        table = finalists(last.tables, results, ev.preset, ev.vp_target, _ranked(desk, ev, players))
        return seating_mod.Seating(number, (table,), seating_mod.seating_cost([table], number, history,
                                                                              weights=ev.weights))
    if kind not in ("swiss", "score"):
        return None
    ids = [p.id for p in players]
    count = bye_count(len(ids)) if ids else 0
    if kind == "swiss" and not count:
        return None
    ranked = _ranked(desk, ev, players)
    byes_before: dict[int, int] = {}
    for r in rounds:
        for p in byes_of(r):
            byes_before[p] = byes_before.get(p, 0) + 1
    byes = choose_byes(ranked, count, byes_before, ev.seed, number)
    playing = [p for p in ranked if p not in byes]
    if not playing:
        raise seating_mod.SeatingError("no active players to seat", "no_players")
    if kind == "score":
        tables = by_score(playing, number, history, ev.seed)
        groups = {p.id: p.groups for p in players}
        seated = seating_mod.Seating(number, tables, seating_mod.seating_cost(tables, number, history, groups=groups,
                                                                              weights=ev.weights))
    else:
        seated = seating_mod.seat_round(sorted(playing), number, history, groups={p.id: p.groups for p in players},
                                        seed=ev.seed, weights=ev.weights)
    return seating_mod.Seating(seated.round, seated.tables, seated.cost, byes)


def _ranked(desk, ev, players) -> list[int]:
    active = {p.id for p in players}
    return [s.player for s in desk.standings(ev.id) if s.player in active]


# --- leagues: one ranking over several events (evenings of a club league, a qualifier season) -----------------
def league_standings(desk, events: Sequence, *, preset: Preset | None = None):
    """One ranking over the qualifying games of several events of one desk (file or shared database): a player
    is the same person in every event under the same name (case ignored). Ranked by ``preset`` (default: the
    first event's), VP counted up to the first event's win target. Returns ``(standings, names)``: the standings
    rows' ``player`` are keys of ``names``."""
    import unicodedata

    from .scoring import standings as compute_standings

    if not events:
        raise seating_mod.SeatingError("a league needs at least one event")
    evs = [desk.event(e) for e in events]
    if len({ev.id for ev in evs}) != len(evs):
        raise seating_mod.SeatingError("an event is named twice")
    key_of: dict[str, int] = {}
    names: dict[int, str] = {}

    def person(name: str) -> int:
        key = unicodedata.normalize("NFC", name).casefold()
        if key not in key_of:
            key_of[key] = len(key_of) + 1
            names[key_of[key]] = name
        return key_of[key]

    results = []
    for i, ev in enumerate(evs):
        event_names = desk.names(ev.id)
        for p in event_names.values():
            person(p)
        playoffs = playoff_rounds(desk.rounds(ev.id))
        for r in desk.results(ev.id):
            if r.round in playoffs:
                continue
            results.append(TableResult(i * 10_000 + r.round, r.table,
                                       {person(event_names[p]): v for p, v in r.vp.items()},
                                       None if r.winner is None else person(event_names[r.winner]), r.ended_by_time))
    rows = compute_standings(sorted(names), results, preset or evs[0].preset, evs[0].vp_target, seed=evs[0].seed)
    return rows, names
