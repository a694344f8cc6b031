"""What a table's DNS-SD announcement says, and reading it back from the untrusted network.

The events a browser reports (``TableFound`` / ``TableLost`` / ``DiscoveryError``), the TXT
keys' limits and their parser (``parse_table_txt``), clean names, and the order in which a
table's addresses are tried (``rank_addresses``). Shared one way by the announcer
(``net.discovery.announcer``) and the browser (``net.discovery.browse``).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from zeroconf import InterfaceChoice
from zeroconf.asyncio import AsyncServiceInfo

from net.client.messages import MAX_WINDOW, WINDOW_MODES, TablePace

log = logging.getLogger(__name__)

SERVICE_TYPE = "_imtheboss._tcp.local."
#: Longest table name (in characters) we announce or accept.
MAX_NAME_CHARS = 40
#: Upper bound for the "free" TXT value (the game seats at most 6).
MAX_SEATS = 16
#: A browser tracks at most this many services (a flooding peer cannot grow us).
MAX_TABLES = 256
#: DNS label limit is 63 bytes; keep room for zeroconf's "-N" rename suffix.
_MAX_INSTANCE_BYTES = 56
_DIGITS = re.compile(rb"[0-9]{1,5}")

Interfaces = Sequence[str | int] | None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class TableFound:
    """A table appeared, or its data (seats free, name, ...) changed."""

    key: str  # the DNS-SD service instance name; stable identity of the table
    name: str
    host: str  # best address to connect to (IPv4 preferred, same subnet first)
    port: int
    protocol_version: int
    seats_free: int
    code_required: bool
    addresses: tuple[str, ...] = ()  # every announced address, best first
    pace: TablePace | None = None  # None: the host announces none (an older version)


@dataclass(frozen=True, slots=True)
class TableLost:
    key: str


@dataclass(frozen=True, slots=True)
class DiscoveryError:
    """Discovery could not run (no usable interface, port 5353 refused, ...)."""

    message: str


DiscoveryEvent = TableFound | TableLost | DiscoveryError


class BadAnnouncement(ValueError):
    """A service's TXT/SRV data failed validation."""


# --------------------------------------------------------------------------- parsing


_STRIP_FORMAT = {"\u200c", "\u200d"}  # ZWNJ/ZWJ are legitimate in names
#: every line break Unicode knows (UAX #14's mandatory breaks: LF, VT, FF, CR, NEL, LS, PS)
#: and the tab: each is a space before spaces are squeezed, never dropped ("Mei\nLing" is
#: "Mei Ling", not "MeiLing")
_BREAKS = frozenset("\n\x0b\x0c\r\x85\u2028\u2029\t")


def clean_name(text: str) -> str:
    """Line breaks and tabs to spaces, control / bidi-override / private-use / unassigned
    characters dropped, runs of white space squeezed to one space, trimmed."""
    out = []
    for ch in text:
        if ch in _BREAKS:
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs", "Co", "Cn") or (cat == "Cf" and ch not in _STRIP_FORMAT):
            continue
        out.append(ch)
    return " ".join("".join(out).split())


def _txt_int(props: Mapping[bytes, bytes | None], key: bytes, lo: int, hi: int) -> int:
    if key not in props:
        raise BadAnnouncement(f"missing {key.decode()!r}")
    raw = props[key]
    if raw is None or not _DIGITS.fullmatch(raw):
        raise BadAnnouncement(f"bad {key.decode()!r} value {raw!r}")
    value = int(raw)
    if not lo <= value <= hi:
        raise BadAnnouncement(f"{key.decode()!r} out of range: {value}")
    return value


def _lowered(properties) -> dict[bytes, bytes | None]:
    """TXT properties with bytes keys in lower case (BadAnnouncement if malformed)."""
    if not isinstance(properties, Mapping):
        raise BadAnnouncement("no TXT properties")
    props: dict[bytes, bytes | None] = {}
    for k, v in properties.items():
        if isinstance(k, str):
            k = k.encode("utf-8", "replace")
        if isinstance(v, str):
            v = v.encode("utf-8", "replace")
        if not isinstance(k, bytes) or not (v is None or isinstance(v, bytes)):
            raise BadAnnouncement("malformed TXT entry")
        props.setdefault(k.lower(), v)  # RFC 6763 6.4: first occurrence wins
    return props


