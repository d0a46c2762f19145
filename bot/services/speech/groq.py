"""Speech to text with Groq Whisper. Tests point it at a fake Groq server through base_url."""

import httpx
from groq import APIConnectionError, APIStatusError, APITimeoutError, AsyncGroq, omit

import bot.services.llm  # noqa: F401  (keeps the Groq SDK's request dumps out of the logs)
from bot.services.audio import PreparedAudio
from bot.services.speech.base import SpeechUnavailable, Transcript, vocabulary_prompt


class GroqSpeech:
    name = "groq"

    def __init__(
        self,
        api_key: str,
        model: str = "whisper-large-v3",
        base_url: str | None = None,
        timeout_s: float = 60.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.model = model
        self._client = AsyncGroq(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=1, http_client=http_client
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def transcribe(self, audio: PreparedAudio, language: str | None,
                         vocabulary: list[str] | None = None) -> Transcript:
        """Transcribe prepared audio; `language` is a hint (te, en), and mixed speech is fine either way."""
        prompt = vocabulary_prompt(vocabulary)
        try:
            result = await self._client.audio.transcriptions.create(
                file=(audio.path.name, audio.path.read_bytes()),
                model=self.model,
                response_format="json",
                temperature=0.0,
                language=language or omit,
                prompt=prompt or omit,
            )
        except (APIConnectionError, APITimeoutError) as exc:
            raise SpeechUnavailable(f"Groq speech unreachable: {type(exc).__name__}") from exc
        except APIStatusError as exc:
            if exc.status_code >= 500 or exc.status_code == 429:
                raise SpeechUnavailable(f"Groq speech answered {exc.status_code}") from exc
            raise
        return Transcript(text=result.text.strip(), language_hint=language, engine=self.name)


SpeechToText = GroqSpeech
"""The name this engine had when it was the only one."""
