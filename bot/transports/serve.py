"""Run chat transports in one process until SIGINT or SIGTERM: Telegram, WhatsApp, or both.

Both in one process is how a follow-up reaches a person on whichever app they last used: the outbound
notifiers, the intake worker and the follow-up scheduler are shared by every transport running here.
"""

import asyncio
import os
import signal
from typing import TYPE_CHECKING

import uvicorn
from pydantic import BaseModel

from bot.core.conversation import Conversation
from bot.core.loops import Loops
from bot.core.worker import IntakeWorker
from bot.store.presence import announcer
from bot.transports.asgi import QuietServer
from bot.transports.health import Health, Queued

if TYPE_CHECKING:
    from starlette.applications import Starlette

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


def office_app(app: "App", catalog: "PackCatalog") -> object:
    """The office web page's ASGI app for this running bot."""
    from bot.web.app import build_context, create_web_app

    return create_web_app(build_context(app, catalog))


def beside(webhook: "Starlette", app: "App", catalog: "PackCatalog") -> "Starlette":
    """Serve the office web page (/office) from the webhook app too; its own routes come first."""
    webhook.router.routes.extend(office_app(app, catalog).router.routes)  # type: ignore[attr-defined]
    return webhook


async def serve_web(app: "App", catalog: "PackCatalog", host: str, port: int) -> None:
    """Serve only the office web page until SIGINT or SIGTERM."""
    web = office_app(app, catalog)
    web.router.routes.extend(Health(app.services).routes())  # type: ignore[attr-defined]
    server = QuietServer(uvicorn.Config(web, host=host, port=port, log_config=None,  # type: ignore[arg-type]
                                        log_level="info", proxy_headers=False, access_log=False))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    serving = asyncio.create_task(server.serve())
    loops = Loops()
    loops.start("running-lease", announcer(app.services.database))  # `backup restore` refuses while held
    try:
        await asyncio.wait({serving, asyncio.create_task(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        server.should_exit = True
        await serving
        await loops.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def serve(conversation: Conversation, telegram: TelegramOptions | None = None,
                whatsapp: WhatsAppOptions | None = None,
                office: "tuple[App, PackCatalog] | None" = None) -> None:
    """Serve the chosen transports; raise TelegramNotConfigured / WhatsAppNotConfigured before starting any."""
    # Imported here so that a process serving one transport does not load the other's libraries.
    telegram_transport: "TelegramTransport | None" = None
    loops = Loops()
    health = Health(conversation.services, loops=[loops], max_inbox_age_s=inbox_bound_s())
    if telegram is not None:
        from bot.transports.telegram.app import TelegramTransport
        telegram_transport = TelegramTransport(conversation)
        if telegram.webhook_url:
            telegram_transport.webhook_secret()  # refuses before anything starts
        telegram_transport.health = health
        health.loops.append(telegram_transport.loops)
        inbox = telegram_transport.inbox
        health.queues.append(Queued("telegram", inbox.qsize, inbox.spool.pending,
                                    inbox.in_flight.oldest_age_s))
    server: QuietServer | None = None
    if whatsapp is not None:
        from bot.transports.whatsapp.webhook import create_app
        from bot.transports.whatsapp.transport import WhatsAppTransport
        whatsapp_transport = WhatsAppTransport(conversation)
        health.loops.append(whatsapp_transport.loops)
        health.queues.append(Queued("whatsapp", whatsapp_transport.queue_depth, whatsapp_transport.spool.pending,
                                    whatsapp_transport.in_flight.oldest_age_s))
        webhook = create_app(whatsapp_transport, health)
        if office is not None:
            beside(webhook, *office)
        # Behind a reverse proxy the public URL comes from settings, so forwarded headers are not needed.
        server = QuietServer(uvicorn.Config(webhook, host=whatsapp.host, port=whatsapp.port, log_config=None,
                                            proxy_headers=False, access_log=False))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    # Retries what could not be processed while Groq or Hindsight was down; results go out via the notifiers.
    loops.start("intake-worker", IntakeWorker(conversation, interval_s=_env_s("SMRITI_WORKER_INTERVAL_S", 15)).loop)
    loops.start("running-lease", announcer(conversation.services.database))  # `backup restore` refuses while held
    waiting: set[asyncio.Task[object]] = {asyncio.create_task(stop.wait())}
    telegram_task: asyncio.Task[object] | None = None
    if server is not None:
        waiting.add(asyncio.create_task(server.serve()))
    try:
        if telegram is not None and telegram_transport is not None:  # both or neither; the check is for mypy
            # In the background: while the Bot API cannot be reached the other transports already serve. The task
            # ends only with an error (the process then stops) or at the stop signal.
            telegram_task = asyncio.create_task(_run_telegram(telegram_transport, telegram, stop))
            waiting.add(telegram_task)
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.set()
        if telegram_task is not None and not telegram_task.done():
            telegram_task.cancel()  # still waiting for the Bot API to answer
        if server is not None:
            server.should_exit = True
        outcomes = await asyncio.gather(*waiting, return_exceptions=True)
        await loops.stop()
        if telegram_transport is not None:
            await telegram_transport.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    failed = [o for o in outcomes if isinstance(o, BaseException) and not isinstance(o, asyncio.CancelledError)]
    if failed:
        raise failed[0]  # what stopped the process: a port taken, a refused token


async def _run_telegram(transport: "TelegramTransport", telegram: TelegramOptions, stop: asyncio.Event) -> None:
    if telegram.webhook_url:
        await transport.start_webhook(telegram.webhook_url, telegram.listen, telegram.port)
    else:
        await transport.start_polling()
    await stop.wait()


def inbox_bound_s() -> float:
    """How long a kept delivery may wait before the process is reported not ready (SMRITI_READY_INBOX_AGE_S)."""
    return _env_s("SMRITI_READY_INBOX_AGE_S", 300)


def _env_s(name: str, default: float) -> float:
    return float(os.environ.get(name) or default)
