"""Run chat transports in one process until SIGINT or SIGTERM: Telegram, WhatsApp, or both.

Both in one process is how a follow-up reaches a person on whichever app they last used: the outbound
notifiers, the intake worker and the follow-up scheduler are shared by every transport running here.
"""

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from typing import TYPE_CHECKING

import uvicorn
from pydantic import BaseModel

from bot.core.conversation import Conversation
from bot.core.worker import IntakeWorker

if TYPE_CHECKING:
    from bot.core.app import App
    from bot.core.pack import PackCatalog
    from bot.transports.telegram.app import TelegramTransport


class TelegramOptions(BaseModel):
    """Long polling, or Telegram's webhook when a public URL is given."""

    webhook_url: str | None = None
    listen: str = "127.0.0.1"
    port: int = 8443


class WhatsAppOptions(BaseModel):
    """Where the Twilio webhook listens."""

    host: str = "127.0.0.1"
    port: int = 8080


class _Server(uvicorn.Server):
    """uvicorn without its own signal handling: `serve` stops it, as it stops PTB."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def office_app(app: "App", catalog: "PackCatalog") -> object:
    """The office web page's ASGI app for this running bot."""
    from bot.web.app import build_context, create_web_app

    return create_web_app(build_context(app, catalog))


async def serve_web(app: "App", catalog: "PackCatalog", host: str, port: int) -> None:
    """Serve only the office web page until SIGINT or SIGTERM."""
    server = _Server(uvicorn.Config(office_app(app, catalog), host=host, port=port, log_level="info",  # type: ignore[arg-type]
                                    proxy_headers=False, access_log=False))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    serving = asyncio.create_task(server.serve())
    try:
        await asyncio.wait({serving, asyncio.create_task(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        server.should_exit = True
        await serving
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def serve(conversation: Conversation, telegram: TelegramOptions | None = None,
                whatsapp: WhatsAppOptions | None = None,
                office: "tuple[App, PackCatalog] | None" = None) -> None:
    """Serve the chosen transports; raise TelegramNotConfigured / WhatsAppNotConfigured before starting any."""
    # Imported here so that a process serving one transport does not load the other's libraries.
    telegram_transport: "TelegramTransport | None" = None
    if telegram is not None:
        from bot.transports.telegram.app import TelegramTransport
        telegram_transport = TelegramTransport(conversation)
        if telegram.webhook_url:
            telegram_transport.webhook_secret()  # refuses before anything starts
    server: _Server | None = None
    if whatsapp is not None:
        from bot.transports.whatsapp.webhook import create_app
        from bot.transports.whatsapp.transport import WhatsAppTransport
        webhook = create_app(WhatsAppTransport(conversation))
        if office is not None:
            webhook.router.routes.extend(office_app(*office).router.routes)  # type: ignore[attr-defined]
        # Behind a reverse proxy the public URL comes from settings, so forwarded headers are not needed.
        server = _Server(uvicorn.Config(webhook, host=whatsapp.host,
                                        port=whatsapp.port, log_level="info", proxy_headers=False, access_log=False))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    # Retries what could not be processed while Groq or Hindsight was down; results go out via the notifiers.
    worker = asyncio.create_task(IntakeWorker(conversation).run_forever(stop))
    waiting: set[asyncio.Task[object]] = {asyncio.create_task(stop.wait())}
    if server is not None:
        waiting.add(asyncio.create_task(server.serve()))
    try:
        if telegram is not None and telegram_transport is not None:  # both or neither; the check is for mypy
            if telegram.webhook_url:
                await telegram_transport.start_webhook(telegram.webhook_url, telegram.listen, telegram.port)
            else:
                await telegram_transport.start_polling()
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.set()
        if server is not None:
            server.should_exit = True
        await asyncio.gather(*waiting, worker)
        if telegram_transport is not None:
            await telegram_transport.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
