"""Benchmark of spoken announcements (issue 6): outcome published → first sample handed to the audio device.

    .venv/bin/python bench/bench_announce.py [--count 400] [--device alsa-null|alsa-file|default]

For each announcement the clock starts when ``Announcer.on_outcome`` is called (the moment the Table publishes)
and stops when the first block of samples has been written to the sounddevice output stream, i.e. handed to
PortAudio (``Announcement.latency``).  The outcomes are every spoken outcome of the two example games
(``assets/games/``), taken in turn and alternately in English and Japanese, each announced when the previous
one has finished (the table is quiet when the dice land).

``--device alsa-null`` (the default) runs the measurement in a child process whose HOME has an ``.asoundrc``
routing ALSA's default device to its ``null`` plugin: the real sounddevice → PortAudio → ALSA path, without a
sound card (a build machine has none).  ``--device alsa-file`` routes it to ALSA's ``file`` plugin instead (the
end-to-end test's set-up: every block is also written to a WAV file).  ``--device default`` uses the machine's
own default output.

``--cuts N`` also times N rolls that each arrive while the previous roll is being spoken, through Kivy's
player on SDL2's "disk" audio driver, which plays in real time into a file (here /dev/null): the superseding
path of the queue on a player that, like a sound card, takes as long as the sound lasts.

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

from companion.announce import Announcer, library, phrase_for_outcome  # noqa: E402
from companion.record import load_record, replay  # noqa: E402


def spoken_outcomes():
    """(colours, outcome) for every outcome of the example games that has something to say."""
    out = []
    for path in sorted((ROOT / "assets" / "games").glob("*.json")):
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
        announcer.wait_idle(60)
        player = announcer.player_name
        if said.latency is not None:
            latencies.append(said.latency)
        time.sleep(0.002)
    for announcer in announcers.values():
        announcer.close()
    return {"player": player, "latencies": latencies, "problems": problems}


def measure_cuts(count: int) -> dict:
    """Rolls that arrive while the previous roll is still being spoken (0.1 s into it), through Kivy's player.

    Each roll cuts the one before: the latency is the queue's superseding path on a player that plays in
    real time (SDL2's disk driver paces itself like a sound card).
    """
    path = sorted((ROOT / "assets" / "games").glob("*.json"))[0]
    record = load_record(path)
    colors = [p["color"] for p in record.players]
    rolls = [o for o in replay(record).outcomes if o.kind == "roll"]
    problems: list[str] = []
    announcer = Announcer(colors, player="kivy")
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
}


def in_child(device: str, count: int) -> dict:
    """Run the measurement in a child process whose audio goes where ``device`` says."""
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ALSA", "KIVY", "SDL"))}
        env["HOME"] = home
        if device == "sdl-disk":
            env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_AUDIO="sdl2", SDL_AUDIODRIVER="disk",
                       SDL_DISKAUDIOFILE=os.devnull)
            mode = "--cuts-json"
        else:
            Path(home, ".asoundrc").write_text(ASOUNDRC[device].format(home=home))
            mode = "--json"
        done = subprocess.run([sys.executable, __file__, "--count", str(count), mode],
                              env=env, capture_output=True, text=True, timeout=900)
    if done.returncode:
        raise SystemExit(f"bench child failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


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
    parser.add_argument("--device", choices=("alsa-null", "alsa-file", "default"), default="alsa-null")
    parser.add_argument("--cuts", type=int, default=200,
                        help="rolls cutting a roll being spoken, through Kivy/SDL2 (real time; 0 to skip)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the children's answers
    parser.add_argument("--cuts-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json or args.cuts_json:
        print(json.dumps(measure_cuts(args.count) if args.cuts_json else measure_device(args.count)))
        return 0
    result = measure_device(args.count) if args.device == "default" else in_child(args.device, args.count)
    print(f"{platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} cores")
    print("| measure | median | p99 | max | n | goal |")
    print("|---|---|---|---|---|---|")
    if result["problems"]:
        print(f"warning: no sound, so no device latency: {result['problems'][0]}", file=sys.stderr)
    else:
        print(row(f"outcome published → first sample handed to the audio device ({result['player']}, "
                  f"{args.device}, announcer idle)", result["latencies"], "p99 < 30 ms"))
    if args.cuts:
        cuts = in_child("sdl-disk", args.cuts)
        if cuts["problems"]:
            print(f"warning: Kivy/SDL2 audio unavailable: {cuts['problems'][0]}", file=sys.stderr)
        else:
            print(row(f"a roll published while the last roll is spoken → its first sample ({cuts['player']}, "
                      f"SDL2 disk driver; {cuts['cut']} of {cuts['of']} cut)", cuts["latencies"]))
    for name, samples in timed_ours().items():
        print(row(name, samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
