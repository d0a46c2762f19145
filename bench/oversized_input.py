"""What refusing an overlong voice note costs, now and the old way (issue 21).

Makes a real 60-minute OGG/Opus file (one encoded minute, its packets copied 60 times) and measures, each in
a fresh process (wall time, and the growth of max RSS of the process and of any decoder it starts):
- now: bot.services.audio.prepare_voice, which reads the stated length from the last OGG page and refuses;
- the old way: pydub decoding the file whole before looking at its length. That costs time and memory in
  proportion to the length, so it is measured on a shorter file (--old-minutes, default 5) and scaled to
  60 minutes (its own memory and time; the decoder's peak is shown as measured).
Imports happen before the clock and the memory baseline, in both.
No Hindsight, no network. Run: .venv/bin/python -m bench.oversized_input [--old-minutes N]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_MEASURE = """
import json, resource, sys, time
from pathlib import Path
from pydub import AudioSegment
from bot.services.audio import AudioRejected, prepare_voice
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
if sys.argv[1] == "now":
    try:
        prepare_voice(Path(sys.argv[2]), Path(sys.argv[3]), max_bytes=20 * 1024 * 1024, max_seconds=300)
    except AudioRejected:
        pass
else:
    len(AudioSegment.from_file(sys.argv[2]))
elapsed = time.perf_counter() - started
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": elapsed, "own_mb": own / 1024, "decoder_mb": children / 1024}))
"""


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", *args], check=True, timeout=300)


def _opus(folder: Path, minutes: int) -> Path:
    minute = folder / "minute.ogg"
    if not minute.exists():
        _ffmpeg("-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-t", "60", "-c:a", "libopus", "-b:a", "6k",
                str(minute))
    target = folder / f"{minutes}min.ogg"
    _ffmpeg("-stream_loop", str(minutes - 1), "-i", str(minute), "-c", "copy", str(target))
    return target


def _measure(mode: str, path: Path, out: Path) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", _MEASURE, mode, str(path), str(out)], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=600)
    return json.loads(run.stdout)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old-minutes", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="the old way on one minute (the test suite's run)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.old_minutes = 1
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        hour = _opus(work, 60)
        hour_mb = hour.stat().st_size / 1e6
        now = _measure("now", hour, work / "out")
        old = _measure("old", _opus(work, args.old_minutes), work / "out")
    scale = 60 / args.old_minutes
    print(f"60-minute opus ({hour_mb:.1f} MB at 6 kbit/s), refused at a 300 s limit")
    print(f"  now (length from the OGG header)   : {now['seconds'] * 1000:8.1f} ms, "
          f"+{now['own_mb']:6.1f} MB own, {now['decoder_mb']:6.1f} MB decoder")
    print(f"  old (pydub decodes, then checks)   : {old['seconds'] * scale * 1000:8.1f} ms, "
          f"+{old['own_mb'] * scale:6.1f} MB own (time and own memory measured on {args.old_minutes} min: "
          f"{old['seconds'] * 1000:.0f} ms, +{old['own_mb']:.0f} MB, scaled x{scale:g}; "
          f"its ffmpeg peaked at {old['decoder_mb']:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
