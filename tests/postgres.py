"""A throwaway PostgreSQL server for the tests: initdb and pg_ctl in a temporary folder, on a
free loopback port. initdb refuses to run as root, so as root the server runs as `postgres`."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg


def server_binaries() -> Path | None:
    """The newest PostgreSQL server's bin folder (Debian's postgresql package), if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class PostgresServer:
    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.root = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
        self.data = self.root / "data"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.as_root = os.geteuid() == 0

    def run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, cwd=self.root)

    def start(self, *, durable: bool = False) -> PostgresServer:
        """Start the server; ``durable`` keeps PostgreSQL's own defaults (every commit synced
        to disk, as a club's server runs), otherwise the tests' quicker settings."""
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self.root.chmod(0o755)
        self.run(
            str(self.binaries / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
        options += "-c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self.run(
            str(self.binaries / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "start",
        )
        return self

    def stop(self) -> None:
        self.run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        """The address of ``database`` over TCP on the loopback interface."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``); its name."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as connection:
            copy = f" TEMPLATE {template}" if template else ""
            connection.execute(f"CREATE DATABASE {name}{copy}")  # type: ignore[arg-type]
        return name
