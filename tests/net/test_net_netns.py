"""A host in one network namespace, discovered and joined from another (root only: the
test builds the namespaces and a veth pair, and removes them)."""

from __future__ import annotations

import json
import re
import subprocess
import time

import pytest

from net.discovery.browse import BackgroundBrowser, TableFound
from tests import netns

MAIN = str(netns.REPO_ROOT / "main.py")


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_host_in_a_is_discovered_and_joined_from_b(capsys):
    with netns.netns_network(2) as net:  # skips with the reason when not root
        a, b = net.nodes
        host = a.popen_python(
            MAIN, "host", "--headless", "--bind", a.address, "--port", "0", "--seats", "3",
            "--code", "NETS", "--name", "Netns table", "--once", "--bot-delay", "0",
            "--autosave", "none",
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        line = host.stdout.readline()
        m = re.search(rf"at {re.escape(a.address)}:(\d+)\s+room code NETS", line)
        assert m, (line, host.poll())
        port = int(m.group(1))

        # Discovery from B: a fresh browser, as the lobby would start one.
        with b.entered():
            browser = BackgroundBrowser(interfaces=[b.address])
            t0 = time.monotonic()
            browser.start()
        try:
            found = None
            deadline = time.monotonic() + 20
            while found is None:
                assert time.monotonic() < deadline, "table not discovered"
                for ev in browser.poll():
                    if isinstance(ev, TableFound) and ev.port == port:
                        found = ev
                time.sleep(0.001)
            elapsed = time.monotonic() - t0
            with capsys.disabled():
                print(f"\n[net] discovery A -> B: {elapsed * 1000:.0f} ms (goal <= 300 ms)")
            assert (found.name, found.host, found.seats_free) == ("Netns table", a.address, 3)
            assert found.code_required

            # `join --list` in B prints it; then three bot clients in B take the seats.
            listing = b.run([netns.sys.executable, MAIN, "join", "--list", "--timeout", "1.5"])
            assert f"Netns table\t{a.address}:{port}\t3 seats free" in listing.stdout.splitlines()
            joins = [
                b.popen_python(
                    MAIN,
                    "join",
                    f"{a.address}:{port}",
                    "--code",
                    "nets",
                    "--name",
                    f"B{i}",
                    "--bot",
                    "random",
                    "--headless",
                    "--bot-delay",
                    "0",
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )  # fmt: skip
                for i in range(3)
            ]
            # The announcement follows the seats: none free once all three sat down.
            deadline = time.monotonic() + 20
            while browser.tables.get(found.key, found).seats_free != 0:
                assert time.monotonic() < deadline, "seats free never reached 0"
                browser.poll()
                time.sleep(0.01)
            outs = [j.communicate(timeout=120) for j in joins]
            out, err = host.communicate(timeout=30)
        finally:
            browser.close()
        for j, (o, e) in zip(joins, outs, strict=True):
            assert j.returncode == 0, e
            assert json.loads(o.strip().splitlines()[-1])["finished"]
        assert host.returncode == 0, err
        result = json.loads(out.strip().splitlines()[-1])
        assert result["players"] == 3 and result["winners"]
