"""Benchmark of spoken announcements (issue 6): outcome published → first sample handed to the audio device.

    .venv/bin/python bench/bench_announce.py [--count 400] [--cuts 200] [--device alsa-null|alsa-file|pulse-null|default]

For each announcement the clock starts when ``Announcer.on_outcome`` is called (the moment the Table publishes)
and stops when the first block of samples has been written to the sounddevice output stream, i.e. handed to
PortAudio (``Announcement.latency``).  The outcomes are every spoken outcome of the two example games
(``companion/assets/games/``), taken in turn and alternately in English and Japanese, each announced when nothing is
being said (the table is quiet when the dice land; each phrase is stopped once its first sample is out, so a
device that plays in real time need not play them all to the end).

``--device alsa-null`` (the default) runs the measurement in a child process whose HOME has an ``.asoundrc``
routing ALSA's default device to its ``null`` plugin: the real sounddevice → PortAudio → ALSA path, without a
sound card (a build machine has none).  ``--device alsa-file`` routes it to ALSA's ``file`` plugin instead (the
end-to-end test's set-up: every block is also written to a WAV file).  ``--device default`` uses the machine's
own default output.  ``--device pulse-null`` (needs the pulseaudio and libasound2-plugins packages) starts a
private PulseAudio server with a null sink, which plays in real time, and routes ALSA's default device to it.

``--cuts N`` also times N rolls that each arrive while the previous roll is being spoken, through Kivy's
player on SDL2's "disk" audio driver, which plays in real time into a file (here /dev/null), and through
sounddevice when the device plays in real time (``pulse-null``, ``default``): the superseding path of the queue
on a device that, like a sound card, takes as long as the sound lasts.

Also timed, in this process: the two parts of the path that are ours, phrase building and rendering the
phrase's samples from the clips in memory.  Prints a Markdown table for docs/performance.md.  Timings are for
reading, never pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion import assets  # noqa: E402
from companion.announce import Announcer, library, phrase_for_outcome  # noqa: E402
from companion.record import load_record, replay  # noqa: E402


def spoken_outcomes():
    """(colours, outcome) for every outcome of the example games that has something to say."""
    out = []
    for path in sorted(assets.path("games").glob("*.json")):
        record = load_record(path)
        colors = [p["color"] for p in record.players]
        out += [(colors, o) for o in replay(record).outcomes if phrase_for_outcome(o, colors, "en")]
    return out


def measure_device(count: int) -> dict:
    """Announce ``count`` outcomes through the default player; the latencies and what played them."""
    cases = spoken_outcomes()
    announcers = {}
    latencies, problems, player = [], [], None
    for n in range(count):
        colors, outcome = cases[n % len(cases)]
        key = tuple(colors)
        if key not in announcers:  # one announcer per seating, as at a table; its stream opened in advance
            announcers[key] = Announcer(colors, player="auto")
            announcers[key].add_problem_listener(problems.append)
            announcers[key].wait_idle()
            time.sleep(0.2)  # let its worker load the clips and open the stream
        announcer = announcers[key]
        announcer.language = "en" if n % 2 == 0 else "ja"
        said = announcer.on_outcome(outcome)
        # Once its first sample is out, stop the phrase (mute cuts it): on a device that plays in real time
        # the bench need not listen to every phrase to the end; on ALSA's null/file plugins it has ended.
        deadline = time.monotonic() + 5
        while said.first_sample_at is None and said.status in ("queued", "playing") and time.monotonic() < deadline:
            time.sleep(0.0005)
        announcer.muted = True
        announcer.wait_idle(60)
        announcer.muted = False
        player = announcer.player_name
        if said.latency is not None:
            latencies.append(said.latency)
        time.sleep(0.002)
    for announcer in announcers.values():
        announcer.close()
    return {"player": player, "latencies": latencies, "problems": problems}


def measure_cuts(count: int, player: str) -> dict:
    """Rolls that arrive while the previous roll is still being spoken (0.1 s into it).

    Each roll cuts the one before: the latency is the queue's superseding path on a device that plays in
    real time (SDL2's disk driver, or a PulseAudio null sink, paces itself like a sound card).
    """
    path = sorted(assets.path("games").glob("*.json"))[0]
    record = load_record(path)
    colors = [p["color"] for p in record.players]
    rolls = [o for o in replay(record).outcomes if o.kind == "roll"]
    problems: list[str] = []
    announcer = Announcer(colors, player=player)
    announcer.add_problem_listener(problems.append)
    time.sleep(0.5)
    latencies, statuses = [], []
    previous = None
    for n in range(count + 1):
        said = announcer.on_outcome(rolls[n % len(rolls)])
        deadline = time.monotonic() + 5
        while said.first_sample_at is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        if previous is not None:
            statuses.append(previous.status)
            if said.latency is not None:
                latencies.append(said.latency)
        previous = said
        time.sleep(0.1)
    player = announcer.player_name
    announcer.close()
    return {"player": player, "latencies": latencies, "problems": problems,
            "cut": statuses.count("cut"), "of": len(statuses)}


ASOUNDRC = {
    "alsa-null": "pcm.!default {{\n type null\n}}\n",
    "alsa-file": 'pcm.!default {{\n type file\n slave.pcm "null"\n file "{home}/out.wav"\n format "wav"\n}}\n',
    "pulse-null": "pcm.!default {{\n type pulse\n}}\nctl.!default {{\n type pulse\n}}\n",
}


def in_child(device: str, count: int, cuts: bool = False) -> dict:
    """Run the measurement in a child process whose audio goes where ``device`` says."""
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ALSA", "KIVY", "SDL", "PULSE"))}
        env["HOME"] = home
        servers: list[subprocess.Popen] = []
        if device == "sdl-disk":
            env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_AUDIO="sdl2", SDL_AUDIODRIVER="disk",
                       SDL_DISKAUDIOFILE=os.devnull)
        else:
            Path(home, ".asoundrc").write_text(ASOUNDRC[device].format(home=home))
        if device == "pulse-null":
            servers = start_pulse(home, env)
        try:
            command = [sys.executable, __file__, "--count", str(count), "--device", device,
                       "--cuts-json" if cuts else "--json"]
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        finally:
            for server in reversed(servers):
                server.terminate()
                server.wait(10)
    if done.returncode:
        raise SystemExit(f"bench child failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def start_pulse(home: str, env: dict[str, str]) -> list[subprocess.Popen]:
    """A private PulseAudio server with one null sink (it plays in real time into nothing), and a client
    streaming silence at 20 ms latency: idle, the null sink wakes only every 2 s, which a card's sink does
    not do, and every new stream would wait for it."""
    env["XDG_RUNTIME_DIR"] = str(Path(home, "run"))
    Path(env["XDG_RUNTIME_DIR"]).mkdir(mode=0o700)
    server = subprocess.Popen(["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                               "-L", "module-null-sink sink_name=bench", "-L", "module-native-protocol-unix"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
    awake = subprocess.Popen(["pacat", "--latency-msec=20", "/dev/zero"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return [server, awake]


def timed_ours(repeat: int = 2000) -> dict[str, list[float]]:
    cases = spoken_outcomes()
    for lang in ("en", "ja"):
        library(lang)
    phrase_times, render_times = [], []
    for n in range(repeat):
        colors, outcome = cases[n % len(cases)]
        lang = "en" if n % 2 == 0 else "ja"
        t = time.perf_counter()
        phrase = phrase_for_outcome(outcome, colors, lang)
        t1 = time.perf_counter()
        library(lang).render(phrase.tokens)
        t2 = time.perf_counter()
        phrase_times.append(t1 - t)
        render_times.append(t2 - t1)
    return {"phrase building (outcome → clip keys + caption)": phrase_times,
            "rendering the phrase (clips concatenated in memory)": render_times}


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def row(name: str, samples: list[float], goal: str = "—") -> str:
    ms = [s * 1000 for s in samples]
    return (f"| {name} | {statistics.median(ms):.3g} ms | {percentile(ms, 99):.3g} ms | {max(ms):.3g} ms | "
            f"{len(ms)} | {goal} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400, help="announcements to time (at least 200)")
    parser.add_argument("--device", choices=("alsa-null", "alsa-file", "pulse-null", "default", "sdl-disk"),
                        default="alsa-null")
    parser.add_argument("--cuts", type=int, default=200,
                        help="rolls cutting a roll being spoken (real time; 0 to skip)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the children's answers
    parser.add_argument("--cuts-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cuts_json:
        print(json.dumps(measure_cuts(args.count, "kivy" if args.device == "sdl-disk" else "sounddevice")))
        return 0
    if args.json:
        print(json.dumps(measure_device(args.count)))
        return 0
    if args.device == "sdl-disk":
        parser.error("sdl-disk is for the cuts only")
    result = measure_device(args.count) if args.device == "default" else in_child(args.device, args.count)
    print(f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores")
    print("| measure | median | p99 | max | n | goal |")
    print("|---|---|---|---|---|---|")
    if result["problems"]:
        print(f"warning: no sound, so no device latency: {result['problems'][0]}", file=sys.stderr)
    else:
        print(row(f"outcome published → first sample handed to the audio device ({result['player']}, "
                  f"{args.device}, announcer idle)", result["latencies"], "p99 < 30 ms"))
    # Cutting needs a device that plays in real time: ALSA's null and file plugins do not.
    for device in (["sdl-disk"] + ([args.device] if args.device in ("pulse-null", "default") else [])
                   if args.cuts else []):
        cuts = in_child(device, args.cuts, cuts=True)
        if cuts["problems"]:
            print(f"warning: {device}: no sound: {cuts['problems'][0]}", file=sys.stderr)
            continue
        print(row(f"a roll published while the last roll is spoken → its first sample ({cuts['player']}, "
                  f"{device}; {cuts['cut']} of {cuts['of']} cut)", cuts["latencies"]))
    for name, samples in timed_ours().items():
        print(row(name, samples))
    return 0

if __name__ == "__main__":
    sys.exit(main())
