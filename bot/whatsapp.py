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

from bot.whatsapp_send import MEDIA_ROUTE
from bot.whatsapp_transport import TwilioInbound, WhatsAppTransport

log = logging.getLogger(__name__)

WEBHOOK_ROUTE = "/whatsapp/inbound"
EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>'
_MEDIA_NAME = re.compile(r"^[0-9a-f]{32}\.(png|jpe?g|gif|webp|pdf)$")


def create_app(transport: WhatsAppTransport) -> Starlette:
    """Build the ASGI app; its lifespan starts and stops the transport's workers."""
    validator = RequestValidator(transport.config.auth_token)
    public_url = transport.config.public_base_url + WEBHOOK_ROUTE

    async def inbound(request: Request) -> Response:
        """Validate the signature, queue the message, answer with empty TwiML."""
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True))
        url = f"{public_url}?{request.url.query}" if request.url.query else public_url
        if not validator.validate(url, form, request.headers.get("X-Twilio-Signature", "")):
            log.warning("refused a whatsapp webhook call with a bad signature")
            return PlainTextResponse("forbidden", status_code=403)
        try:
            message = TwilioInbound.from_form(form)
        except (ValidationError, ValueError, KeyError):
            log.warning("refused a signed whatsapp webhook call that is not an inbound message")
            return PlainTextResponse("not an inbound message", status_code=400)
        transport.accept(message)
        return Response(EMPTY_TWIML, media_type="text/xml")

    async def media(request: Request) -> Response:
        """Serve an image the bot is sending, by its unguessable name."""
        name = request.path_params["name"]
        path = transport.sender.outgoing_dir / name
        if not _MEDIA_NAME.match(name) or not path.is_file():
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(path)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await transport.start()
        try:
            yield
        finally:
            await transport.stop()

    return Starlette(routes=[
        Route(WEBHOOK_ROUTE, inbound, methods=["POST"]),
        Route(f"{MEDIA_ROUTE}/{{name}}", media, methods=["GET"]),
        Route("/health", health, methods=["GET"]),
    ], lifespan=lifespan)
