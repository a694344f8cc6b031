"""Synthesize the game's sound effects as small WAV files (standard library only).

Why synthesize: no third-party samples means no licence to track; the output is CC0 like
this script. Fixed seeds make every run write byte-identical files, so rerunning it leaves
git clean. Run: python assets/sounds/make_sounds.py  (writes the .wav files next to it).
Format: 22050 Hz, mono, 16-bit PCM; each effect well under 100 KB.
"""

from __future__ import annotations

import math
import random
import struct
import wave
import zlib
from pathlib import Path

RATE = 22050
HERE = Path(__file__).resolve().parent
TAU = 2 * math.pi


def silence(seconds: float) -> list[float]:
    return [0.0] * int(RATE * seconds)


def mix(into: list[float], sound: list[float], at: float, gain: float = 1.0) -> None:
    """Add sound into the buffer starting at `at` seconds (the buffer grows as needed)."""
    start = int(at * RATE)
    if len(into) < start + len(sound):
        into.extend([0.0] * (start + len(sound) - len(into)))
    for i, s in enumerate(sound):
        into[start + i] += s * gain


def tone(
    freq: float,
    seconds: float,
    decay: float,
    partials=((1, 1.0),),
    attack=0.002,
    sweep: float = 0.0,
    vibrato: float = 0.0,
) -> list[float]:
    """Sum of sine partials (ratio, amp) with a linear attack and exponential decay (1/s).
    sweep is the relative pitch change per second; vibrato the depth at 5.5 Hz."""
    out, phases = [], [0.0] * len(partials)
    for n in range(int(RATE * seconds)):
        t = n / RATE
        env = min(1.0, t / attack) * math.exp(-decay * t)
        f = freq * (1 + sweep * t) * (1 + vibrato * math.sin(TAU * 5.5 * t))
        s = 0.0
        for k, (ratio, amp) in enumerate(partials):
            phases[k] += TAU * f * ratio / RATE
            s += amp * math.sin(phases[k])
        out.append(s * env)
    return out


def noise(
    rng: random.Random, seconds: float, decay: float, attack=0.001, lowpass=1.0, highpass=0.0
) -> list[float]:
    """White noise through one-pole low/high-pass filters (coefficients 0..1), enveloped."""
    out, lp, prev_lp = [], 0.0, 0.0
    for n in range(int(RATE * seconds)):
        t = n / RATE
        lp += lowpass * (rng.uniform(-1, 1) - lp)
        hp = lp - highpass * prev_lp
        prev_lp = lp
        out.append(hp * min(1.0, t / attack) * math.exp(-decay * t))
    return out


def click() -> list[float]:
    return tone(1800, 0.04, 160, ((1, 1.0), (2.7, 0.3)), attack=0.0005)


def card_flick(rng: random.Random) -> list[float]:
    out = noise(rng, 0.09, 55, attack=0.012, lowpass=0.6, highpass=0.9)
    mix(out, tone(900, 0.05, 90, sweep=-4), 0.0, 0.25)
    return out


def card_place(rng: random.Random) -> list[float]:
    out = tone(170, 0.14, 45, ((1, 1.0), (2.1, 0.3)), attack=0.001, sweep=-1.5)
    mix(out, noise(rng, 0.06, 90, lowpass=0.35), 0.0, 0.7)
    return out


def shuffle(rng: random.Random) -> list[float]:
    """A riffle: quick flicks that speed up, then the stack squared with a tap."""
    out, t = silence(0.05), 0.0
    while t < 0.7:
        mix(
            out,
            noise(rng, 0.03, 140, attack=0.002, lowpass=0.7, highpass=0.85),
            t,
            rng.uniform(0.7, 1.0),
        )
        t += max(0.012, 0.045 - 0.04 * t) * rng.uniform(0.7, 1.3)
    mix(out, card_place(rng), t + 0.05, 0.5)
    return out


def dice_roll(rng: random.Random) -> list[float]:
    """Clacks on a table, bouncing closer together and quieter."""
    out, t, gap, gain = silence(0.05), 0.0, 0.11, 1.0
    while gain > 0.08:
        f = rng.uniform(900, 1600)
        hit = tone(f, 0.06, 110, ((1, 1.0), (2.3, 0.5), (3.9, 0.2)), attack=0.0005)
        mix(hit, noise(rng, 0.03, 200, lowpass=0.8), 0.0, 0.5)
        mix(out, hit, t, gain)
        t += gap * rng.uniform(0.8, 1.2)
        gap *= 0.8
        gain *= 0.78
    return out


