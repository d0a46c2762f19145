"""Memory: the tenant's banks and their document counts, the latest Hindsight calls with their timings (the
chat's /memory panel), and whether memory and speech are up."""

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from memory import MemoryLayerError
from bot.web import auth
from bot.web.context import Section, WebContext
from bot.web.render import render

NAME = "memory"


def section(ctx: WebContext) -> Section:
    services = ctx.services

    async def panel(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        up = await services.memory.health()
        banks = []
        for pack in sorted(ctx.packs):
            bank = services.bank_of(who.tenant, pack)
            try:
                stats = await services.memory.stats(bank) if up else None
            except MemoryLayerError:
                stats = None
            banks.append((pack, bank, stats, len(services.outbox.pending(bank))))
        mine = {b for _, b, _, _ in banks}
        calls = [c for c in services.memory.call_log.latest(50) if c.bank_id in mine][:25]
        settings = services.settings
        speech = {"engine": settings.speech_engine if services.speech is not None else None,
                  "up": services.speech is not None}
        return render(ctx.templates, request, who, "memory.html", here=NAME, up=up, banks=banks, calls=calls,
                      speech=speech, url=settings.memory_url if who.user.role == "admin" else "")

    return Section(name=NAME, title_key="web.section_memory", routes=[Route("/", panel)])
