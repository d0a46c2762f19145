"""What hostile input costs before it is refused, and whether a crowd of people slows the bot (issue 31).

Each figure is measured in a fresh Python process (peak RSS over that process's baseline after its imports,
and wall time to the refusal):
- text-bomb PDF: a few KB of PDF whose page unpacks to 1.7 MB of text, read by bot.services.ocr.TextReader;
- 2,000-page PDF: refused by its page count;
- an .xlsx of a few MB whose sheet unpacks to 771 MB (if the reader in this tree has size limits), read by
  bot.services.registers.table.read_table as `import`, `people import` and chat /import do;
- unsigned 200 MB POST to the WhatsApp webhook (if the webhook in this tree caps bodies): streamed without a
  Content-Length to a loopback uvicorn serving the real app, with and without a (wrong) signature;
- /help at 100,000 people: people imported in batches into a fresh SQLite database, then App start-up and the
  first /help of a person near the end of the table.
The bounds the issue sets: under 100 MB over baseline and under 10 s to refusal; /help under a second.
Run: .venv/bin/python -m bench.hardening [--people N] [--post-mb N] [--xlsx-mb N] [--url http://127.0.0.1:8888] [--smoke]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PDF = """
import json, resource, sys, time
from pathlib import Path
from bot.services.ocr import DocumentRejected, TextReader
from tests.hardening.documents import text_bomb_pdf, text_pdf
import pypdf, pypdfium2, pytesseract  # loaded once in a running bot: not part of the refusal's cost
kind, chars, folder = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
data = text_bomb_pdf(chars) if kind == "bomb" else text_pdf([[f"page {n}"] for n in range(chars)], shared_content=True)
path = folder / f"{kind}.pdf"
path.write_bytes(data)
reader = TextReader()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    reader.read(path)
    outcome = "read"
except DocumentRejected as exc:
    outcome = f"refused: {exc}"
took = time.perf_counter() - started
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes": len(data), "seconds": took, "peak_mb": (after - before) / 1024, "outcome": outcome}))
"""

_XLSX = """
import io, json, resource, sys, time, zipfile
from pathlib import Path
from openpyxl import Workbook
from bot.services.registers.table import read_table
megabytes, folder = int(sys.argv[1]), Path(sys.argv[2])
book = Workbook()
book.active.append(["Farmer Name", "Village"])
plain = io.BytesIO()
book.save(plain)
path = folder / "bomb.xlsx"
row = b'<row><c t="inlineStr"><is><t>Anjaiah</t></is></c><c t="inlineStr"><is><t>Kothur</t></is></c></row>'
with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for item in source.infolist():
        if item.filename != "xl/worksheets/sheet1.xml":
            out.writestr(item, source.read(item.filename))
            continue
        with out.open(item.filename, "w", force_zip64=True) as sheet:
            sheet.write(b'<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            block = row * 10_000
            for _ in range(megabytes * 1_000_000 // len(block) + 1):
                sheet.write(block)
            sheet.write(b"</sheetData></worksheet>")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    read_table(path)
    outcome = "read"
except ValueError as exc:
    outcome = f"refused: {exc}"
took = time.perf_counter() - started
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes": path.stat().st_size, "seconds": took, "peak_mb": (after - before) / 1024,
                  "outcome": outcome}))
"""

_HELP = """
import asyncio, json, sys, tempfile, time, uuid
from pathlib import Path
from bot.core.app import App, open_database
from bot.core.messages import Incoming
from bot.core.registry import User
from bot.settings import Settings
from bot.store.people import import_people

