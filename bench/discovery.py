"""LAN discovery latency between two network namespaces (needs root + iproute2).

    sudo .venv/bin/python bench/discovery.py [--runs 10] [--compare]

Namespace A announces a table (tests/discovery_peer.py); in namespace B a fresh
BackgroundBrowser (fresh zeroconf, empty cache) is started per run, and the
time from ``start()`` to the TableFound for A's table is recorded, polling the
way a 60 fps frame loop would but at 1 ms so the figure is not quantised.
Prints p50 / max (goal: <= 300 ms).  ``--compare`` also measures forcing QM
and QU questions for every query.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from zeroconf import DNSQuestionType  # noqa: E402

from net.discovery.browse import BackgroundBrowser, TableFound  # noqa: E402
from tests import netns  # noqa: E402


def measure(node: netns.Netns, key: str, question_type, timeout: float = 5.0) -> float | None:
    with node.entered():
        browser = BackgroundBrowser(interfaces=[node.address], question_type=question_type)
        t0 = time.monotonic()
        browser.start()
    try:
        while time.monotonic() - t0 < timeout:
            for ev in browser.poll():
                if isinstance(ev, TableFound) and ev.key == key:
                    return time.monotonic() - t0
            time.sleep(0.001)
        return None
    finally:
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--gap", type=float, default=0.3, help="pause between runs (s)")
    parser.add_argument("--compare", action="store_true", help="also force QM and QU")
    args = parser.parse_args()
    reason = netns.unavailable_reason()
    if reason:
        print(f"skipped: {reason}")
        return 0
    modes = [("default (QU first, then QM)", None)]
    if args.compare:
        modes += [("forced QM", DNSQuestionType.QM), ("forced QU", DNSQuestionType.QU)]
    with netns.netns_network(2, skip=False) as net:
        a, b = net.nodes
        peer = a.popen_python(
            str(ROOT / "tests" / "discovery_peer.py"),
            "--bind",
            a.address,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert json.loads(peer.stdout.readline()).get("ready")
        peer.stdin.write(
            json.dumps(
                {
                    "cmd": "start",
                    "id": "t",
                    "name": "Bench table",
                    "port": 42000,
                    "free": 3,
                    "code": False,
                }
            )
            + "\n"
        )
        peer.stdin.flush()
        reply = json.loads(peer.stdout.readline())
        key = reply["key"]
        time.sleep(1.1)  # let the announcement burst age, as on a real LAN
        for label, qtype in modes:
            times = []
            for _ in range(args.runs):
                times.append(measure(b, key, qtype))
                time.sleep(args.gap)
            ok = [t for t in times if t is not None]
            missed = len(times) - len(ok)
            if not ok:
                print(f"{label:30s} no discovery in {len(times)} runs")
                continue
            print(
                f"{label:30s} p50 {statistics.median(ok) * 1000:6.1f} ms   "
                f"max {max(ok) * 1000:6.1f} ms   min {min(ok) * 1000:6.1f} ms   "
                f"runs {len(ok)}" + (f"  MISSED {missed}" if missed else "")
            )
        peer.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
        peer.stdin.flush()
        peer.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
