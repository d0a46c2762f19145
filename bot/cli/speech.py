"""`smriti speech status | download [--lang te] [MODEL]`: which engine and models serve voice notes, and
fetching (and converting) a local Whisper model ahead of time, so the first voice note does not wait for it."""

import argparse
import sys
from pathlib import Path

from bot.services.i18n import LANGUAGES
from bot.settings import Settings
from bot.services.speech.models import ModelNotAvailable, fetch, on_disk


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    speech = sub.add_parser("speech", help="local speech-to-text: status, or download a Whisper model")
    actions = speech.add_subparsers(dest="action", required=True)
    status = actions.add_parser("status", help="the engine, and each language's model and whether it is here")
    download = actions.add_parser("download", help="fetch (and convert) a model now, not on first use")
    download.add_argument("model", nargs="?", default=None,
                          help="a size (small), a Hugging Face repo id (CTranslate2 or Transformers) or a folder; "
                               "default: the one configured for --lang")
    download.add_argument("--lang", choices=LANGUAGES, default=None, help="the language the model is for")

    async def show(args: argparse.Namespace, settings: Settings) -> int:
        return _status(settings)

    async def fetch_now(args: argparse.Namespace, settings: Settings) -> int:
        return _download(args, settings)

    status.set_defaults(handler=show)
    download.set_defaults(handler=fetch_now)


def _models_dir(settings: Settings) -> Path:
    return settings.data_dir / "models" / "whisper"


def _status(settings: Settings) -> int:
    engine = settings.speech_engine
    print(f"Speech engine: {engine}" + ("" if engine != "groq" or settings.has_groq else
                                         " (no GROQ_API_KEY: voice notes are kept until one is set)"))
    for lang in LANGUAGES:
        spec = settings.whisper_model_for(lang)
        try:
            folder = on_disk(spec, _models_dir(settings))
        except ModelNotAvailable as exc:
            print(f"  {lang}: {spec}: {exc}")
            continue
        state = f"ready in {folder}" if folder else "not here yet (fetched on first use, or `smriti speech download`)"
        print(f"  {lang}: {spec}: {state}")
    return 0


def _download(args: argparse.Namespace, settings: Settings) -> int:
    spec = args.model or settings.whisper_model_for(args.lang)
    try:
        folder = fetch(spec, _models_dir(settings), print)
    except ModelNotAvailable as exc:
        print(f"Could not get {spec}: {exc}", file=sys.stderr)
        return 1
    print(f"{spec} is ready in {folder}.")
    if spec != settings.whisper_model_for(args.lang):
        variable = f"SMRITI_WHISPER_MODEL_{args.lang.upper()}" if args.lang else "SMRITI_WHISPER_MODEL"
        print(f"To use it, set {variable}={spec}")
    return 0
