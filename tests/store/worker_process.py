"""Run as a subprocess by test_two_processes: one bot process on a shared PostgreSQL, handling the same
deliveries, card saves and follow-ups as its twin, and printing what it itself handled (JSON)."""

import asyncio
import json
import random
import sys
import time
from pathlib import Path

from bot.core.app import App
from bot.core.conversation import Conversation
from bot.core.messages import Incoming, Reply
from bot.core.registry import User
from bot.settings import Settings
from bot.core.cards import CALLBACK_PREFIX
from tests.core.notes_pack import NotesPack


class Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def notify(self, user: User, replies: list[Reply], purpose: str) -> bool:
        self.sent.extend((purpose, r.text) for r in replies)
        return True


async def main(home: str, database_url: str, go_file: str, deliveries: int, cards: str, followups: str) -> None:
    # Hindsight is unreachable on purpose: saves queue their memories, which keeps the race about the database.
    settings = Settings(data_dir=Path(home), hindsight_url="http://127.0.0.1:9", bank_prefix="two-proc",
                        database_url_override=database_url)
    app = await App.start(settings, start_local_memory=False, pack_names=[])
    app.packs = {"agri": NotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    recorder = Recorder()
    app.services.outbound.register("telegram", recorder)
    app.services.scheduler.register("agri", lambda f, u: [Reply(text=f"asked {f.followup_id}")])
    random.seed(home)
    Path(f"{go_file}.ready-{Path(home).name}").touch()
    while not Path(go_file).exists():  # both processes start the race together
        time.sleep(0.01)
    saved: list[str] = []

    async def save(card_id: str) -> None:
        # Each process presses Save on its own delivery (two people, two taps): the card is saved once.
        replies = await app.conversation.handle(Incoming(
            transport="telegram", sender="1001", delivery_id=f"save-{card_id}-{home[-1]}",
            callback=f"{CALLBACK_PREFIX}:s:{card_id}"))
        if any(r.replaces_card for r in replies):
            saved.append(card_id)

    await asyncio.gather(*(save(c) for c in cards.split(",")))  # the same order in both: they collide
    order = list(range(deliveries))
    random.shuffle(order)
    handled: list[str] = []

    async def deliver(i: int) -> None:
        replies = await app.conversation.handle(Incoming(
            transport="telegram", sender="1001", delivery_id=f"update-{i}", text=f"note 2026-05-{1 + i % 28:02d} n{i}"))
        if replies:
            handled.append(f"update-{i}")

    await asyncio.gather(*(deliver(i) for i in order))
    asked = [f for f, ok in zip(followups.split(","), await asyncio.gather(
        *(app.services.scheduler.fire(f) for f in followups.split(","))), strict=True) if ok]
    await app.aclose()
    print(json.dumps({"handled": handled, "saved": saved, "asked": asked}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]))
