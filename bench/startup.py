"""Start-up: how long `smriti --help` takes, and how long the console takes from launch to its first reply.

Each figure is measured on two code trees in the same run, side by side, in fresh processes: this checkout and
a reference checkout (by default /work/main, the code before the lazy imports; `--old` names another). The
machine is shared and noisy, so each is repeated and the median shown; compare the two columns, not runs.

    .venv/bin/python -m bench.startup [--old /work/main] [--repeat 5] [--url http://127.0.0.1:8888]

The console figures run the real `smriti chat --pack agri` in a fresh SMRITI_HOME (people imported from the
seeds, remote mode against the running Hindsight, a bank prefix of its own), send `/help` on stdin and stop the
clock when the reply has been printed. The first reply prepares the officer's bank in Hindsight: the first
chat ever creates it (server-side work, the same for both trees), every later chat only checks it. So the
console is started twice on one prefix: "new bank" is the first start, "bank exists" the second, the
everyday case. The banks are deleted afterwards.
"""

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
# How a tree's `smriti` is called: the entry point is handlers:main now; before, it was main() in the module
# bot/cli/smriti.py. That old name is split in two so that apply_rooms.py, which rewrites module names, leaves it be.
_OLD_CLI = "bot" + ".cli"
ENTRY = {
    "packs": "from handlers import main; import sys; sys.exit(main(sys.argv[1:]))",
    "core": f"from {_OLD_CLI} import main; import sys; sys.exit(main(sys.argv[1:]))",
}
HELP_REPLY_MARK = "/brief"
"""A line of the agri officer's /help reply: the console has answered once this is printed."""


def _env(tree: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SMRITI_", "GROQ_", "TELEGRAM_", "TWILIO_"))}
    env["PYTHONPATH"] = str(tree)
    env.update(extra or {})
    return env


def _command(tree: Path, *args: str) -> list[str]:
    """The tree's own entry point (told by what it has, not by which column it is in)."""
    packs = tree / "handlers" / "__init__.py"
    entry = ENTRY["packs" if packs.exists() and "def main" in packs.read_text(encoding="utf-8") else "core"]
    # -P: do not put the working directory first on sys.path, so PYTHONPATH alone picks the tree.
    return [sys.executable, "-P", "-c", entry, *args]


def time_help(tree: Path, kind: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(_command(tree, "--help"), env=_env(tree), cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or "usage: smriti" not in done.stdout:
        raise RuntimeError(f"{kind} --help failed: {done.stderr[-500:]}")
    return elapsed


_PREPARE = """
import sys
from pathlib import Path
try:  # this tree's own code: the database made with its own migrations
    from bot.core.app import open_database
    from bot.store.people import import_people_file
except ImportError:  # the tree before the rooms
    from bot.app import open_database
    from bot.people import import_people_file
from bot.paths import SEEDS_DIR
from bot.settings import Settings
database = open_database(Settings(data_dir=Path(sys.argv[1])))
import_people_file(database, SEEDS_DIR / "users.json")
database.dispose()
"""


def _prepare_home(tree: Path, home: Path) -> None:
    """A data directory holding the seed people, as `smriti seed` leaves it, made by the tree's own code (each
    tree's database stands at its own migrations)."""
    subprocess.run([sys.executable, "-c", _PREPARE, str(home)], env=_env(tree), cwd=tempfile.gettempdir(),
                   check=True, capture_output=True)


def time_console(tree: Path, kind: str, url: str, prefix: str) -> float:
    home = Path(tempfile.mkdtemp(prefix="smriti-startup-"))
    try:
        _prepare_home(tree, home)
        env = _env(tree, {"SMRITI_HOME": str(home), "SMRITI_HINDSIGHT_URL": url, "SMRITI_BANK_PREFIX": prefix})
        start = time.perf_counter()
        process = subprocess.Popen(_command(tree, "chat", "--pack", "agri"), env=env, cwd=tempfile.gettempdir(),
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, bufsize=1)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("/help\n")
        process.stdin.flush()
        elapsed = None
        for line in process.stdout:
            if HELP_REPLY_MARK in line:
                elapsed = time.perf_counter() - start
                break
        process.stdin.close()
        process.wait(timeout=60)
        if elapsed is None:
            raise RuntimeError(f"{kind} console never answered: {process.stderr.read()[-800:] if process.stderr else ''}")
        return elapsed
    finally:
        shutil.rmtree(home, ignore_errors=True)


async def _delete_banks(url: str, prefixes: list[str]) -> None:
    from memory import MemoryClient, bank_id

    async with MemoryClient(url) as memory:
        for prefix in prefixes:
            try:
                await memory.delete_bank(bank_id("demo", "agri", prefix=prefix))
            except Exception as exc:  # a bank never created (a failed run) is not worth a traceback here
                print(f"could not delete the bank of {prefix}: {exc}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, default=Path("/work/main"), help="the reference checkout")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="once, this tree only (the test suite's run)")
    args = parser.parse_args(argv)
    repeat = 1 if args.smoke else args.repeat
    trees = {"new": HERE} if args.smoke else {"old": args.old.resolve(), "new": HERE}
    figures: dict[str, dict[str, list[float]]] = {name: {"old": [], "new": []}
                                                  for name in ("help", "console", "console_again")}
    prefixes: list[str] = []
    try:
        for _ in range(repeat):
            for kind in trees:  # interleaved, so both columns see the same load
                figures["help"][kind].append(time_help(trees[kind], kind))
                prefix = f"bench{uuid.uuid4().hex[:8]}-startup"
                prefixes.append(prefix)
                figures["console"][kind].append(time_console(trees[kind], kind, args.url, prefix))
                figures["console_again"][kind].append(time_console(trees[kind], kind, args.url, prefix))
    finally:
        asyncio.run(_delete_banks(args.url, prefixes))
    print(f"start-up, median of {repeat} ({', '.join(f'{kind} = {tree}' for kind, tree in trees.items())})")
    print(f"{'':<31}" + "".join(f"{kind:>9}" for kind in trees) + "  target")
    for name, label, target in (("help", "smriti --help", 0.5),
                                ("console", "console 1st reply, new bank", 1.5),
                                ("console_again", "console 1st reply, bank exists", 1.5)):
        medians = {kind: statistics.median(figures[name][kind]) for kind in trees}
        print(f"{label:<31}" + "".join(f"{m:>8.2f}s" for m in medians.values()) +
              f"  < {target}s {'ok' if medians['new'] < target else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
