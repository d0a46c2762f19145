"""Local speech on this machine: real-time factor and word error rate of the packaged Whisper tiny.en.

    python -m bench.speech_local [--model packaged|<size>|<folder>] [--threads N]

Each note of tests/corpus/agri/voice_notes.jsonl (new names and places, none from the seeds) is spoken by
espeak-ng, encoded as OGG/Opus like a phone, converted as the bot converts it, and transcribed twice by
the same engine the bot uses: without a prompt, and with the field register's names as the prompt (as the bot
sends them). Printed per note and overall:
- RTF cpu: CPU seconds (all threads) per second of audio; RTF wall: wall seconds per second of audio.
- WER: word error rate against the words spoken (lowercase, punctuation dropped).
The model is loaded once before timing (its load time is printed separately). espeak-ng speech is cleaner than
a field recording: the WER here is a floor, not what a farm visit will give.
"""

import argparse
import sys
import json
import re
import tempfile
import time
from pathlib import Path

from bot.services.audio import prepare_voice
from bot.paths import PROJECT_ROOT
from bot.settings import load_settings
from bot.services.speech.base import vocabulary_prompt
from bot.services.speech.local import LocalWhisper
from bot.paths import SEEDS_DIR
from handlers.agri.register import FieldBook
from tests.voice import spoken_ogg

CORPUS = PROJECT_ROOT / "tests" / "corpus" / "agri" / "voice_notes.jsonl"


def words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9' ]+", " ", text.lower().replace("-", " ")).split()


def word_errors(reference: list[str], heard: list[str]) -> int:
    """Levenshtein distance over words: substitutions + deletions + insertions."""
    previous = list(range(len(heard) + 1))
    for i, ref in enumerate(reference, start=1):
        current = [i] + [0] * len(heard)
        for j, hyp in enumerate(heard, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp))
        previous = current
    return previous[-1]


def register_prompt() -> str | None:
    book = FieldBook.from_folder(SEEDS_DIR / "agri")
    return vocabulary_prompt([f.name for f in book.farmers.values()] + [v.name for v in book.villages.values()]
                             + [p.name for p in book.products.values()])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="packaged")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--show", action="store_true", help="print what was heard (synthetic notes, no one's data)")
    parser.add_argument("--smoke", action="store_true", help="one note (the test suite's run)")
    args = parser.parse_args(argv)
    notes = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    notes = notes[:1] if args.smoke else notes
    work = Path(tempfile.mkdtemp(prefix="smriti-speech-bench-"))
    # A named model is fetched once into SMRITI_HOME, where the bot finds it too.
    models_dir = load_settings().data_dir / "models" / "whisper"
    engine = LocalWhisper(lambda language: args.model, models_dir, cpu_threads=args.threads)
    started = time.perf_counter()
    engine.model("en")
    print(f"model {args.model}: loaded in {time.perf_counter() - started:.2f} s")
    prompt = register_prompt()
    audio_s = cpu_s = wall_s = 0.0
    n_words = errors_plain = errors_prompted = 0
    print(f"{'note':<5} {'audio s':>7} {'RTF cpu':>8} {'RTF wall':>9} {'WER':>6} {'WER+prompt':>11}")
    for note in notes:
        folder = work / note["id"]
        folder.mkdir()
        prepared = prepare_voice(spoken_ogg(folder, note["said"]), folder, 20 * 1024 * 1024, 300.0)
        reference = words(note["said"])
        cpu0, wall0 = time.process_time(), time.perf_counter()
        plain = engine.transcribe_file(prepared.path, "en", None)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        prompted = engine.transcribe_file(prepared.path, "en", prompt)
        plain_errors, prompted_errors = word_errors(reference, words(plain)), word_errors(reference, words(prompted))
        audio_s, cpu_s, wall_s = audio_s + prepared.seconds, cpu_s + cpu, wall_s + wall
        n_words, errors_plain, errors_prompted = (n_words + len(reference), errors_plain + plain_errors,
                                                  errors_prompted + prompted_errors)
        if args.show:
            print(f"      said:  {note['said']}\n      heard: {plain}\n      +prompt: {prompted}")
        print(f"{note['id']:<5} {prepared.seconds:7.1f} {cpu / prepared.seconds:8.2f} {wall / prepared.seconds:9.2f} "
              f"{plain_errors / len(reference):6.1%} {prompted_errors / len(reference):11.1%}")
    print(f"{'all':<5} {audio_s:7.1f} {cpu_s / audio_s:8.2f} {wall_s / audio_s:9.2f} "
          f"{errors_plain / n_words:6.1%} {errors_prompted / n_words:11.1%}")
    print(f"{len(notes)} notes, {n_words} words, {engine.threads} decoding threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
