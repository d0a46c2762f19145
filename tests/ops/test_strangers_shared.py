"""A stranger is refused in words at most once per hour per number across every worker on the database (the
issue saw two refusals within the hour from two workers); the database keeps a keyed hash, never the number;
with the database down a worker still decides alone and does not fail."""

import time

import pytest
from sqlalchemy import select, text

from bot.core.strangers import StrangerGate
from bot.store import Database
from bot.store.stranger_answers import StrangerAnswers, _answers


def test_two_workers_answer_a_stranger_once_per_window(database: Database) -> None:
    workers = [StrangerGate(answer_every_s=0.6, shared=StrangerAnswers(database)) for _ in range(2)]
    assert workers[0].refuse("whatsapp", "+15550001") is True
    assert [w.refuse("whatsapp", "+15550001") for w in workers for _ in range(3)] == [False] * 6
    assert workers[1].refuse("whatsapp", "+15550002") is True
    assert workers[1].refuse("telegram", "+15550001") is True
    time.sleep(0.7)
    assert workers[1].refuse("whatsapp", "+15550001") is True  # the window passed: told again, by one worker
    assert workers[0].refuse("whatsapp", "+15550001") is False
    with database.engine.connect() as db:
        digests = db.execute(select(_answers.c.digest)).scalars().all()
        dump = " ".join(str(r) for r in db.execute(text("SELECT * FROM shared_keys")).all()) + " ".join(digests)
    assert len(digests) == 3 and "15550001" not in dump


def test_with_the_database_down_a_worker_decides_alone(database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = StrangerAnswers(database)
    gate = StrangerGate(shared=shared)

    def down(*args: object) -> bool:
        raise ConnectionError("database down")

    monkeypatch.setattr(shared, "claim", down)
    assert gate.refuse("whatsapp", "+15550009") is True
    assert gate.refuse("whatsapp", "+15550009") is False
