"""Speech to text on this machine with faster-whisper (CTranslate2), no key and no network once the model is here.

Transcription is CPU work of seconds: it runs in a worker thread so the event loop keeps answering others.
One lock serialises loading and decoding, because the machine's cores are better spent on one note at a time.
"""

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

# OpenMP reads OMP_THREAD_LIMIT once, when CTranslate2 loads it. Loaded under a limit (bot.services.ocr sets one for
# Tesseract), CTranslate2 asked for more threads than the limit decodes garbage, so it is loaded here, at
# start-up, before anyone sets one, and told to stay within any limit that was there already.
_OMP_LIMIT_AT_LOAD = os.environ.get("OMP_THREAD_LIMIT", "")
try:
    import ctranslate2  # noqa: F401
except ImportError:
    pass

# After ctranslate2, on purpose (above): these may lead to code that sets the limit.
from bot.services.audio import PreparedAudio  # noqa: E402
from bot.services.speech.base import SpeechUnavailable, Transcript, vocabulary_prompt  # noqa: E402
from bot.services.speech.models import ModelNotAvailable, fetch  # noqa: E402

log = logging.getLogger(__name__)

ModelFor = Callable[[str | None], str]
"""Language (te, en, or None) -> the model spec configured for it."""


def usable_threads(requested: int) -> int:
    """Threads for CTranslate2: as requested (0: every core), never above an OpenMP limit it was loaded under."""
    threads = requested or os.cpu_count() or 1
    if _OMP_LIMIT_AT_LOAD.isdigit() and int(_OMP_LIMIT_AT_LOAD) > 0:
        return min(threads, int(_OMP_LIMIT_AT_LOAD))
    return threads


class LocalWhisper:
    name = "local"

    def __init__(self, model_for: ModelFor, models_dir: Path, cpu_threads: int = 0, beam_size: int = 5) -> None:
        self._model_for = model_for
        self._models_dir = models_dir
        self._cpu_threads = usable_threads(cpu_threads)
        self._beam_size = beam_size
        self._loaded: dict[str, object] = {}
        self._lock = threading.Lock()

    @property
    def threads(self) -> int:
        return self._cpu_threads

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
            multilingual = bool(model.model.is_multilingual)  # type: ignore[attr-defined]  # untyped SDK
            try:
                segments, _info = model.transcribe(  # type: ignore[attr-defined]  # faster-whisper is untyped
                    str(path), language=language if multilingual else None, initial_prompt=prompt,
                    beam_size=self._beam_size, condition_on_previous_text=False, vad_filter=False)
                return " ".join(s.text.strip() for s in segments).strip()
            except (RuntimeError, OSError, ValueError) as exc:
                raise SpeechUnavailable(f"local transcription failed: {type(exc).__name__}") from exc
