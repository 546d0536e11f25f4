"""CPU time of processes, read from Linux's /proc, for the benches that split a run's cost
between the parts of a deployment (bench/load_stack.py, bench/api.py)."""

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (the state first), None once the
    process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(root: int) -> float:
    """CPU time of a process, of its children it has reaped, and of its live descendants."""
    parents = {}
    for entry in Path("/proc").glob("[0-9]*"):
        if (fields := stat(int(entry.name))) is not None:
            parents[int(entry.name)] = int(fields[1])
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if (fields := stat(pid)) is not None:
            own = int(fields[11]) + int(fields[12])
            reaped = int(fields[13]) + int(fields[14])
            total += (own + reaped) / TICKS
        todo += [child for child, parent in parents.items() if parent == pid]
    return total
