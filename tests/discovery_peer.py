"""Announcer peer for the discovery netns tests and bench (run inside a namespace).

    python tests/discovery_peer.py --bind 10.231.1.1

Reads one JSON command per line on stdin and answers one JSON line on stdout:
    {"cmd": "start", "id": "t1", "name": "...", "port": 5000, "pv": 1, "free": 3, "code": true}
        -> {"ok": true, "id": "t1", "key": "<service name>"}   (after announcing)
    {"cmd": "update", "id": "t1", "free": 2}      -> {"ok": true}
    {"cmd": "close", "id": "t1"}                  -> {"ok": true}   (goodbyes sent)
    {"cmd": "raw", "name": "...", "port": 5000, "props": {"k": "v" | null}}
        -> {"ok": true, "key": ...}   (arbitrary, possibly invalid TXT; no probing)
    {"cmd": "quit"}                               -> {"ok": true}, then exits
Every announcer shares one AsyncZeroconf bound to --bind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import traceback

from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from net.discovery.browse import SERVICE_TYPE, TableAnnouncer


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bind", action="append", required=True)
    args = parser.parse_args()
    aiozc = AsyncZeroconf(interfaces=args.bind)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tables: dict[str, TableAnnouncer] = {}

    def reply(**data: object) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    print(json.dumps({"ready": True}), flush=True)
    try:
        while line := await reader.readline():
            try:
                msg = json.loads(line)
                cmd = msg["cmd"]
                if cmd == "start":
                    ann = TableAnnouncer(
                        msg["name"],
                        msg["port"],
                        protocol_version=msg.get("pv", 1),
                        seats_free=msg["free"],
                        code_required=msg.get("code", False),
                        addresses=args.bind,
                        aiozc=aiozc,
                    )
                    tables[msg["id"]] = ann
                    key = await ann.start()
                    await ann.wait_announced()
                    reply(ok=True, id=msg["id"], key=key)
                elif cmd == "raw":
                    info = AsyncServiceInfo(
                        SERVICE_TYPE,
                        f"{msg['name']}.{SERVICE_TYPE}",
                        port=msg["port"],
                        properties=msg["props"],
                        server=f"raw-{msg['port']}.local.",
                        parsed_addresses=args.bind,
                    )
                    # No probing (cooperating_responders) and no wait for the burst: fast.
                    await aiozc.async_register_service(info, cooperating_responders=True)
                    reply(ok=True, key=info.name)
                elif cmd == "update":
                    await tables[msg["id"]].update(seats_free=msg["free"])
                    reply(ok=True)
                elif cmd == "close":
                    await tables[msg["id"]].close()
                    reply(ok=True)
                elif cmd == "quit":
                    reply(ok=True)
                    break
                else:
                    reply(ok=False, error=f"unknown {cmd}")
            except Exception as exc:
                traceback.print_exc()
                reply(ok=False, error=repr(exc))
    finally:
        for ann in tables.values():
            await ann.close()
        await aiozc.async_close()


if __name__ == "__main__":
    asyncio.run(main())
