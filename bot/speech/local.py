"""Speech to text on this machine with faster-whisper (CTranslate2), no key and no network once the model is here.

Transcription is CPU work of seconds: it runs in a worker thread so the event loop keeps answering others.
One lock serialises loading and decoding, because the machine's cores are better spent on one note at a time.
"""

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from bot.audio import PreparedAudio
from bot.speech.base import SpeechUnavailable, Transcript, vocabulary_prompt
from bot.speech.models import ModelNotAvailable, fetch

log = logging.getLogger(__name__)

ModelFor = Callable[[str | None], str]
"""Language (te, en, or None) -> the model spec configured for it."""


class LocalWhisper:
    name = "local"

    def __init__(self, model_for: ModelFor, models_dir: Path, cpu_threads: int = 0, beam_size: int = 5) -> None:
        self._model_for = model_for
        self._models_dir = models_dir
        self._cpu_threads = cpu_threads
        self._beam_size = beam_size
        self._loaded: dict[str, object] = {}
        self._lock = threading.Lock()

    async def aclose(self) -> None:
        self._loaded.clear()

    async def transcribe(self, audio: PreparedAudio, language: str | None,
                         vocabulary: list[str] | None = None) -> Transcript:
        text = await asyncio.to_thread(self.transcribe_file, audio.path, language, vocabulary_prompt(vocabulary))
        return Transcript(text=text, language_hint=language, engine=self.name)

    def model(self, language: str | None) -> object:
        """The loaded model for a language, fetching it once on first use (a progress line goes to the log)."""
        spec = self._model_for(language)
        with self._lock:
            return self._load(spec)

    def _load(self, spec: str) -> object:
        if spec in self._loaded:
            return self._loaded[spec]
        try:
            from faster_whisper import WhisperModel
        except ImportError as exc:
            raise SpeechUnavailable("faster-whisper is not installed", retry=False) from exc
        try:
            folder = fetch(spec, self._models_dir, lambda line: log.warning("%s", line))
            model = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=self._cpu_threads)
        except ModelNotAvailable as exc:
            raise SpeechUnavailable(f"local speech model unavailable: {exc}") from exc
        except (RuntimeError, OSError, ValueError) as exc:
            raise SpeechUnavailable(f"local speech model {spec} failed to load: {type(exc).__name__}") from exc
        self._loaded[spec] = model
        return model

    def transcribe_file(self, path: Path, language: str | None, prompt: str | None) -> str:
        """Blocking: decode one prepared WAV. Call it from a worker thread (transcribe does)."""
        spec = self._model_for(language)
        with self._lock:
            model = self._load(spec)
            multilingual = bool(model.model.is_multilingual)  # type: ignore[attr-defined]
            try:
                segments, _info = model.transcribe(  # type: ignore[attr-defined]
                    str(path), language=language if multilingual else None, initial_prompt=prompt,
                    beam_size=self._beam_size, condition_on_previous_text=False, vad_filter=False)
                return " ".join(s.text.strip() for s in segments).strip()
            except (RuntimeError, OSError, ValueError) as exc:
                raise SpeechUnavailable(f"local transcription failed: {type(exc).__name__}") from exc
