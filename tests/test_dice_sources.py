"""The manual, virtual and serial-box dice sources behind the one interface the app uses."""

import collections
import os
import threading
import time
import tty

import pytest
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from companion.dice import DiceRolled, SourceState, open_source
from companion.dice.manual import ManualSource
from companion.dice.virtual import BalancedDeck, SeededDice
from firmware_bridge import codec, link
from firmware_bridge.simulator import Simulator


class Collector:
    """Rolls and statuses as the app would receive them, with waits instead of sleeps."""

    def __init__(self):
        self.rolls, self.states = [], []
        self._cond = threading.Condition()

    def on_roll(self, roll):
        with self._cond:
            self.rolls.append(roll)
            self._cond.notify_all()

    def on_status(self, status):
        with self._cond:
            self.states.append(status)
            self._cond.notify_all()

    def wait(self, predicate, timeout=10):
        with self._cond:
            assert self._cond.wait_for(lambda: predicate(self), timeout), (self.rolls, self.states)

    def saw(self, state, words=""):
        return any(s.state is state and words in s.detail for s in self.states)


# --- manual -------------------------------------------------------------------------------------

def test_a_tap_is_delivered_as_a_manual_roll():
    source, got = open_source("manual:"), Collector()
    assert isinstance(source, ManualSource)
    source.start(got.on_roll, got.on_status)
    source.tap(3, 4)
    assert [(r.values, r.source, r.confidence) for r in got.rolls] == [((3, 4), "manual", 1.0)]
    assert got.states[0].state is SourceState.CONNECTED


@pytest.mark.parametrize("faces, words", [((3, 7), "die 2 of the manual roll must be 1..6, got 7"),
                                          ((), "needs the dice faces"), ((0, 2), "die 1")])
def test_a_bad_tap_says_which_die_and_delivers_nothing(faces, words):
    source, got = open_source("manual:"), Collector()
    source.start(got.on_roll)
    with pytest.raises(ValueError, match=words):
        source.tap(*faces)
    assert got.rolls == []


# --- virtual ------------------------------------------------------------------------------------

def test_a_seed_gives_the_same_rolls_every_time():
    def rolls(url):
        source, got = open_source(url), Collector()
        source.start(got.on_roll)
        for _ in range(20):
            assert source.request_roll()
        return [r.values for r in got.rolls]
    assert rolls("virtual://?seed=4") == rolls("virtual://?seed=4") != rolls("virtual://?seed=5")
    assert all(len(v) == 2 and all(1 <= f <= 6 for f in v) for v in rolls("virtual://?seed=4"))


def test_the_balanced_deck_deals_every_pair_before_any_repeats():
    deck = BalancedDeck(seed=1, reshuffle=5)
    first = [deck.next() for _ in range(31)]
    assert len(set(first)) == 31                           # 36 cards less the 5 left at a reshuffle
    whole = BalancedDeck(seed=2, reshuffle=0)
    totals = collections.Counter(sum(whole.next()) for _ in range(36 * 3))
    assert totals == {t: 3 * (6 - abs(7 - t)) for t in range(2, 13)}   # exactly the odds, every 36


def test_seeded_dice_are_fair_enough():
    counts = collections.Counter(f for _ in range(6000) for f in SeededDice(seed=3).next())
    assert counts == collections.Counter(f for _ in range(6000) for f in SeededDice(seed=3).next())
    dice = SeededDice(seed=3)
    faces = collections.Counter(f for _ in range(6000) for f in dice.next())
    assert all(1800 < faces[f] < 2200 for f in range(1, 7))


def test_the_virtual_source_can_roll_by_itself():
    source, got = open_source("virtual://?seed=1&deck=1&every=0.01"), Collector()
    source.start(got.on_roll, got.on_status)
    got.wait(lambda g: len(g.rolls) >= 3)
    source.stop()
    assert got.states[-1].state is SourceState.IDLE and got.rolls[0].source == "virtual"


@pytest.mark.parametrize("url, words", [
    ("virtual://?sed=4", "unknown option 'sed'"),
    ("virtual://?seed=four", "seed='four' is not a int"),
    ("manual://extra", "manual takes no options"),
    ("box://", "name a port"),
    ("box:///dev/ttyACM0?speed=9600", "unknown option 'speed'"),
    ("box://auto?heartbeat=-1", "heartbeat='-1' is not a non-negative number"),
    ("sim://?corrupt=2", "corrupt='2' is a probability"),
    ("sim://?profile=turbo", "unknown simulator profile 'turbo'"),
])
def test_bad_source_urls_say_what_is_wrong(url, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace("?", r"\?")):
        open_source(url)


# --- the serial box -----------------------------------------------------------------------------

def start_sim(url="sim://?seed=7&profile=fast&every=0", heartbeat=None):
    source, got = open_source(url), Collector()
    if heartbeat is not None:
        source.heartbeat = heartbeat
    source.start(got.on_roll, got.on_status)
    got.wait(lambda g: g.saw(SourceState.CONNECTED, "DiceBox-2040 1.0.0"))
    return source, got


def test_the_simulated_box_rolls_on_request_and_shows_what_it_is_told():
    source, got = start_sim()
    try:
        assert source.request_roll()
        got.wait(lambda g: len(g.rolls) == 1)
        roll = got.rolls[0]
        assert roll.source == "box" and roll.roll_id.endswith("-1") and abs(roll.at - time.time()) < 5
        assert got.saw(SourceState.ROLLING)
        assert roll.values == source.simulator.generated[0].faces
        source.show((6, 5), (0, 128, 0))
        assert source.simulator.wait_for(lambda s: s.hal.shown == (6, 5) and s.hal.colour == (0, 128, 0), 5)
    finally:
        source.stop()


