"""The model-written brief draft (only with a Groq key); guardrails check it before anyone sees it."""

from datetime import date

from bot.services.llm import ChatModel
from bot.services.prompts import render
from handlers.agri.brief_models import BriefDraft
from handlers.agri.models import Farmer
from handlers.agri.register import FieldBook
from memory import Recalled


def _memory_lines(memories: list[Recalled]) -> str:
    if not memories:
        return "(none)"
    ordered = sorted(memories, key=lambda m: m.event_date or date.min)
    return "\n".join(f"- [{m.event_date.isoformat() if m.event_date else 'undated'} | {m.document_id}] {m.text}"
                     for m in ordered)


def _catalogue_lines(book: FieldBook, crops: list[str]) -> str:
    lines = []
    for product in book.products.values():
        doses = {c: d for c, d in product.dosage.items() if c in crops}
        if doses:
            lines.append(f"{product.id} | {product.name} | {product.tier} | {product.price_text()} | "
                         f"{'; '.join(f'{c}: {d}' for c, d in doses.items())} | {', '.join(product.problems)}")
    return "\n".join(lines)


async def llm_draft(chat: ChatModel, book: FieldBook, farmer: Farmer, as_of: date, own: list[Recalled],
                    similar: list[Recalled], lang: str) -> BriefDraft:
    """Ask the model for a brief draft; raise ChatUnavailable or StructuringFailed when it cannot give one."""
    village = book.villages[farmer.village]
    prompt = render(
        "agri", "brief",
        language="Telugu" if lang == "te" else "English",
        farmer=f"{farmer.name} ({farmer.id}), {village.name}, crops: {', '.join(farmer.crops)}"
               + (f", {farmer.acres:g} acres" if farmer.acres else ""),
        as_of=as_of.isoformat(),
        farmer_memories=_memory_lines(own),
        similar_memories=_memory_lines(similar),
        catalogue=_catalogue_lines(book, farmer.crops),
    )
    draft, _ = await chat.structured(prompt, BriefDraft)
    return draft
