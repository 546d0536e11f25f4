"""Fixtures shared by the bot tests."""

import itertools

import pytest

from games import hooks, services


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, int]]:
    """The server turns announced (kept here, not played), and seeds that repeat run to run."""
    jobs = []
    monkeypatch.setattr(hooks, "announce_server_turn", lambda *job, **_: jobs.append(job))
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"tasks-{next(counter)}")
    return jobs
