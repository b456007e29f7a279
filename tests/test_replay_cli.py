"""``python -m companion replay``: the public JSON shape, and bad records refused with a clear message."""

import json
import subprocess
import sys
from pathlib import Path

SCENARIOS = Path(__file__).parent / "scenarios"


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, cwd=cwd)


def scenario_record(name):
    """The record of tests/scenarios/``name``.json as JSON, to replay as it is or spoilt."""
    return json.loads((SCENARIOS / f"{name}.json").read_text())["record"]


def replay(tmp_path, record):
    """``replay`` run as a user runs it, on ``record`` written to a file."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return run("replay", str(path))


def test_replay_prints_the_documented_fields(tmp_path):
    result = replay(tmp_path, scenario_record("production_robber_city_shortage"))
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    for key in ("players", "longest_road", "largest_army", "robber", "turn", "winner", "last_roll"):
        assert key in state
    for player in state["players"]:
        assert {"vp", "visible_vp", "hand_size", "longest_road", "knights"} <= set(player)
    assert state["turn"] == {"player": 2, "phase": "main", "number": 6, "waiting_for": 2}
    assert state["last_roll"] == {"dice": [2, 3], "payouts": [{"lumber": 1}, {}, {"brick": 1}]}
    assert state["robber"] == [0, 0] and state["winner"] is None


def test_a_bad_event_is_named_by_index_with_exit_status_2(tmp_path):
    record = scenario_record("longest_road_simple")
    record["events"][14]["at"] = [[0, 0], [5, 5]]
    result = replay(tmp_path, record)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "event 14 (build)" in result.stderr and "not neighbours" in result.stderr


def test_broken_json_names_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "catan-record/1",\n "game": "base",,}')
    result = run("replay", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 2 column" in result.stderr


def test_a_bad_board_names_the_hex(tmp_path):
    record = scenario_record("longest_road_simple")
    desert = next(h for h in record["board"]["hexes"] if h["terrain"] == "desert")
    desert["number"] = 7
    result = replay(tmp_path, record)
    assert result.returncode == 2
    assert "hex [0, 0]: desert must carry no number" in result.stderr


def test_the_bundled_example_replays():
    root = Path(__file__).parent.parent
    result = run("replay", str(root / "companion" / "assets" / "games" / "example-base.json"))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["turn"]["number"] > 50


def test_replay_prints_the_high_tide_state(tmp_path):
    """High Tide adds the pirate, trade routes and the tide's phase, leader, floods, dikes and sinkings."""
    result = replay(tmp_path, scenario_record("tide_flood_sinks_settlement_and_longest_road"))
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert "pirate" in state and all("longest_route" in p for p in state["players"])
    tide = state["high_tide"]
    assert {"phase", "round", "leader", "leader_turns_left", "flooded", "dikes", "sunk"} <= set(tide)
    assert (tide["phase"], tide["round"], tide["leader"], tide["flooded"]) == ("high_tide", 1, 0, [[0, 0]])
    assert tide["sunk"][0] == {"settlements": 1, "cities": 0, "roads": 2}
    assert "ranking" not in tide  # only once the game has ended


def test_example_games_of_every_game_replay(tmp_path):
    for game in ("base56", "seafarers", "high-tide", "starfarers", "card-game"):
        result = run("example", "--game", game, "--seed", "2", "--max-events", "150")
        assert result.returncode == 0, result.stderr
        path = tmp_path / f"{game}.json"
        path.write_text(result.stdout)
        assert json.loads(path.read_text())["game"] == game
        replayed = run("replay", str(path))
        assert replayed.returncode == 0, replayed.stderr
        assert json.loads(replayed.stdout)["turn"]["phase"] != "setup_settlement", game  # it was played


def test_the_bundled_high_tide_example_is_a_finished_game():
    result = run("replay", str(Path(__file__).parents[1] / "companion" / "assets" / "games" / "example-high-tide.json"))
    state = json.loads(result.stdout)
    assert state["high_tide"]["phase"] == "ended" and state["winner"] == state["high_tide"]["ranking"][0]
    assert state["high_tide"]["flooded"] and any(sum(s.values()) for s in state["high_tide"]["sunk"])


PLAYER_FIELDS = {"vp", "visible_vp", "hand_size", "longest_road", "knights"}
TOP_FIELDS = {"players", "longest_road", "largest_army", "robber", "turn", "winner", "last_roll"}
TIDE_FIELDS = {"phase", "round", "leader", "leader_turns_left", "flooded", "dikes", "sunk"}


def _scenario_records():
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text())
        if "expect_error" not in data and data["record"]["game"] in ("base", "base56", "seafarers", "high-tide"):
            yield path.stem, data