BELL = ((1, 1.0), (2.76, 0.45), (5.4, 0.25), (8.93, 0.12))
COIN = ((1, 1.0), (1.52, 0.6), (2.31, 0.45), (3.05, 0.3))


def coin_clink(rng: random.Random, pitch: float = 1.0) -> list[float]:
    out = tone(2200 * pitch, 0.35, 14, COIN, attack=0.0005)
    mix(out, noise(rng, 0.02, 250, lowpass=0.9, highpass=0.5), 0.0, 0.3)
    return out


def coins_pour(rng: random.Random) -> list[float]:
    out = silence(1.2)
    for _ in range(22):
        mix(
            out,
            coin_clink(rng, rng.uniform(0.85, 1.25)),
            rng.uniform(0.0, 0.85) ** 1.3,
            rng.uniform(0.15, 0.4),
        )
    return out


def fanfare() -> list[float]:
    """ "I'm the Boss!": a brassy rising G-C-E-G arpeggio into a held C major chord."""
    brass = ((1, 1.0), (2, 0.55), (3, 0.35), (4, 0.2), (5, 0.1))
    out = silence(1.3)
    for i, f in enumerate((392.0, 523.25, 659.25)):
        mix(out, tone(f, 0.16, 6, brass, attack=0.015), 0.11 * i, 0.5)
    for f in (523.25, 659.25, 783.99, 1046.5):
        mix(out, tone(f, 0.95, 2.8, brass, attack=0.02, vibrato=0.004), 0.33, 0.3)
    return out


def window_tick() -> list[float]:
    return tone(1400, 0.05, 120, ((1, 1.0), (3.1, 0.25)), attack=0.0005)


def deal_closed() -> list[float]:
    out = silence(1.2)
    mix(out, tone(783.99, 0.9, 4.5, BELL, attack=0.001), 0.0, 0.6)
    mix(out, tone(1046.5, 1.0, 4.0, BELL, attack=0.001), 0.16, 0.6)
    return out


def deal_failed(rng: random.Random) -> list[float]:
    out = tone(95, 0.55, 7, ((1, 1.0), (2, 0.3), (3, 0.1)), attack=0.004, sweep=-0.8)
    mix(out, noise(rng, 0.12, 40, lowpass=0.08), 0.0, 2.5)
    return out


def fade_and_normalise(samples: list[float], peak: float, fade: float = 0.01) -> list[float]:
    """Scale to the given peak and fade the tail so no effect ends with a click."""
    top = max(abs(s) for s in samples) or 1.0
    n, tail = len(samples), int(RATE * fade)
    return [
        s / top * peak * (min(1.0, (n - i) / tail) if tail else 1.0) for i, s in enumerate(samples)
    ]


def write(name: str, samples: list[float], peak: float) -> Path:
    path = HERE / f"{name}.wav"
    data = fade_and_normalise(samples, peak)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", round(s * 32767)) for s in data))
    return path


# name -> (builder taking an RNG, peak level). Loud effects sit a little lower than UI ticks
# feel, so a burst of them does not clip when the mixer adds channels together.
SOUNDS = {
    "ui_click": (lambda r: click(), 0.5),
    "card_flick": (card_flick, 0.6),
    "card_place": (card_place, 0.7),
    "shuffle": (shuffle, 0.6),
    "dice_roll": (dice_roll, 0.7),
    "coin_clink": (coin_clink, 0.55),
    "coins_pour": (coins_pour, 0.6),
    "boss_fanfare": (lambda r: fanfare(), 0.7),
    "window_tick": (lambda r: window_tick(), 0.45),
    "deal_closed": (lambda r: deal_closed(), 0.65),
    "deal_failed": (deal_failed, 0.75),
}


def main() -> None:
    for name, (build, peak) in SOUNDS.items():
        rng = random.Random(zlib.crc32(name.encode()))  # stable per sound, order-independent
        path = write(name, build(rng), peak)
        print(f"{path.name}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
