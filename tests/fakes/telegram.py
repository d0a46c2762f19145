"""A fake Telegram Bot API server that the real python-telegram-bot Application talks to over loopback.

It serves getMe, getUpdates (long polling on a queue the test fills), getFile and file downloads, and records
every other call (sendMessage, editMessageText, answerCallbackQuery, sendChatAction, setMyCommands, sendPhoto,
setWebhook...) with its decoded parameters. Messages the bot sends get ids, so a test can press their buttons.
"""

import asyncio
import email.parser
import email.policy
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote

from tests.fakes.http import FakeServer, Recorded, Response

TOKEN = "123456:TEST-TOKEN"
BOT_USER = {"id": 999, "is_bot": True, "first_name": "Smriti", "username": "SmritiTestBot",
            "can_join_groups": False, "can_read_all_group_messages": False, "supports_inline_queries": False}
_PLAIN_TEXT_PARAMS = {"text", "caption", "callback_query_id", "file_id", "url", "secret_token", "action"}


@dataclass
class ApiCall:
    method: str
    params: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)


def _decode_value(name: str, value: str) -> Any:
    if name in _PLAIN_TEXT_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _decode(request: Recorded) -> tuple[dict[str, Any], dict[str, bytes]]:
    content_type = request.headers.get("Content-Type", "")
    if content_type.startswith("multipart/form-data"):
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + request.body)
        params: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            if part.get_filename():
                files[name] = payload
            else:
                params[name] = _decode_value(name, payload.decode())
        return params, files
    pairs = parse_qsl(request.body.decode(), keep_blank_values=True)
    return {k: _decode_value(k, v) for k, v in pairs}, {}


