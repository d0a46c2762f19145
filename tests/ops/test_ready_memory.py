"""Readiness follows the real Hindsight: cut (a loopback proxy in front of the local server, as a memory server
that stops), `/health/ready` answers 503 naming the memory; restored, it answers 200 again."""

import asyncio
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from bot.core.app import App
from bot.transports.health import Health
from tests.conftest import make_settings
from tests.fakes.proxy import SwitchableProxy

pytestmark = pytest.mark.hindsight


async def test_ready_fails_while_hindsight_is_down_and_recovers(tmp_path: Path, hindsight_url: str,
                                                                bank_prefix: str) -> None:
    host, port = hindsight_url.removeprefix("http://").split(":")
    proxy = SwitchableProxy(host, int(port))
    await proxy.up()
    app = await App.start(make_settings(tmp_path, proxy.url, bank_prefix))
    asgi = httpx.ASGITransport(app=Starlette(routes=Health(app.services).routes()))
    try:
        async with httpx.AsyncClient(transport=asgi, base_url="http://bot", timeout=30) as client:
            first = await client.get("/health/ready")
            assert first.status_code == 200, first.text
            await proxy.down()
            cut = await client.get("/health/ready")
            assert cut.status_code == 503 and cut.json()["checks"]["memory"] != "ok"
            assert cut.json()["checks"]["database"] == "ok"
            assert (await client.get("/health/live")).status_code == 200
            await proxy.up()
            for _ in range(20):
                if (await client.get("/health/ready")).status_code == 200:
                    break
                await asyncio.sleep(0.5)
            back = await client.get("/health/ready")
            assert back.status_code == 200, back.text
    finally:
        await app.aclose()
        await proxy.down()
