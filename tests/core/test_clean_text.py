"""Clean text at the edge: control characters other than newline and tab never reach the intake store, the
memory, a reply or a log line, and text is NFC; logs escape whatever they quote."""

import io
import logging
import re
import subprocess
import sys
import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.app import App
from bot.core.conversation import Conversation
from bot.log_hygiene import LOG_FORMAT, EscapingFormatter
from bot.core.messages import Button, Incoming, Reply, clean_text
from bot.settings import Settings
from memory import RecallRequest
from tests.core.notes_pack import NotesPack, registry_in_tenant

TENANT = "core-clean"
ROOT = Path(__file__).resolve().parents[2]
_FORBIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE = "note 2026-04-08 Kondal\x1b[2J Reddy\x07 sprayed e\u0301 Blitox\r\nsecond\u202e line\x00\tend"


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\x1b\x07\x00\r\n\t\u202e\x85")))
def test_clean_text_keeps_only_newline_and_tab_of_the_controls(value: str) -> None:
    cleaned = clean_text(value)
    assert _FORBIDDEN.search(cleaned) is None
    assert unicodedata.is_normalized("NFC", cleaned)
    assert clean_text(cleaned) == cleaned
    assert cleaned.count("\t") == value.count("\t")


def test_telugu_keeps_its_joiners_and_composes() -> None:
    telugu = "\u0c15\u0c4d\u200c\u0c37 \u0c2a\u0c24\u0c4d\u0c24\u0c3f"
    assert clean_text(telugu) == telugu
    assert clean_text("e\u0301") == "\u00e9"


def test_every_message_in_and_out_is_cleaned() -> None:
    incoming = Incoming(transport="whatsapp", sender="+91", delivery_id="SM1", text="a\x1b[31mb", callback="c\x07")
    assert incoming.text == "a[31mb" and incoming.callback == "c"
    reply = Reply(text="model said\x1b]0;pwned\x07 this", buttons=[[Button(label="Sa\x1bve", data="c:s:1")]])
    assert reply.text == "model said]0;pwned this" and reply.buttons[0][0].label == "Save"


@pytest.fixture
def log_output() -> Iterator[io.StringIO]:
    """The root logger as the CLI configures it (bot.log_hygiene.configure_logging), into a buffer."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(EscapingFormatter(LOG_FORMAT))
    root = logging.getLogger()
    previous = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield buffer
    root.removeHandler(handler)
    root.setLevel(previous)


def test_logs_escape_what_they_quote(log_output: io.StringIO) -> None:
    log = logging.getLogger("tests.clean")
    log.warning("could not fetch media for %s", "SM1\x1b[2J\n2026-01-01 00:00:00 ERROR forged line")
    try:
        raise ValueError("bad \x07 value\nsecond")
    except ValueError:
        log.exception("failed on %s", "x\ry")
    written = log_output.getvalue()
    assert _FORBIDDEN.search(written) is None
    assert "SM1\\x1b[2J\\n2026-01-01 00:00:00 ERROR forged line" in written
    assert "failed on x\\ry" in written and "bad \\x07 value" in written
    assert not any(line.startswith("2026-01-01 00:00:00 ERROR forged") for line in written.splitlines())


@pytest.fixture
async def notes_app(settings: Settings) -> AsyncIterator[App]:
    app = await App.start(settings, pack_names=[], registry=registry_in_tenant(TENANT))
    app.packs = {"agri": NotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    yield app
    await app.aclose()


@pytest.mark.hindsight
async def test_control_characters_reach_neither_store_nor_memory_nor_reply_nor_log(
        notes_app: App, log_output: io.StringIO) -> None:
    conversation = notes_app.conversation
    hostile = Incoming(transport="telegram", sender="1001", delivery_id="upd\x1b[2J-1", text=HOSTILE)
    [card] = await conversation.handle(hostile)
    assert await conversation.handle(hostile) == []  # the redelivery is logged, with its id quoted
    assert _FORBIDDEN.search(card.text) is None and "Kondal[2J Reddy sprayed \u00e9 Blitox\nsecond line\tend" in card.text
    [item] = notes_app.services.intake.listing()
    assert _FORBIDDEN.search(item.incoming.text or "") is None
    for path in notes_app.settings.state_dir.rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            assert b"Kondal\x1b" not in raw and b"Reddy\x07" not in raw and b"\xe2\x80\xae" not in raw, path
    save = next(b.data for b in card.flat_buttons() if b.label == "Save")
    await conversation.handle(Incoming(transport="telegram", sender="1001", delivery_id="upd-2", callback=save))
    found = await notes_app.services.memory.recall(notes_app.services.bank_of(TENANT, "agri"),
                                                   RecallRequest(query="Kondal Reddy Blitox", tags=["kind:note"]))
    assert found and all(_FORBIDDEN.search(m.text) is None for m in found)
    logged = log_output.getvalue()
    assert "dropped duplicate delivery upd\\x1b[2J-1" in logged and _FORBIDDEN.search(logged) is None


def test_the_cli_logging_escapes_and_keeps_the_bot_token_out(tmp_path: Path) -> None:
    """configure_logging, as `smriti -v` runs it, in a process of its own."""
    script = ("import logging\nfrom bot.log_hygiene import configure_logging\nconfigure_logging(verbose=True)\n"
              "logging.getLogger('bot.x').info('delivery %s', 'SM1\\x1b[2J\\x07')\n"
              "logging.getLogger('httpx').info('HTTP Request: POST https://api.telegram.org/bot123:SECRET/getMe')\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         check=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert "INFO bot.x: delivery SM1\\x1b[2J\\x07" in run.stderr
    assert "SECRET" not in run.stderr and _FORBIDDEN.search(run.stderr) is None
