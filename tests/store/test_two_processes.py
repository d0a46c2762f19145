"""Two bot processes on one PostgreSQL, under concurrent deliveries of the same items: no delivery, card save or
follow-up is handled twice, and none is lost."""

import json
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

from bot.paths import SEEDS_DIR
from bot.store.people import import_people_file
from bot.core.scheduler import FollowUpRow
from bot.store.state import StateStore
from bot.store import Database
from tests.databases import empty_tables

ROOT = Path(__file__).resolve().parents[2]
DELIVERIES = 40
CARDS = 12
FOLLOWUPS = 12


def test_two_processes_handle_each_delivery_card_and_followup_once(postgres_url: str, tmp_path: Path) -> None:
    database = Database(postgres_url)
    empty_tables(database)
    import_people_file(database, SEEDS_DIR / "users.json", tenant="two-proc")
    state = StateStore(database)
    cards = [state.open_card("agri", "srinivas", "note", {"date": "2026-05-02", "text": f"c{i}"}).card_id
             for i in range(CARDS)]
    followups = [f"agri-two-{i}" for i in range(FOLLOWUPS)]
    with database.session() as s:
        s.add_all([FollowUpRow(followup_id=f, pack="agri", user_id="srinivas", due_at=datetime.now(timezone.utc),
                               subject="{}", status="pending") for f in followups])
    go = tmp_path / "go"
    processes = [subprocess.Popen(
        [sys.executable, "-m", "tests.store.worker_process", str(tmp_path / f"home{i}"), postgres_url, str(go),
         str(DELIVERIES), ",".join(cards), ",".join(followups)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(2)]
    deadline = time.monotonic() + 120
    while len(list(tmp_path.glob("go.ready-*"))) < 2:  # both have started their App and wait at the barrier
        assert time.monotonic() < deadline and all(p.poll() is None for p in processes), "a process never got ready"
        time.sleep(0.05)
    go.touch()
    results = []
    for process in processes:
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    for key, expected in (("handled", [f"update-{i}" for i in range(DELIVERIES)]), ("saved", cards),
                          ("asked", followups)):
        counts = Counter(x for r in results for x in r[key])
        assert sorted(counts) == sorted(expected), key  # none lost
        assert max(counts.values()) == 1, key  # none twice
    assert all(r["handled"] for r in results), "one process did all the work: the race was not run"
    assert {c.status for c in (state.card(c) for c in cards) if c} == {"saved"}
    assert len(state.open_cards()) == DELIVERIES  # one card per delivery, each opened once
    database.dispose()
