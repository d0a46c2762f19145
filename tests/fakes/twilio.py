"""A fake Twilio: the REST endpoint that records outgoing messages, a media host that insists on the account's
basic-auth credentials, and the signed webhook form Twilio would POST for an inbound WhatsApp message."""

import asyncio
import base64
import itertools
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from twilio.request_validator import RequestValidator

from tests.fakes.http import FakeServer, Recorded, Response

ACCOUNT_SID = "AC" + "0" * 32
AUTH_TOKEN = "fake-auth-token"
BOT_NUMBER = "whatsapp:+14155238886"


@dataclass
class SentMessage:
    to: str
    body: str | None
    media_urls: list[str]
    content_sid: str | None
    content_variables: str | None
    status_callback: str | None = None


class FakeTwilio:
    """Use `url` as settings.twilio_base_url; `add_media` returns a MediaUrl served with basic auth."""

    def __init__(self) -> None:
        self.server = FakeServer()
        self._sids = itertools.count(1)
        self._media: dict[str, tuple[str, bytes]] = {}
        self._unannounced: set[str] = set()
        self.media_fetches: list[Recorded] = []
        self.fail_next = 0
        """How many of the next message creations to refuse, with `fail_status` (a 500, as during an incident)."""
        self.fail_status = 500
        self.accepted: list[tuple[str, dict[str, str]]] = []
        """(SID, form) of every message creation answered 201."""
        self.server.route("POST", f"/2010-04-01/Accounts/{ACCOUNT_SID}/Messages.json", self._create)
        self.server.route("GET", "/media/", self._serve_media)

    @property
    def url(self) -> str:
        return self.server.url

    def close(self) -> None:
        self.server.close()

    # --- the REST API ------------------------------------------------------------------------------------

    def _create(self, request: Recorded) -> Response:
        if request.headers.get("Authorization") != _basic(ACCOUNT_SID, AUTH_TOKEN):
            return Response.of_json({"code": 20003, "message": "Authenticate", "status": 401}, status=401)
        if self.fail_next:
            self.fail_next -= 1
            status = self.fail_status
            code = 20500 if status >= 500 else 21211
            return Response.of_json({"code": code, "message": f"refused with {status}", "status": status},
                                    status=status)
        form = parse_qsl(request.body.decode(), keep_blank_values=True)
        fields = dict(form)
        sid = f"SM{next(self._sids):032d}"
        self.accepted.append((sid, fields))
        return Response.of_json({
            "sid": sid, "account_sid": ACCOUNT_SID, "status": "queued", "to": fields.get("To"),
            "from": fields.get("From"), "body": fields.get("Body"), "num_media": "0", "direction": "outbound-api",
            "date_created": None, "uri": f"/2010-04-01/Accounts/{ACCOUNT_SID}/Messages/{sid}.json",
        }, status=201)

    def sent(self) -> list[SentMessage]:
        """Every message creation the bot asked for (including refused ones)."""
        messages = []
        for request in self.server.requests:
            if request.method != "POST" or not request.path.endswith("/Messages.json"):
                continue
            pairs = parse_qsl(request.body.decode(), keep_blank_values=True)
            fields = dict(pairs)
            assert fields.get("From") == BOT_NUMBER
            messages.append(SentMessage(to=fields["To"], body=fields.get("Body"),
                                        media_urls=[v for k, v in pairs if k == "MediaUrl"],
                                        content_sid=fields.get("ContentSid"),
                                        content_variables=fields.get("ContentVariables"),
                                        status_callback=fields.get("StatusCallback")))
        return messages

    def bodies_to(self, number: str) -> list[str]:
        return [m.body or "" for m in self.sent() if m.to == f"whatsapp:{number}"]

    async def wait_sent(self, count: int, timeout: float = 15.0) -> list[SentMessage]:
        deadline = time.monotonic() + timeout
        while len(self.sent()) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(self.sent())} messages sent, wanted {count}: {self.sent()}")
            await asyncio.sleep(0.02)
        return self.sent()

    # --- the media host ----------------------------------------------------------------------------------

    def add_media(self, content: bytes, content_type: str, unannounced: bool = False) -> str:
        """Serve a file with the account's credentials; `unannounced` sends it without a Content-Length."""
        name = f"ME{next(self._sids):032d}"
        self._media[name] = (content_type, content)
        if unannounced:
            self._unannounced.add(name)
        return f"{self.url}/media/{name}"

    def _serve_media(self, request: Recorded) -> Response:
        self.media_fetches.append(request)
        if request.headers.get("Authorization") != _basic(ACCOUNT_SID, AUTH_TOKEN):
            return Response(401, b"unauthorized", "text/plain")
        name = request.path.rsplit("/", 1)[1]
        stored = self._media.get(name)
        if stored is None:
            return Response(404, b"no such media", "text/plain")
        content_type, content = stored
        return Response(200, content, content_type, announce=0 if name in self._unannounced else None)


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def inbound_form(message_sid: str, number: str, body: str = "",
                 media: list[tuple[str, str]] | None = None, **extra: str) -> dict[str, str]:
    """The form Twilio POSTs for an inbound WhatsApp message; media is [(url, content type)]."""
    form = {"MessageSid": message_sid, "SmsMessageSid": message_sid, "AccountSid": ACCOUNT_SID,
            "From": f"whatsapp:{number}", "To": BOT_NUMBER, "Body": body, "NumMedia": str(len(media or [])),
            "ProfileName": "Tester", "WaId": number.lstrip("+"), "NumSegments": "1", "SmsStatus": "received",
            "ApiVersion": "2010-04-01", **extra}
    for index, (url, content_type) in enumerate(media or []):
        form[f"MediaUrl{index}"] = url
        form[f"MediaContentType{index}"] = content_type
    return form


def sign(url: str, form: dict[str, Any], token: str = AUTH_TOKEN) -> str:
    """The X-Twilio-Signature Twilio would send for this URL and form."""
    return RequestValidator(token).compute_signature(url, form)
