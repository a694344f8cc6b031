"""The host's memory after a flood of full-size frames from every connection slot: it must
come back down (found by a third-party client: RSS grew from 34 to 59 MB and stayed; a flood
of full frames took it past 240 MB). Buffers freed by ended connections sat in reference
cycles until a rare full garbage collection, and then in glibc's heap, never returned; the
host now reads in 16 KiB pieces, holds no buffer in a finished connection's frame, and
collects and trims (``Limits.trim_*``) after connections end."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

import pytest

from bench.host_memory import HostProcess, flood

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]


def test_rss_comes_back_after_a_flood_of_full_frames():
    host = HostProcess(Path(tempfile.mkdtemp(prefix="test_memory_")) / "save.json")
    try:
        start = host.rss()

        async def run() -> int:
            sampler = asyncio.ensure_future(host.sample())
            try:
                frames = await flood(host.port, seconds=4.0, connections=32)
                await asyncio.sleep(7.0)  # longer than Limits.trim_interval
                return frames
            finally:
                sampler.cancel()

        frames = asyncio.run(run())
        after = host.rss()
    finally:
        stats = host.stop()
    assert frames > 1000 and stats.get("bytes_in", 0) > 64 << 20  # it was a flood
    assert after <= start + 10, (start, host.peak, after)
