"""This machine's addresses on the network, for the phones at the table."""

from __future__ import annotations

import ipaddress
import threading
import time

import ifaddr

FRESH_FOR = 30.0
"""Seconds the addresses are kept: a laptop that joins another network shows it this soon,
and the pages drawn for the laptop's own browser do not list the interfaces every time."""
_kept: tuple[float, list[str]] | None = None
_lock = threading.Lock()


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses that another device on the network can reach, private
    (home) networks first."""
    global _kept
    with _lock:
        if _kept is None or time.monotonic() - _kept[0] > FRESH_FOR:
            _kept = (time.monotonic(), read_addresses())
        return list(_kept[1])


def read_addresses() -> list[str]:
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                address = ipaddress.ip_address(ip.ip)
                if not (address.is_loopback or address.is_link_local):
                    found.append(ip.ip)
    return sorted(set(found), key=lambda a: (not ipaddress.ip_address(a).is_private, a))
