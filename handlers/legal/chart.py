"""The legal pack's chart: a case's hearings on a time axis, each with the next date it set."""

from datetime import date
from pathlib import Path

from pydantic import BaseModel

from bot.services.charts import HEARING_COLOUR, NEXT_DATE_COLOUR, Chart, pyplot, save, short


class HearingPoint(BaseModel):
    hearing_date: date
    label: str
    source: str
    next_date: date | None = None


def hearing_timeline(title: str, hearings: list[HearingPoint], next_dates: list[date], path: Path) -> Chart:
    """Plot one row per hearing (labelled with its date and source) on a time axis; each row's next date as a
    triangle, and the upcoming next dates as dashed lines."""
    plt = pyplot()
    import matplotlib.dates as mdates

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
                    [f"{h.hearing_date:%d %b %Y} · {short(h.source, 34)}" for h in ordered], fontsize=8)
    axis.set_ylim(-0.7, max(len(ordered), 1) - 0.3)
    locator = mdates.AutoDateLocator(maxticks=8)
    axis.xaxis.set_major_locator(locator)
    axis.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    axis.grid(axis="x", color="#e9ecef")
    axis.set_title(title)
    figure.tight_layout()
    facts = [{"date": h.hearing_date.isoformat(), "source": h.source,
              "next_date": h.next_date.isoformat() if h.next_date else None} for h in ordered]
    save(figure, path, title, {"hearings": facts, "next_dates": [d.isoformat() for d in next_dates]})
    return Chart(path=path, plotted=len(ordered))