def test_every_scenario_game_replays_through_the_command_with_the_issue_fields(tmp_path, capsys):
    """``replay`` on each scenario's record prints every field issues 2 and 3 name, with the values the
    scenario expects (the same check test_scenarios makes on the rules, here through the command)."""
    from companion.record.cli import replay_main
    from test_scenarios import assert_subset

    seen = set()
    for name, data in _scenario_records():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data["record"]))
        assert replay_main([str(path)]) == 0, name
        out, err = capsys.readouterr()
        state = json.loads(out)
        game = data["record"]["game"]
        seen.add(game)
        assert TOP_FIELDS <= set(state) and set(state["turn"]) >= {"player", "phase"}, name
        assert all(PLAYER_FIELDS <= set(p) for p in state["players"]), name
        if state["last_roll"] is not None:
            assert set(state["last_roll"]) == {"dice", "payouts"} and len(state["last_roll"]["payouts"]) == len(state["players"])
        if game in ("seafarers", "high-tide"):
            assert "pirate" in state and all("longest_route" in p for p in state["players"]), name
        if game == "high-tide":
            tide = state["high_tide"]
            assert TIDE_FIELDS <= set(tide), name
            assert ("ranking" in tide) == (tide["phase"] == "ended"), name
            assert all(set(s) == {"settlements", "cities", "roads"} for s in tide["sunk"]), name
        assert_subset(data.get("expect", {}), state, name)
    assert seen == {"base", "base56", "seafarers", "high-tide"}


def test_a_journal_game_is_exported_as_a_record_that_replays_with_its_roll_photos(tmp_path):
    """``journal export``: a game played in the app comes out as the record ``replay`` reads, the same state,
    and each camera roll's photo as a file named by its event and dice."""
    from companion.dice import DiceRolled, RollPhoto
    from companion.record import Record, parse_record
    from companion.record.journal import Journal
    from companion.table import Table

    full = parse_record(scenario_record("production_robber_city_shortage"))
    journal_path = tmp_path / "journal.sqlite3"
    with Journal(journal_path) as journal:
        table = Table.create(journal, Record(full.game, full.players, full.board, full.options), title="Friday")
        for event in full.events[:12]:
            table.submit(event)
        table.roll(DiceRolled((6, 2), "camera", 0.9, roll_id="camera-0a1b2c3d-1"), RollPhoto(b"misread"))
        table.undo()  # read wrong: put right by hand
        table.roll(DiceRolled((5, 3), "manual"))
        table.submit({"type": "end_turn"})
        table.roll(DiceRolled((5, 3), "camera", 0.9, roll_id="camera-0a1b2c3d-2"), RollPhoto(b"\xff\xd8jpeg\xff\xd9"))
        game_id = table.game_id
        expected = table.game.summary()

    listed = run("journal", "--journal", str(journal_path), "list", "--json")
    assert listed.returncode == 0, listed.stderr
    [game] = json.loads(listed.stdout)
    assert (game["id"], game["title"], game["game"], game["events"], game["finished"]) == (game_id, "Friday", "base", 15, False)

    exported = run("journal", "--journal", str(journal_path), "export", str(game_id),
                   "--out", str(tmp_path / "friday.json"), "--photos", str(tmp_path / "photos"))
    assert exported.returncode == 0, exported.stderr
    assert "1 roll photo(s) written" in exported.stderr and "1 misread(s) put right by hand" in exported.stderr
    assert sorted(p.name for p in (tmp_path / "photos").iterdir()) == [
        "event-0014-roll-5+3.jpg", "misread-camera-0a1b2c3d-1-read-2+6-entered-3+5.jpg"]
    assert (tmp_path / "photos" / "event-0014-roll-5+3.jpg").read_bytes() == b"\xff\xd8jpeg\xff\xd9"
    assert (tmp_path / "photos" / "misread-camera-0a1b2c3d-1-read-2+6-entered-3+5.jpg").read_bytes() == b"misread"
    replayed = run("replay", str(tmp_path / "friday.json"))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == json.loads(json.dumps(expected))


def test_exporting_a_game_the_journal_does_not_hold_says_so_and_writes_nothing(tmp_path):
    from companion.record.journal import Journal

    Journal(tmp_path / "journal.sqlite3").close()
    result = run("journal", "--journal", str(tmp_path / "journal.sqlite3"), "export", "7", "--out", str(tmp_path / "x.json"))
    assert result.returncode == 2 and "there is no game 7" in result.stderr
    assert not (tmp_path / "x.json").exists()
    missing = run("journal", "--journal", str(tmp_path / "elsewhere.sqlite3"), "list")
    assert missing.returncode == 2 and "no journal there" in missing.stderr
    assert not (tmp_path / "elsewhere.sqlite3").exists()


