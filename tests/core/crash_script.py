"""Run in a subprocess by the fault tests: be killed (SIGKILL) at one point of handling a note: after receipt,
mid-processing, after processing but before sending, mid-send; or send a note, press Save and be killed inside
the save. Whatever reached "the chat" before the kill is appended to <state_dir>/sent.txt."""

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot.core.app import App
from bot.core.conversation import Conversation
from bot.core.messages import Incoming
from tests.conftest import make_settings
from tests.core.notes_pack import NoteCard, NotesPack, registry_in_tenant


class CrashingNoteCard(NoteCard):
    def memories(self, turn, payload):  # type: ignore[no-untyped-def]
        os.kill(os.getpid(), signal.SIGKILL)


class CrashingPack(NotesPack):
    def card_specs(self, tenant):  # type: ignore[no-untyped-def]
        return {"note": CrashingNoteCard()}


class KilledWhileProcessing(NotesPack):
    async def on_text(self, turn, body):  # type: ignore[no-untyped-def]
        await super().on_text(turn, body)  # the card is stored, its reply not yet kept
        os.kill(os.getpid(), signal.SIGKILL)


class KilledWhileSending:
    """A Telegram channel that gets the reply to the chat, then dies before it is marked sent."""

    def __init__(self, sent: Path) -> None:
        self.sent = sent

    async def send_reply(self, user, address, reply, batch):  # type: ignore[no-untyped-def]
        with self.sent.open("a") as out:
            out.write(reply.model_dump_json() + "\n")
        os.kill(os.getpid(), signal.SIGKILL)


NOTES = {"mid-processing": "note 2026-04-11 leaf curl on the okra", "before-send": "note 2026-04-12 mites on brinjal",
         "mid-send": "note 2026-04-13 stem borer in the paddy"}


async def main(state_dir: str, hindsight_url: str, bank_prefix: str, mode: str, tenant: str) -> None:
    app = await App.start(make_settings(Path(state_dir), hindsight_url, bank_prefix), pack_names=[],
                          registry=registry_in_tenant(tenant))
    app.packs = {"agri": (KilledWhileProcessing if mode == "mid-processing" else CrashingPack)(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    if mode in NOTES:
        app.services.replies.register("telegram", KilledWhileSending(Path(state_dir) / "sent.txt"))
        answer = await app.conversation.answer(Incoming(transport="telegram", sender="1001",
                                                        delivery_id=f"update-{mode}", text=NOTES[mode]))
        if mode == "before-send":
            os.kill(os.getpid(), signal.SIGKILL)
        assert answer.key is not None
        await app.services.replies.deliver(answer.key)
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