def test_a_silent_box_is_reported_disconnected_and_picked_up_again():
    source, got = start_sim(heartbeat=0.3)
    try:
        source.simulator.hang(800)
        got.wait(lambda g: g.saw(SourceState.DISCONNECTED, "no heartbeat"))
        n = len(got.states)
        got.wait(lambda g: any(s.state is SourceState.CONNECTED for s in g.states[n:]))
        source.request_roll()
        got.wait(lambda g: len(g.rolls) == 1)
    finally:
        source.stop()


def test_an_unplugged_box_is_reported_and_its_rolls_still_arrive_after_replug():
    source, got = start_sim()
    sim = source.simulator
    try:
        sim.unplug()
        got.wait(lambda g: g.saw(SourceState.DISCONNECTED, sim.path))
        sim.replug()
        sim.roll()
        got.wait(lambda g: len(g.rolls) == 1)
        assert sim.boots == 2 and got.rolls[0].values == sim.generated[0].faces
    finally:
        source.stop()


def test_a_missing_port_is_named_in_the_status():
    source, got = open_source("box:///dev/no-such-dice-box"), Collector()
    source.start(got.on_roll, got.on_status)
    try:
        got.wait(lambda g: g.saw(SourceState.SEARCHING, "/dev/no-such-dice-box: cannot open"))
    finally:
        source.stop()
    assert got.states[-1].state is SourceState.IDLE


def raw_pty():
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def test_a_box_speaking_another_protocol_version_is_an_error():
    master, slave, path = raw_pty()
    source, got = open_source(f"box://{path}"), Collector()
    source.start(got.on_roll, got.on_status)
    try:
        data = bytes([2, 0x84, 0, 0]) + bytes(10)
        frame = b"\x00" + codec.cobs_encode(data + codec.crc16(data).to_bytes(2, "big")) + b"\x00"
        deadline = time.monotonic() + 10
        while not got.saw(SourceState.ERROR, "protocol version 2") and time.monotonic() < deadline:
            os.write(master, frame)
            got.wait(lambda g: True, 0.1)
        assert got.saw(SourceState.ERROR, "protocol version 2")
    finally:
        source.stop()
        os.close(master), os.close(slave)


def test_auto_finds_the_port_that_answers_identify(monkeypatch):
    silent_master, silent_slave, silent = raw_pty()          # a USB-serial adapter with no box on it
    sim = Simulator(seed=1, profile="fast")
    path = sim.start()

    def comports():
        ports = []
        for device, vid, pid in ((silent, 0x1A86, 0x7523), (path, 0x2E8A, 0x0005), ("/dev/ttyS0", None, None)):
            info = ListPortInfo(device, skip_link_detection=True)
            info.vid, info.pid = vid, pid
            ports.append(info)
        return ports

    monkeypatch.setattr(serial.tools.list_ports, "comports", comports)
    try:
        assert [d for d, _ in link.candidate_ports()] == [path, silent]
        assert link.find_box(timeout=0.3) == path
        assert link.probe(silent, timeout=0.2) is None
        source, got = open_source("box://auto"), Collector()
        source.start(got.on_roll, got.on_status)
        try:
            got.wait(lambda g: g.saw(SourceState.CONNECTED, path))
            sim.roll()
            got.wait(lambda g: len(g.rolls) == 1)
        finally:
            source.stop()
    finally:
        sim.stop()
        os.close(silent_master), os.close(silent_slave)


def test_the_app_loop_shape_start_roll_stop():
    # What the tablet app does with any source: start, take rolls, stop; DiceRolled is the same type.
    for url in ("manual:", "virtual://?seed=2", "sim://?seed=2&profile=fast&every=0"):
        source, got = open_source(url), Collector()
        source.start(got.on_roll, got.on_status)
        if url == "manual:":
            source.tap(2, 5)
        else:
            got.wait(lambda g: g.saw(SourceState.CONNECTED))
            assert source.request_roll()
        got.wait(lambda g: len(g.rolls) == 1)
        source.stop()
        assert isinstance(got.rolls[0], DiceRolled) and got.states[-1].state is SourceState.IDLE


def test_a_refused_request_is_explained_without_calling_the_box_broken():
    source, got = start_sim()
    sim = source.simulator
    try:
        sim.box.caps &= ~codec.CAP_AUTO_ROLL                 # a box without a shaker motor
        assert source.request_roll()
        got.wait(lambda g: any("refused: not supported" in s.detail for s in g.states))
        assert source.status.state is SourceState.CONNECTED
    finally:
        source.stop()


@pytest.mark.parametrize("url, port, heartbeat", [
    ("box://auto", None, 3.0),
    ("box:///dev/ttyACM0", "/dev/ttyACM0", 3.0),
    ("box://COM3?heartbeat=5", "COM3", 5.0),
    ("box:///dev/serial/by-id/usb-Dice%20Box-if00", "/dev/serial/by-id/usb-Dice Box-if00", 3.0),
])
def test_box_urls_name_the_port(url, port, heartbeat):
    source = open_source(url)
    assert (source.name, source.port, source.heartbeat) == ("box", port, heartbeat)
