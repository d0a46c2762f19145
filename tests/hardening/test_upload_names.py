"""Uploads are kept under names the bot makes: a sender's file name is data, never a path.

On the main branch before this change a Telegram document named `../../../x` or `/abs/path/x` was copied to that
path by the intake store, even when the pack then refused the document.
"""

import os
import uuid
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.intake import IntakeStore
from bot.core.messages import Incoming, Media
from bot.core.upload_names import MAX_FILE_NAME, safe_suffix
from bot.store import Database
from bot.transports.media_download import MediaFetchFailed
from bot.transports.telegram.media import MediaRef, download
from tests.databases import sqlite_database

HOSTILE_PARTS = ["..", "../", "..\\", "/", "/etc/", "/tmp/", "\x00", ".", "~", "\u2215", "\uff0f", "\u2024\u2024",
                 "\u2025", "\uff0e\uff0e", "\u29f8", "%2e%2e%2f", "C:\\", "\\\\host\\share\\", ".pdf", ".png",
                 "report", "x" * 300, "తెలుగు", "\u202e", " ", "\n"]
hostile_names = st.lists(st.sampled_from(HOSTILE_PARTS) | st.text(max_size=20), min_size=1, max_size=8).map("".join)


def files_under(root: Path) -> set[Path]:
    return {Path(folder) / name for folder, _, names in os.walk(root) for name in names}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Database:
    return sqlite_database(tmp_path_factory.mktemp("db"))


def sandbox(base: Path) -> tuple[Path, Path, Path]:
    """A root holding the media folder deep enough that `../../..` from it stays inside the root."""
    root = base / f"root-{uuid.uuid4().hex[:8]}"
    media = root / "a" / "b" / "c" / "media"
    media.mkdir(parents=True)
    source = root / "incoming.bin"
    source.write_bytes(b"%PDF-1.4 an upload")
    return root, media, source


def test_telegram_document_named_dot_dot_is_kept_inside_the_media_folder(database: Database, tmp_path: Path) -> None:
    root, media_dir, source = sandbox(tmp_path)
    intake = IntakeStore(database, media_dir)
    for name in ("../../../x", "../../../../escaped.pdf", str(root / "absolute.pdf")):
        media = Media(kind="document", path=source, file_name=name, mime_type="application/pdf")
        item = intake.record(Incoming(transport="telegram", sender="1", delivery_id=uuid.uuid4().hex, media=media),
                             "u1").item
        kept = item.incoming.media
        assert kept is not None and kept.file_name == name  # the name is kept, as data
        assert kept.path.resolve().is_relative_to(media_dir.resolve()) and kept.path.suffix in (".pdf", ".bin")
    assert files_under(root) - files_under(media_dir) == {source}  # nothing written anywhere else


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=hostile_names, mime=st.sampled_from([None, "application/pdf", "image/jpeg", "text/plain", "x/../../y"]))
def test_no_generated_file_name_writes_outside_the_media_folder(database: Database, tmp_path: Path, name: str,
                                                                mime: str | None) -> None:
    root, media_dir, source = sandbox(tmp_path)
    media = Media(kind="document", path=source, file_name=name, mime_type=mime)
    item = IntakeStore(database, media_dir).record(
        Incoming(transport="telegram", sender="1", delivery_id=uuid.uuid4().hex, media=media), "u1").item
    kept = item.incoming.media
    assert kept is not None and kept.path.parent.parent == media_dir
    assert kept.path.read_bytes() == source.read_bytes()
    assert files_under(root) - files_under(media_dir) == {source}
    assert kept.file_name is not None and len(kept.file_name) <= MAX_FILE_NAME and "\x00" not in kept.file_name


@settings(max_examples=60, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file_name=hostile_names, remote=hostile_names)
async def test_telegram_download_with_hostile_names_lands_in_its_folder(tmp_path: Path, file_name: str,
                                                                       remote: str) -> None:
    root, media_dir, _ = sandbox(tmp_path)

    async def get_file(file_id: str) -> SimpleNamespace:
        return SimpleNamespace(file_size=10, file_path=f"https://api.telegram.org/file/botT/{remote}")

    client = httpx.AsyncClient(transport=httpx.MockTransport(lambda request: httpx.Response(200, content=b"0123456789")))
    ref = MediaRef(kind="document", file_id="f", file_unique_id="../../u", size_bytes=10, mime_type=None,
                   file_name=file_name)
    try:
        bot = SimpleNamespace(get_file=get_file, base_file_url="https://api.telegram.org/file/botT")
        got = await download(bot, client, ref, media_dir,  # type: ignore[arg-type]
                             stem="../../42", max_bytes=100)
    except MediaFetchFailed:
        pass  # a file path that is no URL at all: refused as a failed download, nothing written
    else:
        assert got.path.parent == media_dir and got.path.read_bytes() == b"0123456789"
    finally:
        await client.aclose()
    assert files_under(root) == files_under(media_dir) | {root / "incoming.bin"}


@pytest.mark.parametrize("names, mime, expected", [
    (["report.PDF"], None, ".pdf"),
    (["../../etc/passwd"], None, ".bin"),
    (["x.pdf\x00.png"], "image/png", ".png"),
    (["x.p\u2215df"], None, ".bin"),
    (["x." + "a" * 40], None, ".bin"),
    ([None, "voice.oga"], None, ".oga"),
    (["noext"], "application/pdf", ".pdf"),
])
def test_the_stored_suffix_is_plain_ascii_or_from_the_mime_type(names: list[str | None], mime: str | None,
                                                                expected: str) -> None:
    assert safe_suffix(*names, mime_type=mime) == expected
