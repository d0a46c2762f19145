"""The WhatsApp webhook: a Starlette ASGI app that turns Twilio's signed POSTs into queued inbound messages.

It checks X-Twilio-Signature against the public URL Twilio called (SMRITI_PUBLIC_BASE_URL + path, as seen
through any reverse proxy), answers at once with empty TwiML, and leaves the work to the transport's workers.
It also serves the images the bot sends, since Twilio fetches outgoing media by URL.
"""

import contextlib
import logging
import re
from collections.abc import AsyncIterator
from urllib.parse import parse_qsl

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route
from twilio.request_validator import RequestValidator

from bot.transports.health import BodyTooLarge, Health, all_routes, read_capped, too_large
from bot.transports.whatsapp.send import MEDIA_ROUTE, STATUS_ROUTE
from bot.transports.whatsapp.transport import TwilioInbound, TwilioStatus, WhatsAppTransport

log = logging.getLogger(__name__)

WEBHOOK_ROUTE = "/whatsapp/inbound"
EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>'
_MEDIA_NAME = re.compile(r"^[0-9a-f]{32}\.(png|jpe?g|gif|webp|pdf)$")


def create_app(transport: WhatsAppTransport, health: Health | None = None) -> Starlette:
    """Build the ASGI app; its lifespan starts and stops the transport's workers. With `health`, it also serves
    readiness and metrics."""
    validators = [RequestValidator(token) for token in transport.config.auth_tokens]

    async def signed_form(request: Request, route: str) -> dict[str, str] | None:
        """The form Twilio posted, or None when its signature does not match the public URL it called (under
        any of the valid auth tokens: two during a rotation). The body is read with a cap (BodyTooLarge);
        nothing of it is used before the signature matches."""
        signature = request.headers.get("X-Twilio-Signature", "")
        if not signature:
            log.warning("refused a whatsapp webhook call to %s without a signature", route)
            return None
        raw = await read_capped(request)
        form = dict(parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True))
        called = transport.config.public_base_url + route
        url = f"{called}?{request.url.query}" if request.url.query else called
        if not any(v.validate(url, form, signature) for v in validators):
            log.warning("refused a whatsapp webhook call to %s with a bad signature", route)
            return None
        return form

    async def inbound(request: Request) -> Response:
        """Validate the signature, keep the message durably (database or spool), answer with empty TwiML."""
        try:
            form = await signed_form(request, WEBHOOK_ROUTE)
        except BodyTooLarge:
            log.warning("refused a whatsapp webhook call with a body over the limit")
            return too_large()
        if form is None:
            return PlainTextResponse("forbidden", status_code=403)
        try:
            message = TwilioInbound.from_form(form)
        except (ValidationError, ValueError, KeyError):
            log.warning("refused a signed whatsapp webhook call that is not an inbound message")
            return PlainTextResponse("not an inbound message", status_code=400)
        transport.accept(message)
        return Response(EMPTY_TWIML, media_type="text/xml")

    async def status(request: Request) -> Response:
        """Twilio's delivery status for a message the bot sent: it updates the reply outbox."""
        try:
            form = await signed_form(request, STATUS_ROUTE)
        except BodyTooLarge:
            return too_large()
        if form is None:
            return PlainTextResponse("forbidden", status_code=403)
        try:
            report = TwilioStatus.from_form(form)
        except ValidationError:
            return PlainTextResponse("not a status callback", status_code=400)
        await transport.on_status(report)
        return Response(EMPTY_TWIML, media_type="text/xml")

    async def media(request: Request) -> Response:
        """Serve an image the bot is sending, by its unguessable name."""
        name = request.path_params["name"]
        path = transport.sender.outgoing_dir / name
        if not _MEDIA_NAME.match(name) or not path.is_file():
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(path)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await transport.start()
        try:
            yield
        finally:
            await transport.stop()

    return Starlette(routes=all_routes(health, [
        Route(WEBHOOK_ROUTE, inbound, methods=["POST"]),
        Route(STATUS_ROUTE, status, methods=["POST"]),
        Route(f"{MEDIA_ROUTE}/{{name}}", media, methods=["GET"]),
    ]), lifespan=lifespan)
