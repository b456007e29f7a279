"""``python -m firmware_bridge simulate`` and ``monitor`` as a person building a box runs them."""

import subprocess
import sys

from firmware_bridge.simulator import Simulator


def run(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "firmware_bridge", *args], capture_output=True, text=True,
                          timeout=timeout)


def simulated_and_monitored(simulate_args, monitor_args):
    """``simulate`` (seed 3, the fast profile) started on its own pseudo-terminal and ``monitor`` run on the port
    it prints, as two people at two terminals would; the monitor's run, the simulator's exit status and log."""
    proc = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "simulate", "--seed", "3", "--profile",
                             "fast", *simulate_args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        path = proc.stdout.readline().strip()
        monitor = run("monitor", path, *monitor_args)
        _out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    return monitor, proc.returncode, err


def test_monitor_prints_what_the_box_says_and_acks_results():
    sim = Simulator(seed=5, profile="fast", rolls=3)
    path = sim.start()
    try:
        done = run("monitor", path, "--identify", "--ack", "--duration", "3")
        acked = sim.wait_for(lambda s: len(s.generated) == 3 and s.box is not None and not s.box.pending, 5)
    finally:
        sim.stop()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any("Identify model=DiceBox-2040 firmware=1.0.0" in line and "req=1" in line for line in lines)
    results = [line for line in lines if "RollResult" in line]
    for r in sim.generated:
        assert any(f"roll={r.roll_id} faces={r.faces[0]}+{r.faces[1]}=" in line for line in results)
    assert acked                          # --ack emptied the box's queue of unacked results


def test_monitor_names_a_port_it_cannot_open():
    done = run("monitor", "/dev/no-such-box")
    assert done.returncode == 2 and "/dev/no-such-box: cannot open" in done.stderr


def test_simulate_prints_its_port_then_runs_the_box():
    monitor, returncode, err = simulated_and_monitored(["--every", "0.05", "--duration", "2"],
                                                       ["--ack", "--count", "2"])
    assert monitor.returncode == 0 and len(monitor.stdout.splitlines()) == 2
    assert returncode == 0 and "simulate: rolled" in err


def test_simulate_refuses_a_probability_above_one():
    done = run("simulate", "--corrupt", "3")
    assert done.returncode == 2 and "--corrupt is a probability" in done.stderr


def test_simulate_logs_every_roll_it_makes_even_those_made_while_it_prints():
    monitor, _returncode, err = simulated_and_monitored(["--every", "0", "--rolls", "100000", "--duration", "4"],
                                                        ["--ack", "--duration", "3"])
    logged = [int(line.rsplit("roll ", 1)[1].rstrip(")")) for line in err.splitlines() if "simulate: rolled" in line]
    seen = {int(line.split("roll=")[1].split()[0]) for line in monitor.stdout.splitlines() if "RollResult" in line}
    assert len(logged) > 50, err[-500:]
    assert logged == list(range(1, len(logged) + 1))  # one boot: roll ids 1, 2, 3 ... none left out
    assert seen <= set(logged)