async def main(count, url):
    home = Path(tempfile.mkdtemp(prefix="bench-hardening-"))
    settings = Settings(data_dir=home, hindsight_url=url, bank_prefix=f"benchh{uuid.uuid4().hex[:6]}")
    database = open_database(settings)
    people = [User(user_id=f"p{i:06d}", name=f"Person {i}", role="officer", pack="agri", tenant=f"t{i % 50}",
                   officer_id=f"O{i}", territories=["chevella"], telegram_ids=[5_000_000 + i],
                   whatsapp_numbers=[f"+9190{i:08d}"]) for i in range(count)]
    started = time.perf_counter()
    import_people(database, people)
    imported = time.perf_counter() - started
    database.dispose()
    started = time.perf_counter()
    app = await App.start(settings, pack_names=["agri"])
    start = time.perf_counter() - started
    try:
        times = []
        for sender in (str(5_000_000 + count - 1), str(5_000_000 + count // 2), "1"):
            asked = time.perf_counter()
            await app.conversation.handle(Incoming(transport="telegram", sender=sender,
                                                   delivery_id=uuid.uuid4().hex, text="/help"))
            times.append(time.perf_counter() - asked)
    finally:
        await app.aclose()
    print(json.dumps({"import_s": imported, "start_s": start, "help_s": times[0], "help_again_s": times[1],
                      "stranger_s": times[2]}))

asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
"""

_POST = """
import asyncio, json, resource, socket, sys, tempfile, time, uuid
from pathlib import Path
import httpx, uvicorn
from pydantic import SecretStr
from bot.core.app import App
from bot.settings import Settings
from bot.transports.whatsapp.transport import WhatsAppTransport
from bot.transports.whatsapp.webhook import WEBHOOK_ROUTE, create_app

async def main(megabytes, url):
    home = Path(tempfile.mkdtemp(prefix="bench-hardening-post-"))
    settings = Settings(data_dir=home, hindsight_url=url, bank_prefix=f"benchp{uuid.uuid4().hex[:6]}",
                        twilio_account_sid="AC" + "0" * 32, twilio_auth_token=SecretStr("token"),
                        twilio_whatsapp_from="whatsapp:+14155238886", public_base_url="https://bench.example.org")
    app = await App.start(settings, pack_names=["agri"])
    server = uvicorn.Server(uvicorn.Config(create_app(WhatsAppTransport(app.conversation)), host="127.0.0.1",
                                           port=0, log_level="error", lifespan="on"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    chunk = b"a" * (1 << 20)

    async def body():
        for _ in range(megabytes):
            yield chunk

    results = {}
    for label, headers in (("unsigned", {}), ("wrong signature", {"X-Twilio-Signature": "bm90LWEtc2lnbmF0dXJl"})):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        async with httpx.AsyncClient(timeout=60) as client:
            try:
                response = await client.post(f"http://127.0.0.1:{port}{WEBHOOK_ROUTE}", content=body(),
                                             headers={"Content-Type": "application/x-www-form-urlencoded", **headers})
                status = response.status_code
            except httpx.HTTPError as exc:
                status = type(exc).__name__
        results[label] = {"status": status, "seconds": time.perf_counter() - started,
                          "peak_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024}
    server.should_exit = True
    await task
    await app.aclose()
    print(json.dumps(results))

asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
"""


def _run(code: str, *args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _has_body_cap() -> bool:
    return (ROOT / "bot" / "transports" / "health.py").exists() and \
        "read_capped" in (ROOT / "bot" / "transports" / "whatsapp" / "webhook.py").read_text(encoding="utf-8")


def _has_sheet_limits() -> bool:
    return "max_bytes" in (ROOT / "bot" / "services" / "registers" / "table.py").read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=100_000)
    parser.add_argument("--post-mb", type=int, default=200)
    parser.add_argument("--xlsx-mb", type=int, default=771)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: checks the benchmark runs")
    args = parser.parse_args(argv)
    people, post_mb, bomb_chars = (300, 3, 200_000) if args.smoke else (args.people, args.post_mb, 1_700_000)
    xlsx_mb = 60 if args.smoke else args.xlsx_mb
    lines = []
    with tempfile.TemporaryDirectory(prefix="bench-hardening-") as folder:
        bomb = _run(_PDF, "bomb", str(bomb_chars), folder)
        lines.append(f"text-bomb PDF ({bomb['bytes']:,} bytes, {bomb_chars:,} characters inside): "
                     f"{bomb['seconds']:.2f} s to refusal, peak +{bomb['peak_mb']:.1f} MB ({bomb['outcome']})")
        pages = _run(_PDF, "pages", "2000" if not args.smoke else "250", folder)
        lines.append(f"{'2,000' if not args.smoke else '250'}-page PDF ({pages['bytes']:,} bytes): "
                     f"{pages['seconds']:.2f} s to refusal, peak +{pages['peak_mb']:.1f} MB ({pages['outcome']})")
        if _has_sheet_limits():
            sheet = _run(_XLSX, str(xlsx_mb), folder)
            lines.append(f"xlsx unpacking to {xlsx_mb:,} MB ({sheet['bytes']:,} bytes on disk): "
                         f"{sheet['seconds']:.2f} s to refusal, peak +{sheet['peak_mb']:.1f} MB ({sheet['outcome']})")
        else:
            lines.append("unpacking xlsx: skipped (the spreadsheet reader in this tree has no unpacked-size limit)")
    if _has_body_cap():
        posted = _run(_POST, str(post_mb), args.url)
        for label, figures in posted.items():
            assert isinstance(figures, dict)
            lines.append(f"{label} {post_mb} MB POST to /whatsapp/inbound: HTTP {figures['status']} after "
                         f"{figures['seconds']:.2f} s, peak +{figures['peak_mb']:.1f} MB")
    else:
        lines.append("unsigned POST: skipped (the webhook in this tree has no body cap)")
    helped = _run(_HELP, str(people), args.url)
    lines.append(f"/help at {people:,} people: import {helped['import_s']:.1f} s, start {helped['start_s']:.2f} s, "
                 f"first /help {helped['help_s']:.3f} s, another {helped['help_again_s']:.3f} s, "
                 f"a stranger {helped['stranger_s']:.3f} s")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
