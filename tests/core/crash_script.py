"""Run in a subprocess by the fault tests: send a note, press Save, and be killed inside the save."""

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.app import App
from bot.core import Conversation
from bot.messages import Incoming
from tests.conftest import make_settings
from tests.core.notes_pack import NoteCard, NotesPack, registry_in_tenant


class CrashingNoteCard(NoteCard):
    def memories(self, turn, payload):  # type: ignore[no-untyped-def]
        os.kill(os.getpid(), signal.SIGKILL)


class CrashingPack(NotesPack):
    def card_specs(self, tenant):  # type: ignore[no-untyped-def]
        return {"note": CrashingNoteCard()}


async def main(state_dir: str, hindsight_url: str, bank_prefix: str, mode: str, tenant: str) -> None:
    app = await App.start(make_settings(Path(state_dir), hindsight_url, bank_prefix), pack_names=[],
                          registry=registry_in_tenant(tenant))
    app.packs = {"agri": CrashingPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    if mode == "before-processing":
        app.services.intake.record(Incoming(transport="telegram", sender="1001", delivery_id="update-77",
                                            text="note 2026-04-18 blight at 40 percent"), "srinivas")
        os.kill(os.getpid(), signal.SIGKILL)
    [card] = await app.conversation.handle(Incoming(transport="telegram", sender="1001", delivery_id="update-78",
                                                    text="note 2026-04-21 accepted copper fungicide"))
    print(card.card_id, flush=True)
    save = card.flat_buttons()[0].data
    await app.conversation.handle(Incoming(transport="telegram", sender="1001", delivery_id="update-79", callback=save))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
