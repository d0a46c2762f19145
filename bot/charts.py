"""Pictures that are easier seen than read, rendered locally with matplotlib (no display, no network).

Each chart writes a PNG and returns a Chart with the facts it shows, which the caller also sends as the text
caption for people who cannot view images. The PNG's own metadata repeats what was plotted, for audit.
"""

import json
from datetime import date
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402
from pydantic import BaseModel  # noqa: E402

# Debian's fonts-telu; DejaVu has no Telugu glyphs, so labels in Telugu fall back to this font.
TELUGU_FONT = Path("/usr/share/fonts/truetype/lohit-telugu/Lohit-Telugu.ttf")
HEARING_COLOUR = "#1f5fbf"
NEXT_DATE_COLOUR = "#d9480f"
_DPI = 100


class HearingPoint(BaseModel):
    hearing_date: date
    label: str
    source: str
    next_date: date | None = None


class ProblemCounts(BaseModel):
    problem: str
    advised: int
    accepted: int
    worked: int


class PaymentPoint(BaseModel):
    paid_on: date
    amount: float
    account_suffix: str


class Chart(BaseModel):
    path: Path
    plotted: int
    """How many data points the chart shows (hearings, problems, payments)."""


def _use_fonts() -> None:
    families = ["DejaVu Sans"]
    if TELUGU_FONT.exists():
        font_manager.fontManager.addfont(str(TELUGU_FONT))
        families.append("Lohit Telugu")
    plt.rcParams["font.family"] = families


_use_fonts()


def _save(figure: plt.Figure, path: Path, title: str, facts: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=_DPI, metadata={"Title": title, "Description": json.dumps(facts, default=str)})
    plt.close(figure)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def hearing_timeline(title: str, hearings: list[HearingPoint], next_dates: list[date], path: Path) -> Chart:
    """Plot one row per hearing (labelled with its date and source) on a time axis; each row's next date as a
    triangle, and the upcoming next dates as dashed lines."""
    ordered = sorted(hearings, key=lambda h: h.hearing_date)
    figure, axis = plt.subplots(figsize=(11, max(3.0, 0.32 * len(ordered) + 1.6)))
    for row, hearing in enumerate(ordered):
        axis.plot([hearing.hearing_date], [row], "o", color=HEARING_COLOUR, markersize=8)
        if hearing.next_date is not None:
            axis.plot([hearing.hearing_date, hearing.next_date], [row, row], color="#adb5bd", linewidth=1)
            axis.plot([hearing.next_date], [row], ">", color=NEXT_DATE_COLOUR, markersize=6)
    for next_date in next_dates:
        axis.axvline(next_date, color=NEXT_DATE_COLOUR, linestyle="--", linewidth=1.2)
        axis.annotate(f"next {next_date:%d %b %Y}", (mdates.date2num(next_date), len(ordered) - 0.5),
                      color=NEXT_DATE_COLOUR, fontsize=8, rotation=90, va="top", ha="right")
    axis.set_yticks(list(range(len(ordered))),
                    [f"{h.hearing_date:%d %b %Y} · {_short(h.source, 34)}" for h in ordered], fontsize=8)
    axis.set_ylim(-0.7, max(len(ordered), 1) - 0.3)
    locator = mdates.AutoDateLocator(maxticks=8)
    axis.xaxis.set_major_locator(locator)
    axis.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    axis.grid(axis="x", color="#e9ecef")
    axis.set_title(title)
    figure.tight_layout()
    facts = [{"date": h.hearing_date.isoformat(), "source": h.source,
              "next_date": h.next_date.isoformat() if h.next_date else None} for h in ordered]
    _save(figure, path, title, {"hearings": facts, "next_dates": [d.isoformat() for d in next_dates]})
    return Chart(path=path, plotted=len(ordered))


def advice_outcomes(title: str, rows: list[ProblemCounts], path: Path) -> Chart:
    """Plot, per crop problem, how often products were advised, accepted and worked."""
    figure, axis = plt.subplots(figsize=(10, max(3.0, 0.7 * len(rows) + 1.5)))
    positions = range(len(rows))
    width = 0.27
    for offset, (field, colour) in enumerate((("advised", "#868e96"), ("accepted", "#1f5fbf"),
                                              ("worked", "#2b8a3e"))):
        values = [getattr(r, field) for r in rows]
        bars = axis.barh([p + (offset - 1) * width for p in positions], values, height=width, color=colour,
                         label=field)
        axis.bar_label(bars, fontsize=8, padding=2)
    axis.set_yticks(list(positions), [_short(r.problem, 40) for r in rows])
    axis.invert_yaxis()
    axis.legend(loc="lower right")
    axis.set_title(title)
    figure.tight_layout()
    _save(figure, path, title, [r.model_dump() for r in rows])
    return Chart(path=path, plotted=len(rows))


def payments_by_account(title: str, payments: list[PaymentPoint], path: Path,
                        pending: PaymentPoint | None = None, pending_label: str = "this invoice") -> Chart:
    """Plot a vendor's past payments over time, one colour per bank-account suffix; the invoice being decided,
    if given, as a hollow marker so a change of account stands out."""
    figure, axis = plt.subplots(figsize=(8, 3.2))
    suffixes = sorted({p.account_suffix for p in payments})
    palette = ["#1f5fbf", "#2b8a3e", "#862e9c", "#e67700"]
    for index, suffix in enumerate(suffixes):
        mine = sorted((p for p in payments if p.account_suffix == suffix), key=lambda p: p.paid_on)
        axis.plot([p.paid_on for p in mine], [p.amount for p in mine], "o", color=palette[index % len(palette)],
                  label=f"••••{suffix} ({len(mine)})")
    if pending is not None:
        axis.plot([pending.paid_on], [pending.amount], "D", markerfacecolor="none", markeredgecolor=NEXT_DATE_COLOUR,
                  markeredgewidth=2, markersize=10, label=f"{pending_label} ••••{pending.account_suffix}")
    axis.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
    # Indian amounts read in lakh (1 L = Rs 1,00,000).
    axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value / 1e5:.1f} L"))
    axis.set_ylabel("Rs")
    axis.legend(loc="upper left", fontsize=8)
    axis.set_title(title)
    figure.tight_layout()
    facts = {"payments": [p.model_dump(mode="json") for p in payments],
             "pending": pending.model_dump(mode="json") if pending else None}
    _save(figure, path, title, facts)
    return Chart(path=path, plotted=len(payments))
