"""A Groq chat model that returns validated JSON, or says plainly that it could not.

Structured calls follow the field-memory write-up: validate with pydantic; on failure retry once with the
validation error appended; then try the fallback model; then raise StructuringFailed. Network and server
failures raise ChatUnavailable so callers switch to their deterministic path.
"""

import json
import logging
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ValidationError

from bot.core.errors import ChatUnavailable
from bot.log_hygiene import drop_messages_starting_with
from bot.services.prompts import Prompt

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

__all__ = ["Attempt", "ChatModel", "ChatUnavailable", "StructuringFailed"]


# The Groq SDK's DEBUG dump of each request holds whole prompts (transcripts, invoices). Its logger is shared
# by the chat, speech and vision clients, which all import this module.
drop_messages_starting_with("groq._base_client", "Request options")


class StructuringFailed(RuntimeError):
    """Every attempt returned output that did not validate."""

    def __init__(self, attempts: list[str]) -> None:
        super().__init__(f"no valid output after {len(attempts)} attempts")
        self.attempts = attempts


class Attempt(BaseModel):
    model: str
    ok: bool
    error: str | None = None


class ChatModel:
    def __init__(
        self,
        api_key: str,
        primary_model: str,
        fallback_model: str,
        base_url: str | None = None,
        timeout_s: float = 30.0,
        http_client: "httpx.AsyncClient | None" = None,
    ) -> None:
        from groq import AsyncGroq  # the SDK loads only when a key is set and a model is built

        self.primary_model = primary_model
        self.fallback_model = fallback_model
        self._client = AsyncGroq(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=1, http_client=http_client
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def _complete(self, model: str, messages: list[dict[str, str]], as_json: bool) -> str:
        from groq import APIConnectionError, APIStatusError, APITimeoutError

        try:
            # Plain dicts, not the SDK's TypedDicts, and an optional response_format spread in: no overload names
            # that combination, though the API takes it.
            response = await self._client.chat.completions.create(  # type: ignore[call-overload]
                model=model,
                messages=messages,
                temperature=0.1,
                **({"response_format": {"type": "json_object"}} if as_json else {}),
            )
        except (APIConnectionError, APITimeoutError) as exc:
            raise ChatUnavailable(f"Groq unreachable: {type(exc).__name__}") from exc
        except APIStatusError as exc:
            if exc.status_code >= 500 or exc.status_code == 429:
                raise ChatUnavailable(f"Groq answered {exc.status_code}") from exc
            raise
        return response.choices[0].message.content or ""

    async def text(self, prompt: Prompt) -> str:
        """Return a free-text completion from the primary model, falling back once on failure."""
        messages = [{"role": "system", "content": prompt.system}, {"role": "user", "content": prompt.user}]
        try:
            return await self._complete(self.primary_model, messages, as_json=False)
        except ChatUnavailable:
            return await self._complete(self.fallback_model, messages, as_json=False)

    async def structured(self, prompt: Prompt, schema: type[M]) -> tuple[M, list[Attempt]]:
        """Return output validated against `schema`, with the attempts it took."""
        base = [{"role": "system", "content": prompt.system}, {"role": "user", "content": prompt.user}]
        attempts: list[Attempt] = []
        plan = [(self.primary_model, False), (self.primary_model, True), (self.fallback_model, False)]
        last_error = ""
        for model, with_error in plan:
            messages = list(base)
            if with_error:
                messages.append({
                    "role": "user",
                    "content": f"Your previous answer was invalid: {last_error[:1500]}\nReturn only corrected JSON.",
                })
            raw = await self._complete(model, messages, as_json=True)
            try:
                value = schema.model_validate(json.loads(raw))
            except (json.JSONDecodeError, ValidationError) as exc:
                last_error = str(exc)
                attempts.append(Attempt(model=model, ok=False, error=last_error[:300]))
                log.info("structured output from %s failed validation", model)
                continue
            attempts.append(Attempt(model=model, ok=True))
            return value, attempts
        raise StructuringFailed([a.error or "" for a in attempts])
