"""Telegram's webhook as an ASGI app: the secret token checked first (any of the valid ones: two during a
rotation), the body read with a cap, the update kept durably (database or spool) before Telegram gets its 200.
The same port serves the health routes."""

import hmac
import json
import logging
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from telegram import Update

from bot.transports.health import BodyTooLarge, Health, all_routes, read_capped, too_large

if TYPE_CHECKING:
    from bot.transports.telegram.app import TelegramTransport

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def create_app(transport: "TelegramTransport", path: str, health: Health | None = None) -> Starlette:
    secrets = [s.encode() for s in transport.webhook_secrets()]

    async def update(request: Request) -> Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not any(hmac.compare_digest(given, s) for s in secrets):
            log.warning("refused a telegram webhook call with a missing or wrong secret token")
            return PlainTextResponse("forbidden", status_code=403)
        try:
            raw = await read_capped(request)
        except BodyTooLarge:
            log.warning("refused a telegram webhook call with a body over the limit")
            return too_large()
        try:
            parsed = Update.de_json(json.loads(raw), transport.application.bot)
        except Exception as exc:  # whatever PTB makes of a malformed update: the caller gets a 400, not a 500
            log.warning("refused a telegram webhook call that is not an update: %s", type(exc).__name__)
            parsed = None
        if parsed is None:
            return PlainTextResponse("not an update", status_code=400)
        await transport.inbox.put(parsed)
        return Response(status_code=200)

    return Starlette(routes=all_routes(health, [Route(path, update, methods=["POST"])]))
