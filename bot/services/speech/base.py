"""What every speech engine is: prepared audio + a language hint + the tenant's own words -> a transcript."""

from typing import Protocol

from pydantic import BaseModel

from bot.services.audio import PreparedAudio
from bot.core.errors import SpeechUnavailable as SpeechUnavailable  # one class, the error tree's


class Transcript(BaseModel):
    text: str
    language_hint: str | None
    engine: str = ""


class SpeechEngine(Protocol):
    name: str

    async def transcribe(self, audio: PreparedAudio, language: str | None,
                         vocabulary: list[str] | None = None) -> Transcript:
        """Transcribe prepared audio; `language` is a hint (te, en); `vocabulary` lists names to expect."""
        ...

    async def aclose(self) -> None: ...


def vocabulary_prompt(words: list[str] | None, limit_chars: int = 600) -> str | None:
    """The tenant's words as a Whisper prompt: names the speaker is likely to say, most important first.

    Whisper keeps only the last ~224 tokens of a prompt, so the list is cut rather than overflowing."""
    if not words:
        return None
    kept: list[str] = []
    size = 0
    for word in dict.fromkeys(w.strip() for w in words if w.strip()):
        if size + len(word) + 2 > limit_chars:
            break
        kept.append(word)
        size += len(word) + 2
    return ", ".join(kept) + "." if kept else None
