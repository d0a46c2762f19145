"""The AP part of `smriti demo`: the same invoices with and without memory, side by side."""

from typing import TYPE_CHECKING

from bot.services.i18n import text
from bot.paths import SEEDS_DIR
from handlers.ap.decision import DecisionReport
from handlers.ap.intake import from_json_text
from handlers.ap.models import Invoice
from bot.core.pack import Write

if TYPE_CHECKING:
    from handlers.ap.pack import APPack

SAMPLES = SEEDS_DIR / "ap" / "invoices"


def load_sample(name: str) -> Invoice:
    """Return a sample invoice from seeds/ap/invoices/<name>.json, validated like any JSON intake."""
    result = from_json_text((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    if result.invoice is None:
        raise ValueError(f"sample {name} is not a valid invoice: {result.refusal}")
    return result.invoice


def _summary(report: DecisionReport) -> str:
    return text("en", "ap.demo_line", status=report.status, confidence=round(report.confidence * 100),
                source=report.memory_source, count=len(report.memories),
                flags=", ".join(f.code for f in report.flags) or "-", recommendation=report.recommendation)


async def run_demo(pack: "APPack", tenant: str, write: Write) -> None:
    """Show Ravi Steel's new account with and without memory, the never-paid vendor, and ABC's repeat."""
    ravi = load_sample("ravi_new_account")
    write(text("en", "ap.demo_ravi", number=ravi.invoice_number))
    write(text("en", "ap.demo_without") + " " + _summary(await pack.decide(ravi, tenant, use_memory=False)))
    write(text("en", "ap.demo_with") + " " + _summary(await pack.decide(ravi, tenant)))
    nova = load_sample("nova_first")
    write(text("en", "ap.demo_nova", number=nova.invoice_number))
    write(_summary(await pack.decide(nova, tenant)))
    abc = load_sample("abc_repeat_mismatch")
    write(text("en", "ap.demo_abc", number=abc.invoice_number))
    write(text("en", "ap.demo_without") + " " + _summary(await pack.decide(abc, tenant, use_memory=False)))
    write(text("en", "ap.demo_with") + " " + _summary(await pack.decide(abc, tenant)))
