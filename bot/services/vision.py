"""Reading a photo with a Groq vision model, when a key is set; Tesseract (bot/services/ocr.py) is the offline path.

The model is asked for a transcription only, never for an interpretation, so the same splitting rules apply
to its text as to Tesseract's. Failures raise VisionUnavailable so the caller falls back to Tesseract.
"""

import base64
import logging
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING

import bot.services.llm  # noqa: F401  (keeps the Groq SDK's request dumps out of the logs)
from bot.core.errors import VisionUnavailable
from bot.services.ocr import ReadText
from bot.services.prompts import Prompt

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

MAX_VISION_BYTES = 4 * 1024 * 1024
"""Groq's limit for a base64 image in a request."""


class VisionReader:
    def __init__(
        self,
        api_key: str,
        model: str,
        base_url: str | None = None,
        timeout_s: float = 60.0,
        http_client: "httpx.AsyncClient | None" = None,
    ) -> None:
        from groq import AsyncGroq  # the SDK loads only when a key is set and a reader is built

        self.model = model
        self._client = AsyncGroq(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=1, http_client=http_client
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def read(self, path: Path, prompt: Prompt, mime_type: str | None = None) -> ReadText:
        """Return the text the model transcribes from an image file."""
        data = path.read_bytes()
        if len(data) > MAX_VISION_BYTES:
            raise VisionUnavailable("image too large for the vision model")
        kind = mime_type or mimetypes.guess_type(path.name)[0] or "image/png"
        url = f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
        from groq import APIConnectionError, APIStatusError, APITimeoutError

        try:
            response = await self._client.chat.completions.create(
                model=self.model,
                temperature=0.0,
                messages=[
                    {"role": "system", "content": prompt.system},
                    {"role": "user", "content": [
                        {"type": "text", "text": prompt.user},
                        {"type": "image_url", "image_url": {"url": url}},
                    ]},
                ],
            )
        except (APIConnectionError, APITimeoutError) as exc:
            raise VisionUnavailable(f"Groq unreachable: {type(exc).__name__}") from exc
        except APIStatusError as exc:
            raise VisionUnavailable(f"Groq vision answered {exc.status_code}") from exc
        text = response.choices[0].message.content or ""
        if not text.strip():
            raise VisionUnavailable("the vision model returned no text")
        return ReadText(text=text, method="groq-vision")
