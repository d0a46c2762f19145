"""The pack's part of `smriti demo`: the same brief with memory OFF and ON, and a brief that cannot see the future."""

from datetime import date

from bot.services.llm import ChatModel
from handlers.agri.brief import build_brief
from handlers.agri.insights import insights_text, village_insights
from handlers.agri.register import FieldBook
from handlers.agri.render import brief_text, side_by_side
from bot.core.pack import Write
from memory import MemoryClient

DEMO_FARMER = "F001"
LATE = date(2026, 9, 28)
EARLY = date(2026, 4, 20)


async def run_demo(memory: MemoryClient, bank: str, book: FieldBook, chat: ChatModel | None, write: Write) -> None:
    """Print Ramesh Goud's briefs: OFF vs ON as of 28 Sep 2026, then as of 20 Apr 2026, then Moinabad insights."""
    farmer = book.farmers[DEMO_FARMER]
    off = await build_brief(memory, bank, book, farmer, LATE, memory_on=False, chat=chat)
    on = await build_brief(memory, bank, book, farmer, LATE, memory_on=True, chat=chat)
    write(f"\nPre-visit brief for {farmer.name} ({farmer.id}), same code path, one flag different:\n")
    write(side_by_side(brief_text(book, off, "en"), brief_text(book, on, "en")))
    early = await build_brief(memory, bank, book, farmer, EARLY, memory_on=True, chat=chat)
    write(f"\nThe same brief as of {EARLY.isoformat()}: it knows the 8 April refusal and nothing after {EARLY.isoformat()}.\n")
    write(brief_text(book, early, "en"))
    found = await village_insights(memory, bank, book, "moinabad", LATE)
    write("\n" + insights_text(book, found, "en"))
