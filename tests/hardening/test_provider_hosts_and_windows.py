"""Credentials go only to the provider's hosts, join codes cannot be guessed quickly, implausible dates are held.

Each test is an attack from issue 31 that worked on the main branch before this change: Twilio's SID and token
went as Basic auth to whatever host a signed MediaUrl named; 400 wrong join codes in 0.3 s were all checked;
hearings dated 1900 and 9999 were saved at 0.85 confidence without review.
"""

import uuid
from datetime import date, datetime
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from bot.core.app import App
from bot.core.messages import Incoming
from bot.core.strangers import AttemptLimiter
from bot.services.plausible import plausible_date
from bot.transports.media_download import MediaFetchFailed
from bot.transports.telegram.media import MediaRef, download
from bot.transports.whatsapp.media import InboundMedia, MediaFetcher
from handlers.legal.backlog import CASES_FILE
from handlers.legal.ingest import review_reason
from handlers.legal.models import Upload
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment
from memory.asof import IST


class Recorder:
    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(200, content=b"\xff\xd8 a photo", headers={"Content-Type": "image/jpeg"})


@pytest.mark.parametrize("url", ["https://evil.example/2010-04-01/Media/ME1", "http://api.twilio.com/x",
                                 "https://api.twilio.com.evil.example/x", "https://api.twilio.com:8443/x",
                                 "file:///etc/passwd", "not a url"])
async def test_twilio_credentials_are_never_sent_to_a_host_a_signed_media_url_names(tmp_path: Path, url: str) -> None:
    recorder = Recorder()
    client = httpx.AsyncClient(transport=httpx.MockTransport(recorder), auth=("ACsid", "token"))
    fetcher = MediaFetcher("ACsid", "token", 1_000_000, tmp_path, client=client)
    with pytest.raises(MediaFetchFailed, match="not on Twilio's host"):
        await fetcher.fetch(InboundMedia(url=url, content_type="image/jpeg"), stem="MM1")
    await client.aclose()
    assert recorder.requests == [] and list(tmp_path.iterdir()) == []


async def test_twilio_media_on_its_own_api_host_is_fetched(tmp_path: Path) -> None:
    recorder = Recorder()
    client = httpx.AsyncClient(transport=httpx.MockTransport(recorder), auth=("ACsid", "token"))
    fetcher = MediaFetcher("ACsid", "token", 1_000_000, tmp_path, client=client)
    media = await fetcher.fetch(InboundMedia(url="https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1",
                                             content_type="image/jpeg"), stem="MM1")
    await client.aclose()
    assert media.path.read_bytes().startswith(b"\xff\xd8") and len(recorder.requests) == 1


async def test_telegram_files_are_fetched_only_from_the_bot_api_file_host(tmp_path: Path) -> None:
    recorder = Recorder()
    client = httpx.AsyncClient(transport=httpx.MockTransport(recorder))
    base = "https://api.telegram.org/file/bot123:ABC"
    ref = MediaRef(kind="photo", file_id="f", file_unique_id="u", size_bytes=10, mime_type="image/jpeg", file_name=None)
    for path, fetched in ((f"{base}/photos/file_1.jpg", True), ("https://evil.example/photos/file_1.jpg", False)):
        async def get_file(file_id: str, path: str = path) -> SimpleNamespace:
            return SimpleNamespace(file_size=10, file_path=path)

        bot = SimpleNamespace(get_file=get_file, base_file_url=base)
        if fetched:
            got = await download(bot, client, ref, tmp_path, stem="1", max_bytes=100)  # type: ignore[arg-type]
            assert got.path.exists()
        else:
            with pytest.raises(MediaFetchFailed, match="Bot API's file host"):
                await download(bot, client, ref, tmp_path, stem="2", max_bytes=100)  # type: ignore[arg-type]
    await client.aclose()
    assert [r.url.host for r in recorder.requests] == ["api.telegram.org"]


@pytest.mark.hindsight
async def test_400_wrong_join_codes_are_not_all_checked(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    invitations = app.conversation.invitations
    checked: list[str] = []
    real = invitations.store.redeem

    def counting(code: str, transport: str, address: str):  # type: ignore[no-untyped-def]
        checked.append(code)
        return real(code, transport, address)

    monkeypatch.setattr(invitations.store, "redeem", counting)
    for n in range(400):
        await app.conversation.handle(Incoming(transport="telegram", sender="55501", delivery_id=uuid.uuid4().hex,
                                               text=f"join WRONG{n:04d}CODE"))
    assert len(checked) <= invitations.attempts.per_sender
    other = await app.conversation.handle(Incoming(transport="telegram", sender="55502", delivery_id=uuid.uuid4().hex,
                                                   text="join WRONG9999CODE"))
    assert len(checked) == invitations.attempts.per_sender + 1 and "does not work" in other[0].text


def test_the_attempt_window_opens_again_and_bounds_everyone_together() -> None:
    now = [0.0]
    limiter = AttemptLimiter(per_sender=3, overall=5, window_s=60.0, clock=lambda: now[0])
    assert [limiter.allow("telegram", "1") for _ in range(4)] == [True, True, True, False]
    assert [limiter.allow("telegram", str(n)) for n in (2, 3, 4)] == [True, True, False]  # five in all
    now[0] = 61.0
    assert limiter.allow("telegram", "1")


@pytest.mark.parametrize("line, why", [
    ("01/01/1900 O.S. 88/2023 Gorle partition: adjourned, next date 15/01/1900", "hearing in 1900"),
    ("12/05/2026 O.S. 88/2023 Gorle partition heard, next date 01/01/9999", "next date in 9999"),
])
def test_hearings_dated_1900_or_9999_are_held_for_review(line: str, why: str) -> None:
    upload = Upload(upload_id="u", source_file="diary.txt", uploaded_at=datetime(2026, 11, 30, 20, 0, tzinfo=IST),
                    author="A", author_id="a")
    [entry] = segment(line, CaseRegister.load(CASES_FILE), upload)
    assert entry.implausible(date(2026, 11, 30)), why
    assert review_reason(entry, date(2026, 11, 30)) is not None


def test_the_plausible_window_is_1990_to_two_years_ahead() -> None:
    today = date(2026, 12, 4)
    assert plausible_date(date(1990, 1, 1), today) and plausible_date(date(2028, 12, 4), today)
    assert not plausible_date(date(1989, 12, 31), today) and not plausible_date(date(2028, 12, 5), today)
    assert plausible_date(date(2030, 2, 28), date(2028, 2, 29))


@pytest.mark.hindsight
async def test_a_card_dated_1900_cannot_be_saved_until_its_date_is_set(app: App) -> None:
    from tests.legal.helpers import button, say

    replies = await app.conversation.handle(say("aditya", "01/01/1900 Gorle partition: adjourned for evidence"))
    [card] = [r for r in replies if r.card_id]
    assert "outside 1990 to two years ahead" in card.text
    [refused] = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    assert "outside 1990 to two years ahead" in refused.text and "Saved" not in refused.text
