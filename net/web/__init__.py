"""Phones at the table: the host serves its page over HTTP and the protocol over a
WebSocket (aiohttp, in the host's own asyncio loop; docs/PROTOCOL.md §1.1).

``server.PhoneServer`` is the one port phones use; ``socket`` makes each WebSocket a host
``Connection``; ``files`` lists what may be served.
"""
