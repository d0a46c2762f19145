"""CPU time used by the local memory server (Hindsight and its PostgreSQL), read from /proc.

Only meaningful when the server runs on this machine (the embedded default). Elsewhere `available` is
False and the sections leave the CPU lines out rather than print zeros.
"""

import os
from pathlib import Path

_PROC = Path("/proc")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _command(pid: str) -> str:
    return (_PROC / pid / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def _parent_and_cpu(pid: str) -> tuple[str, float]:
    # Field 2 (the command) may hold spaces and parentheses, so split after its closing one.
    fields = (_PROC / pid / "stat").read_text().rsplit(")", 1)[1].split()
    return fields[1], (int(fields[11]) + int(fields[12])) / _TICKS


def _is_server(command: str) -> bool:
    return "hindsight-api" in command or command.startswith("postgres") or "/pg0/" in command


def server_cpu_seconds() -> float | None:
    """Return the user+system CPU seconds of every server process and its children, or None if none runs here."""
    commands: dict[str, str] = {}
    stats: dict[str, tuple[str, float]] = {}
    for entry in _PROC.iterdir() if _PROC.is_dir() else []:
        if not entry.name.isdigit():
            continue
        try:
            commands[entry.name] = _command(entry.name)
            stats[entry.name] = _parent_and_cpu(entry.name)
        except (OSError, ValueError, IndexError):
            continue  # the process ended while we looked
    servers = {pid for pid, command in commands.items() if _is_server(command)}
    # Worker processes a server spawns (uvicorn workers) carry a generic command line.
    servers |= {pid for pid, (parent, _) in stats.items() if parent in servers}
    if not servers:
        return None
    return sum(stats[pid][1] for pid in servers if pid in stats)
