"""Prices, pack sizes and label doses as the user reads them; unit symbols (g, ml, L, kg) stay as printed."""

import re

from bot.services.i18n import text
from handlers.agri.models import Product

# Catalogue doses and pack sizes mix unit symbols with a few English words ("5 traps/acre").
_UNIT_WORDS = re.compile(r"\b(acre|traps|trap|litre)\b")


def measure(lang: str, value: str) -> str:
    """Return a catalogue quantity (pack size or dose) with its unit words in the user's language."""
    return _UNIT_WORDS.sub(lambda m: text(lang, f"agri.unit_{m.group(1)}"), value)


def price_text(lang: str, product: Product) -> str:
    return text(lang, "agri.price", price=f"{product.price_rs:,}", pack=measure(lang, product.pack_size))


def dose_text(lang: str, product: Product, crop: str, crop_shown: str) -> str:
    """A label dose for a crop (its key in the dosage), the crop shown as the tenant's book names it."""
    return text(lang, "agri.dose", dose=measure(lang, product.dosage[crop]), crop=crop_shown)