class FakeTelegram:
    """The Bot API at `url` for the token TOKEN; use `url` as settings.telegram_base_url."""

    def __init__(self) -> None:
        self.server = FakeServer()
        self.calls: list[ApiCall] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[str, tuple[str, bytes]] = {}
        self.claimed_sizes: dict[str, int] = {}
        self.webhook_url: str | None = None
        self.fail_script: dict[str, list[int]] = {}
        """Statuses to answer a method's next calls with (500: Telegram's own trouble, 400: a refusal)."""
        self.malformed: set[str] = set()
        """Methods answered with a well-formed envelope around a result of the wrong shape ({"ok":true,"result":true})."""
        self.flood_once: set[str] = set()
        """Methods to refuse once with 429 Too Many Requests (retry_after 1 s), as Telegram does under flood control."""
        self._updates: list[dict[str, Any]] = []
        self._ready = threading.Condition()
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(100)
        self._file_ids = itertools.count(1)
        self.server.route("POST", f"/bot{TOKEN}/", self._api)
        self.server.route("GET", "/file/bot", self._download)

    @property
    def url(self) -> str:
        return self.server.url

    def close(self) -> None:
        with self._ready:
            self._ready.notify_all()
        self.server.close()

    # --- what the test sends ---------------------------------------------------------------------------------

    def push(self, update: dict[str, Any]) -> int:
        """Queue an update for getUpdates; return its update_id."""
        update = {"update_id": update.get("update_id") or next(self._update_ids), **update}
        with self._ready:
            self._updates.append(update)
            self._ready.notify_all()
        return update["update_id"]

    def add_file(self, content: bytes, suffix: str, claimed_size: int | None = None) -> dict[str, Any]:
        """Serve a file; with `claimed_size`, the message and getFile state that size and the download has no
        Content-Length: a file host that understates what it sends."""
        number = next(self._file_ids)
        file_id = f"file-{number}"
        self.files[file_id] = (f"files/file_{number}{suffix}", content)
        if claimed_size is not None:
            self.claimed_sizes[file_id] = claimed_size
        return {"file_id": file_id, "file_unique_id": f"u{number}", "file_size": self._size_of(file_id)}

    def _size_of(self, file_id: str) -> int:
        return self.claimed_sizes.get(file_id, len(self.files[file_id][1]))

    def _message(self, user_id: int, chat_type: str = "private", **content: Any) -> dict[str, Any]:
        chat = {"id": user_id, "type": chat_type, "first_name": "Tester"} if chat_type == "private" else \
            {"id": -abs(user_id), "type": chat_type, "title": "A group"}
        return {"message_id": next(self._message_ids), "date": int(time.time()), "chat": chat,
                "from": {"id": user_id, "is_bot": False, "first_name": "Tester"}, **content}

    def send_text(self, user_id: int, body: str, chat_type: str = "private") -> int:
        content: dict[str, Any] = {"text": body}
        if body.startswith("/"):
            content["entities"] = [{"type": "bot_command", "offset": 0, "length": len(body.split(" ")[0])}]
        return self.push({"message": self._message(user_id, chat_type, **content)})

    def send_voice(self, user_id: int, ogg: bytes, duration: int = 3, size: int | None = None,
                   claimed_size: int | None = None) -> int:
        meta = self.add_file(ogg, ".oga", claimed_size)
        voice = {**meta, "duration": duration, "mime_type": "audio/ogg"}
        if size is not None:
            voice["file_size"] = size
        return self.push({"message": self._message(user_id, voice=voice)})

    def send_photo(self, user_id: int, image: bytes, caption: str | None = None) -> int:
        thumb = {**self.add_file(b"tiny", ".jpg"), "width": 90, "height": 60}
        large = {**self.add_file(image, ".jpg"), "width": 1280, "height": 853}
        medium = {**self.add_file(b"medium", ".jpg"), "width": 320, "height": 213}
        content: dict[str, Any] = {"photo": [thumb, large, medium]}
        if caption:
            content["caption"] = caption
        return self.push({"message": self._message(user_id, **content)})

    def send_document(self, user_id: int, content: bytes, file_name: str, mime_type: str) -> int:
        document = {**self.add_file(content, "." + file_name.rsplit(".", 1)[-1]), "file_name": file_name,
                    "mime_type": mime_type}
        return self.push({"message": self._message(user_id, document=document)})

    def send_sticker(self, user_id: int) -> int:
        sticker = {**self.add_file(b"webp", ".webp"), "width": 512, "height": 512, "is_animated": False,
                   "is_video": False, "type": "regular"}
        return self.push({"message": self._message(user_id, sticker=sticker)})

    def press(self, user_id: int, message_id: int, data: str, in_chat: int | None = None) -> int:
        """Press a button with `data` on a message the bot sent (shown in `in_chat`, default its own chat)."""
        shown = self.messages[message_id]
        message = {"message_id": message_id, "date": int(time.time()),
                   "chat": {"id": in_chat or shown["chat_id"], "type": "private", "first_name": "Tester"},
                   "from": BOT_USER, "text": shown["text"]}
        if shown.get("reply_markup"):
            message["reply_markup"] = shown["reply_markup"]
        query = {"id": f"cq-{next(self._update_ids)}", "from": {"id": user_id, "is_bot": False, "first_name": "T"},
                 "chat_instance": "ci", "data": data, "message": message}
        return self.push({"callback_query": query})

    # --- what the test reads -----------------------------------------------------------------------------

    def sent(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method == method]

    async def wait_for(self, method: str, count: int = 1, timeout: float = 15.0) -> list[ApiCall]:
        """Wait until the bot has made `count` calls of `method`; return them all."""
        deadline = time.monotonic() + timeout
        while len(self.sent(method)) < count:
            if time.monotonic() > deadline:
                seen = [c.method for c in self.calls]
                raise AssertionError(f"bot made {len(self.sent(method))} {method} calls, wanted {count}; saw {seen}")
            await asyncio.sleep(0.02)
        return self.sent(method)

    async def wait_consumed(self, update_id: int, timeout: float = 15.0) -> None:
        """Wait until getUpdates has handed out update_id."""
        deadline = time.monotonic() + timeout
        while any(u["update_id"] == update_id for u in self._updates):
            if time.monotonic() > deadline:
                raise AssertionError(f"update {update_id} was never fetched")
            await asyncio.sleep(0.02)

    def buttons(self, message_id: int) -> dict[str, str]:
        """label -> callback_data of the inline keyboard a message shows now."""
        markup = self.messages[message_id].get("reply_markup") or {}
        return {b["text"]: b["callback_data"] for row in markup.get("inline_keyboard", []) for b in row}

    def last_message_with_buttons(self, chat_id: int) -> int:
        return max(m for m, v in self.messages.items() if v["chat_id"] == chat_id and v.get("reply_markup"))

    # --- the Bot API ---------------------------------------------------------------------------------------

    def _api(self, request: Recorded) -> Response:
        method = request.path.split("?", 1)[0].rsplit("/", 1)[1]
        params, files = _decode(request)
        if method != "getUpdates":
            self.calls.append(ApiCall(method, params, files))
        script = self.fail_script.get(method)
        if script:
            status = script.pop(0)
            return Response.of_json({"ok": False, "error_code": status,
                                     "description": "Bad Request: chat not found" if status < 500
                                     else "Internal Server Error"}, status=status)
        if method in self.flood_once:
            self.flood_once.discard(method)
            return Response.of_json({"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 1",
                                     "parameters": {"retry_after": 1}}, status=429)
        if method in self.malformed:
            return self._ok(True)
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            return Response.of_json({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
        return handler(params)

    @staticmethod
    def _ok(result: Any) -> Response:
        return Response.of_json({"ok": True, "result": result})

    @staticmethod
    def _bad(description: str) -> Response:
        return Response.of_json({"ok": False, "error_code": 400, "description": f"Bad Request: {description}"},
                                status=400)

    def _m_getMe(self, params: dict[str, Any]) -> Response:
        return self._ok(BOT_USER)

    def _m_getUpdates(self, params: dict[str, Any]) -> Response:
        offset = int(params.get("offset") or 0)
        wait = min(float(params.get("timeout") or 0), 1.0)
        with self._ready:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if not self._updates and wait:
                self._ready.wait(wait)
            ready = [u for u in self._updates if u["update_id"] >= offset]
        return self._ok(ready)

    def _m_deleteWebhook(self, params: dict[str, Any]) -> Response:
        self.webhook_url = None
        return self._ok(True)

    def _m_setWebhook(self, params: dict[str, Any]) -> Response:
        self.webhook_url = params.get("url")
        return self._ok(True)

    def _m_setMyCommands(self, params: dict[str, Any]) -> Response:
        return self._ok(True)

    def _m_sendChatAction(self, params: dict[str, Any]) -> Response:
        return self._ok(True)

    def _m_answerCallbackQuery(self, params: dict[str, Any]) -> Response:
        return self._ok(True)

    def _store(self, params: dict[str, Any], **content: Any) -> dict[str, Any]:
        message_id = next(self._message_ids)
        chat_id = int(params["chat_id"])
        self.messages[message_id] = {"chat_id": chat_id, "text": content.get("text") or content.get("caption"),
                                     "reply_markup": params.get("reply_markup")}
        result = {"message_id": message_id, "date": int(time.time()), "from": BOT_USER,
                  "chat": {"id": chat_id, "type": "private", "first_name": "Tester"}, **content}
        if params.get("reply_markup"):
            result["reply_markup"] = params["reply_markup"]
        return result

    def _m_sendMessage(self, params: dict[str, Any]) -> Response:
        if len(params.get("text", "")) > 4096:
            return self._bad("message is too long")
        return self._ok(self._store(params, text=params["text"]))

    def _m_sendPhoto(self, params: dict[str, Any]) -> Response:
        if len(params.get("caption") or "") > 1024:
            return self._bad("message caption is too long")
        photo = [{"file_id": "sent-photo", "file_unique_id": "sp", "width": 800, "height": 600, "file_size": 1}]
        content: dict[str, Any] = {"photo": photo}
        if params.get("caption"):
            content["caption"] = params["caption"]
        return self._ok(self._store(params, **content))

    def _m_editMessageText(self, params: dict[str, Any]) -> Response:
        message_id = int(params.get("message_id") or 0)
        shown = self.messages.get(message_id)
        if shown is None or shown["chat_id"] != int(params["chat_id"]):
            return self._bad("message to edit not found")
        markup = params.get("reply_markup")
        if shown["text"] == params["text"] and shown.get("reply_markup") == markup:
            return self._bad("message is not modified")
        shown.update(text=params["text"], reply_markup=markup)
        result = {"message_id": message_id, "date": int(time.time()), "from": BOT_USER,
                  "chat": {"id": shown["chat_id"], "type": "private", "first_name": "Tester"},
                  "text": params["text"], "edit_date": int(time.time())}
        if markup:
            result["reply_markup"] = markup
        return self._ok(result)

    def _m_getFile(self, params: dict[str, Any]) -> Response:
        stored = self.files.get(params.get("file_id", ""))
        if stored is None:
            return self._bad("invalid file_id")
        path, _ = stored
        return self._ok({"file_id": params["file_id"], "file_unique_id": "u", "file_size": self._size_of(params["file_id"]),
                         "file_path": path})

    def _download(self, request: Recorded) -> Response:
        path = unquote(request.path)  # httpx sends the token's colon as %3A
        if not path.startswith(f"/file/bot{TOKEN}/"):
            return Response(401, b"wrong token", "text/plain")
        wanted = path.split(f"/file/bot{TOKEN}/", 1)[1]
        for file_id, (path, content) in self.files.items():
            if path == wanted:
                lying = file_id in self.claimed_sizes
                return Response(200, content, "application/octet-stream", announce=0 if lying else None)
        return Response(404, b"not found", "text/plain")
