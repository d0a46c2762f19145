"""Run as a subprocess by test_outage: one bot worker as `smriti run all` runs it (the real `serve`: WhatsApp
webhook, Telegram webhook, the intake worker, health on both ports), on a shared PostgreSQL, with the notes pack
and the fake Telegram and Twilio."""

import asyncio
import sys
from pathlib import Path

from pydantic import SecretStr

from bot.core.app import App
from bot.core.conversation import Conversation
from bot.core.messages import Reply
from bot.core.pack import Turn
from bot.log_hygiene import configure_logging
from bot.settings import Settings
from bot.transports.serve import TelegramOptions, WhatsAppOptions, serve
from tests.core.notes_pack import NotesPack
from tests.fakes.telegram import TOKEN
from tests.fakes.twilio import ACCOUNT_SID, AUTH_TOKEN, BOT_NUMBER

class SlowNotesPack(NotesPack):
    """Takes a while over each note, so that messages are in the middle of being handled when the database
    stops (their end, and the error handling after it, then meets the outage)."""

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        await asyncio.sleep(1.0)
        return await super().on_text(turn, body)


PUBLIC = "https://smriti.example.org/bot"
TELEGRAM_PATH = "/telegram/hook"
SECRET = "outage-secret"


async def main(home: str, database_url: str, hindsight_url: str, bank_prefix: str, telegram_url: str,
               twilio_url: str, whatsapp_port: int, telegram_port: int) -> None:
    configure_logging(False)
    settings = Settings(data_dir=Path(home), hindsight_url=hindsight_url, bank_prefix=bank_prefix,
                        database_url_override=database_url, telegram_bot_token=SecretStr(TOKEN),
                        telegram_base_url=telegram_url, telegram_webhook_secret=SecretStr(SECRET),
                        twilio_account_sid=ACCOUNT_SID, twilio_auth_token=SecretStr(AUTH_TOKEN),
                        twilio_whatsapp_from=BOT_NUMBER, twilio_base_url=twilio_url, public_base_url=PUBLIC)
    app = await App.start(settings, start_local_memory=False, pack_names=[])
    app.packs = {"agri": SlowNotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    try:
        await serve(app.conversation,
                    TelegramOptions(webhook_url=f"{PUBLIC}{TELEGRAM_PATH}", listen="127.0.0.1", port=telegram_port),
                    WhatsAppOptions(host="127.0.0.1", port=whatsapp_port))
    finally:
        await app.aclose()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:7], int(sys.argv[7]), int(sys.argv[8])))