def test_a_tables_camera_rolls_come_out_as_labelled_photos_that_vision_evaluate_scores(tmp_path):
    """``journal export --dataset``: each camera roll's tray, as the camera saw it with nothing drawn, and its dice
    labelled with the faces the table recorded -- a roll put right by hand labelled with the faces entered (the
    die read wrong takes the face left over).  ``vision evaluate`` then scores the camera at this table: the
    misread counts against it.  Real parts: the camera source over a video of two throws of real die crops."""
    import threading

    sys.path.insert(0, str(Path(__file__).parent))
    from test_vision_rolls import TRAY_SET, write_video

    from companion.dice import DiceRolled, SourceState, open_source
    from companion.record import Record, parse_record
    from companion.record.journal import Journal
    from companion.table import Table
    from vision import dataset
    from vision.reader import DiceReader
    from vision.synthetic import SequenceBuilder, studio_tray_and_crops

    tray, crops = studio_tray_and_crops(DiceReader(), dataset.list_images(TRAY_SET)[:40])
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    builder = SequenceBuilder(tray, seed=7).still(6).throw(by_face, (3, 5), [(240, 280), (400, 330)]).still(12)
    builder.throw(by_face, (6, 2), [(300, 200), (200, 420)], pick=1).still(12)
    source = open_source(f"camera://{write_video(builder.frames, tmp_path / 'tray.avi')}")
    source.data_dir, rolls, done = tmp_path, [], threading.Event()
    source.start(rolls.append, lambda s: s.state in (SourceState.IDLE, SourceState.ERROR) and done.set())
    assert done.wait(60)
    source.stop()
    assert [sorted(r.values) for r in rolls] == [[3, 5], [2, 6]]

    full = parse_record(scenario_record("production_robber_city_shortage"))
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = Table.create(journal, Record(full.game, full.players, full.board, full.options))
        for event in full.events[:12]:
            table.submit(event)
        table.roll(rolls[0], rolls[0].photo)  # each roll carries its photo
        table.submit({"type": "end_turn"})
        table.roll(rolls[1], rolls[1].photo)
        table.undo()  # the table says the 2 was a 3
        table.roll(DiceRolled((6, 3), "manual"))
        game_id = table.game_id

    out = tmp_path / "at-our-table"
    exported = run("journal", "--journal", str(tmp_path / "journal.sqlite3"), "export", str(game_id),
                   "--out", str(tmp_path / "game.json"), "--dataset", str(out))
    assert exported.returncode == 0, exported.stderr
    assert "2 labelled photo(s) written" in exported.stderr
    assert "(1 checked by a player, 1 as the camera read them)" in exported.stderr  # the roll put right is vouched
    labels = {p.stem.split("-camera-")[1]: sorted(int(line.split()[0]) + 1 for line in p.read_text().splitlines())
              for p in (out / "labels").iterdir()}
    assert sorted(labels.values()) == [[3, 5], [3, 6]]
    scored = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(out), "--json"], capture_output=True,
                            text=True, cwd=Path(__file__).resolve().parents[1])
    assert scored.returncode == 0, scored.stderr
    score = json.loads(scored.stdout)
    assert score["dice"] == 4 and score["die_accuracy"] == 0.75 and score["invented"] == 0  # the misread counts
    every = tmp_path / "every-game"  # the whole journal at once: the same photos
    assert run("journal", "--journal", str(tmp_path / "journal.sqlite3"), "dataset", str(every)).returncode == 0
    assert sorted(p.name for p in (every / "labels").iterdir()) == sorted(p.name for p in (out / "labels").iterdir())
    vouched = tmp_path / "vouched"  # only labels a person gave: fit to teach the camera with
    assert run("journal", "--journal", str(tmp_path / "journal.sqlite3"), "dataset", str(vouched),
               "--checked-only").returncode == 0
    [label] = (vouched / "labels").iterdir()
    assert sorted(int(line.split()[0]) + 1 for line in label.read_text().splitlines()) == [3, 6]


def test_which_die_was_which_when_a_roll_was_put_right():
    from companion.record.cli import labelled_dice

    a, b = (10, 10, 30, 30), (80, 10, 30, 30)
    cases = [
        ([(*a, 3), (*b, 5)], [5, 3], [3, 5]),        # not put right: as read
        ([(*a, 3), (*b, 5)], [5, 4], [4, 5]),        # the die read 3 was the 4
        ([(*a, None), (*b, 5)], [5, 2], [2, 5]),     # an unread die takes the face left over
        ([(*a, 3), (*b, 5)], [6, 4], None),          # both read wrong: which was which is not known
        ([(*a, 3)], [3, 5], None),                   # a die the camera did not see
        ([(*a, 4), (*b, 4)], [4, 2], None),          # a double read, one wrong: which one is not known
        ([(*a, 4), (*b, 4)], [4, 4], [4, 4]),        # a double, as read
    ]
    for boxes, said, faces in cases:
        got = labelled_dice(boxes, said)
        assert (got if got is None else [box[4] for box in got]) == faces, (boxes, said)
