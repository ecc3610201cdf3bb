"""This machine's addresses on the network, for the phones at the table."""

from __future__ import annotations

import ipaddress

import ifaddr


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses that another device on the network can reach, private
    (home) networks first."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                address = ipaddress.ip_address(ip.ip)
                if not (address.is_loopback or address.is_link_local):
                    found.append(ip.ip)
    return sorted(set(found), key=lambda a: (not ipaddress.ip_address(a).is_private, a))
