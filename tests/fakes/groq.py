"""A fake Groq server speaking the OpenAI-compatible routes the bot uses: chat completions and Whisper.

Tests script it: queue chat answers (text, or an HTTP status to fail with) and transcripts; it records
what the bot sent, so a test can check the model, the language hint and the prompt.
"""

import re
import time
from collections import deque

from tests.fakes.http import FakeServer, Recorded, Response


class FakeGroq:
    def __init__(self) -> None:
        self.server = FakeServer()
        self.chat_script: deque[str | int] = deque()
        self.transcripts: deque[str | int] = deque()
        self.default_chat: str | None = None
        self.server.route("POST", "/openai/v1/chat/completions", self._chat)
        self.server.route("POST", "/openai/v1/audio/transcriptions", self._transcribe)

    @property
    def url(self) -> str:
        return self.server.url

    def close(self) -> None:
        self.server.close()

    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.server.requests if r.path.endswith("/chat/completions")]

    def transcription_requests(self) -> list[Recorded]:
        return [r for r in self.server.requests if r.path.endswith("/audio/transcriptions")]

    def _chat(self, request: Recorded) -> Response:
        if self.chat_script:
            step = self.chat_script.popleft()
        elif self.default_chat is not None:
            step = self.default_chat
        else:
            return Response.of_json({"error": {"message": "fake groq has no scripted answer"}}, status=500)
        if isinstance(step, int):
            return Response.of_json({"error": {"message": f"scripted failure {step}"}}, status=step)
        model = request.json().get("model", "fake")
        return Response.of_json({
            "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": step}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })

    def _transcribe(self, request: Recorded) -> Response:
        if not self.transcripts:
            return Response.of_json({"error": {"message": "no scripted transcript"}}, status=500)
        step = self.transcripts.popleft()
        if isinstance(step, int):
            return Response.of_json({"error": {"message": f"scripted failure {step}"}}, status=step)
        return Response.of_json({"text": step})


def multipart_field(request: Recorded, name: str) -> str | None:
    """Return a plain form field from a multipart body (enough for `model` and `language`)."""
    match = re.search(rb'name="' + name.encode() + rb'"\r\n\r\n(.*?)\r\n', request.body, re.S)
    return match.group(1).decode() if match else None
