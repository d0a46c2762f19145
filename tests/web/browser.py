"""A real headless Chromium (Debian's, never a downloaded one) driven by Playwright, and the office app served
by uvicorn on loopback in the test's own event loop; screenshots at phone and desktop widths into docs/web/."""

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import uvicorn
from playwright.async_api import Browser, Page, async_playwright

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "web"
WIDTHS = {"phone": (390, 844), "desktop": (1280, 860)}


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def served(asgi: object) -> AsyncIterator[str]:
    """Serve the app on a free loopback port for the block; its base URL."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(asgi, host="127.0.0.1", port=port, log_level="warning",  # type: ignore[arg-type]
                                           access_log=False, lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def shoot(page: Page, name: str) -> None:
    """The page as it is, at phone and desktop widths (the desktop size is put back afterwards)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in WIDTHS.items():
        await page.set_viewport_size({"width": width, "height": height})
        await page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    await page.set_viewport_size({"width": WIDTHS["desktop"][0], "height": WIDTHS["desktop"][1]})
