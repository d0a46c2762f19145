"""Pictures that are easier seen than read, rendered locally with matplotlib (no display, no network).

Each pack draws its own charts (handlers/<pack>/chart.py) with what is here: a pyplot set up once for files and
Telugu labels, and `save`, which writes the PNG with what was plotted in its metadata, for audit. A chart
returns a Chart with the facts it shows, which the caller also sends as the text caption for people who cannot
view images. matplotlib is imported on the first chart, never at start-up.
"""

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

if TYPE_CHECKING:
    from types import ModuleType

    from matplotlib.figure import Figure

# Debian's fonts-telu; DejaVu has no Telugu glyphs, so labels in Telugu fall back to this font.
TELUGU_FONT = Path("/usr/share/fonts/truetype/lohit-telugu/Lohit-Telugu.ttf")
HEARING_COLOUR = "#1f5fbf"
NEXT_DATE_COLOUR = "#d9480f"
_DPI = 100


class Chart(BaseModel):
    path: Path
    plotted: int
    """How many data points the chart shows (hearings, problems, payments)."""


@cache
def pyplot() -> "ModuleType":
    """matplotlib.pyplot, drawing to files (Agg), with a font for Telugu labels; loaded once, on first use."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    families = ["DejaVu Sans"]
    if TELUGU_FONT.exists():
        font_manager.fontManager.addfont(str(TELUGU_FONT))
        families.append("Lohit Telugu")
    plt.rcParams["font.family"] = families
    return plt


def save(figure: "Figure", path: Path, title: str, facts: object) -> None:
    """Write the figure as a PNG whose metadata repeats what was plotted, and free it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=_DPI, metadata={"Title": title, "Description": json.dumps(facts, default=str)})
    pyplot().close(figure)


def short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
