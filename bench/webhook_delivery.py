"""Webhook acknowledgement and reply latency over the real WhatsApp webhook, with the reply outbox on and off
(issue 21).

The real ASGI app (bot/transports/whatsapp/webhook.py) is served by uvicorn on loopback; signed Twilio forms are POSTed to it and
the replies go to a fake Twilio REST API (tests/fakes/twilio.py) that notes when each message creation arrives.
200 messages (`/help`: one reply each, no memory call, so the figures are the delivery path's own) are sent at
a steady rate, round-robin from the three agri officers of the seed people. For each message:
- ack: the POST's round trip (Twilio's view: how soon the webhook answered);
- reply: from the POST to the fake Twilio receiving its reply (one number's messages are answered in order, so
  the k-th reply to a number answers its k-th message).
`on` is the bot as it is: replies kept in the reply outbox with the finished intake item, then sent and marked.
`off` is the old path, switched in by the benchmark only: the item is finished without keeping its replies and
they are sent straight away. The modes alternate (off, on, on, off) so drift in load falls on both.
Run: .venv/bin/python -m bench.webhook_delivery [--messages 200] [--rate 20] [--url http://127.0.0.1:8888]
"""

import argparse
import asyncio
import sys
import time
from collections import defaultdict
from typing import Any

import httpx
import uvicorn
from pydantic import SecretStr

from bench.harness import bench_app
from bench.stats import p50, p95
from bot.core.app import App
from bot.core.conversation import Answer
from bot.core.messages import Incoming
from bot.transports.whatsapp.webhook import WEBHOOK_ROUTE, create_app
from bot.transports.whatsapp.transport import WhatsAppTransport
from tests.fakes.http import Recorded, Response
from tests.fakes.twilio import ACCOUNT_SID, AUTH_TOKEN, BOT_NUMBER, FakeTwilio, inbound_form, sign

PUBLIC = "https://bench.example.org/bot"
NUMBERS = ["+919800000001", "+919800000002", "+919800000003"]


class TimedTwilio(FakeTwilio):
    """The fake Twilio, noting when each accepted message creation arrived, per number."""

    def __init__(self) -> None:
        self.arrivals: dict[str, list[float]] = defaultdict(list)
        super().__init__()

    def _create(self, request: Recorded) -> Response:
        response = super()._create(request)
        if response.status == 201:
            self.arrivals[self.accepted[-1][1]["To"].removeprefix("whatsapp:")].append(time.perf_counter())
        return response


def without_outbox(app: App) -> None:
    """The old path: finish the item without keeping its replies; the transport then sends them directly."""
    intake, conversation = app.services.intake, app.conversation
    finish, answer = intake.finish, conversation.answer

    def finish_only(intake_id: str, replies: Any = (), reply_lease: Any = None) -> None:
        finish(intake_id)

    async def answer_directly(incoming: Incoming) -> Answer:
        return (await answer(incoming)).model_copy(update={"key": None})

    intake.finish = finish_only  # type: ignore[method-assign]
    conversation.answer = answer_directly  # type: ignore[method-assign]


async def run_mode(url: str, outbox: bool, messages: int, rate: float) -> tuple[list[float], list[float]]:
    fake = TimedTwilio()
    overrides = dict(twilio_account_sid=ACCOUNT_SID, twilio_auth_token=SecretStr(AUTH_TOKEN),
                     twilio_whatsapp_from=BOT_NUMBER, twilio_base_url=fake.url, public_base_url=PUBLIC)
    try:
        async with bench_app(url, "webhook", ["agri"], ["demo"], **overrides) as app:
            if not outbox:
                without_outbox(app)
            transport = WhatsAppTransport(app.conversation)
            server = uvicorn.Server(uvicorn.Config(create_app(transport), host="127.0.0.1", port=0,
                                                   log_level="warning"))
            task = asyncio.create_task(server.serve())
            while not server.started:
                await asyncio.sleep(0.01)
            port = server.servers[0].sockets[0].getsockname()[1]
            sent: dict[str, list[float]] = defaultdict(list)
            acks: list[float] = []
            async with httpx.AsyncClient(timeout=30) as client:

                async def post(index: int) -> None:
                    number = NUMBERS[index % len(NUMBERS)]
                    form = inbound_form(f"SM{'1' if outbox else '0'}{index:031d}", number, "/help")
                    headers = {"X-Twilio-Signature": sign(PUBLIC + WEBHOOK_ROUTE, form)}
                    started = time.perf_counter()
                    sent[number].append(started)
                    response = await client.post(f"http://127.0.0.1:{port}{WEBHOOK_ROUTE}", data=form,
                                                 headers=headers)
                    acks.append(time.perf_counter() - started)
                    assert response.status_code == 200, response.text

                posts = []
                for index in range(messages):
                    posts.append(asyncio.create_task(post(index)))
                    await asyncio.sleep(1 / rate)
                await asyncio.gather(*posts)
            deadline = time.perf_counter() + 120
            while sum(len(v) for v in fake.arrivals.values()) < messages and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            server.should_exit = True
            await task
        replies = [arrived - sent[number][k] for number, times in fake.arrivals.items()
                   for k, arrived in enumerate(times) if k < len(sent[number])]
        return acks, replies
    finally:
        fake.close()


def line(name: str, acks: list[float], replies: list[float], messages: int) -> str:
    return (f"{name:<12} ack p50 {p50(acks) * 1000:6.1f} ms  p95 {p95(acks) * 1000:6.1f} ms"
            f"   reply p50 {p50(replies):5.2f} s  p95 {p95(replies):5.2f} s"
            f"   ({len(replies)}/{messages} replies)")


async def measure(url: str, messages: int, rate: float) -> None:
    results: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
    for outbox in (False, True, True, False):
        acks, replies = await run_mode(url, outbox, messages // 2, rate)
        results[outbox][0].extend(acks)
        results[outbox][1].extend(replies)
    print(f"webhook: {messages} messages per mode at {rate:.0f}/s from {len(NUMBERS)} numbers (/help, one reply each)")
    print(line("outbox off", *results[False], messages))
    print(line("outbox on", *results[True], messages))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--smoke", action="store_true", help="8 messages (the test suite's run)")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.url, 8 if args.smoke else args.messages, args.rate))
    return 0


if __name__ == "__main__":
    sys.exit(main())