def parse_pace_txt(properties: Mapping[bytes | str, bytes | str | None] | None) -> TablePace | None:
    """The ``wm`` and ``win`` TXT keys -> TablePace; None when the host announces neither.
    BadAnnouncement for a mode not in WINDOW_MODES, a window outside 1..MAX_WINDOW, or
    one key without the other."""
    props = _lowered(properties)
    if b"wm" not in props and b"win" not in props:
        return None
    mode = props.get(b"wm")
    if mode is None or mode.decode("ascii", "replace") not in WINDOW_MODES:
        raise BadAnnouncement(f"bad 'wm' value {mode!r}")
    return TablePace(mode.decode("ascii"), _txt_int(props, b"win", 1, MAX_WINDOW))


def parse_table_txt(
    properties: Mapping[bytes | str, bytes | str | None] | None, fallback_name: str = ""
) -> tuple[str, int, int, bool]:
    """Validate TXT properties -> (name, protocol_version, seats_free, code_required).

    Raises BadAnnouncement for anything unusable: missing/non-decimal/out of
    range ``pv`` or ``free``, a ``code`` other than "0"/"1", a name that is not
    UTF-8 or longer than MAX_NAME_CHARS.  A missing or empty ``name`` falls
    back to ``fallback_name`` (the instance label).  Keys are case-insensitive.
    """
    props = _lowered(properties)
    pv = _txt_int(props, b"pv", 1, 65535)
    free = _txt_int(props, b"free", 0, MAX_SEATS)
    code = props.get(b"code", b"0")
    if code not in (b"0", b"1"):
        raise BadAnnouncement(f"bad 'code' value {code!r}")
    raw_name = props.get(b"name")
    if raw_name:
        try:
            name = raw_name.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadAnnouncement("table name is not UTF-8") from exc
    else:
        name = fallback_name
    name = clean_name(name)
    if not name:
        raise BadAnnouncement("empty table name")
    if len(name) > MAX_NAME_CHARS:
        raise BadAnnouncement(f"table name longer than {MAX_NAME_CHARS} characters")
    return name, pv, free, code == b"1"


def instance_label(service_name: str, type_: str = SERVICE_TYPE) -> str:
    if service_name.lower().endswith("." + type_.lower()):
        return service_name[: -len(type_) - 1]
    return service_name


def local_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    try:
        import ifaddr

        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                addr = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
                with contextlib.suppress(ValueError):
                    nets.append(ipaddress.ip_network(f"{addr}/{ip.network_prefix}", strict=False))
    except Exception:  # pragma: no cover - best effort only
        log.debug("could not list local networks", exc_info=True)
    return nets


def rank_addresses(
    addresses: Iterable[str], local_networks: Sequence[ipaddress._BaseNetwork] = ()
) -> tuple[str, ...]:
    """Order addresses best-first: same subnet as us, IPv4, not link-local/loopback."""
    ranked = []
    for i, text in enumerate(dict.fromkeys(addresses)):
        try:
            addr = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if addr.is_multicast or addr.is_unspecified:
            continue
        same_net = any(addr in net for net in local_networks if net.version == addr.version)
        ranked.append(
            (not same_net, addr.version != 4, addr.is_link_local, addr.is_loopback, i, text)
        )
    ranked.sort()
    return tuple(r[-1] for r in ranked)


def table_from_info(
    info: AsyncServiceInfo, local_networks: Sequence[ipaddress._BaseNetwork] = ()
) -> TableFound:
    """Build a TableFound from a resolved service, or raise BadAnnouncement."""
    port = info.port
    if not isinstance(port, int) or not 1 <= port <= 65535:
        raise BadAnnouncement(f"bad port {port!r}")
    name, pv, free, code = parse_table_txt(info.properties, clean_name(instance_label(info.name)))
    addresses = rank_addresses(info.parsed_scoped_addresses(), local_networks)
    if not addresses:
        raise BadAnnouncement("no usable address")
    pace = parse_pace_txt(info.properties)
    return TableFound(info.name, name, addresses[0], port, pv, free, code, addresses, pace)


def zc_interfaces(interfaces: Interfaces) -> InterfaceChoice | list[str | int]:
    return InterfaceChoice.All if not interfaces else list(interfaces)


async def close_zeroconf(aiozc) -> None:
    """Close a zeroconf instance this side opened; a failure is logged, never raised (the
    announcer and the browser both close theirs on the way out)."""
    try:
        await aiozc.async_close()
    except Exception:
        log.warning("closing zeroconf failed", exc_info=True)
