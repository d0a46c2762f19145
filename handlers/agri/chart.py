"""The agri pack's chart: per crop problem, how often products were advised, accepted and worked."""

from pathlib import Path

from pydantic import BaseModel

from bot.services.charts import Chart, pyplot, save, short


class ProblemCounts(BaseModel):
    problem: str
    advised: int
    accepted: int
    worked: int


def advice_outcomes(title: str, rows: list[ProblemCounts], path: Path) -> Chart:
    """Plot, per crop problem, how often products were advised, accepted and worked."""
    figure, axis = pyplot().subplots(figsize=(10, max(3.0, 0.7 * len(rows) + 1.5)))
    positions = range(len(rows))
    width = 0.27
    for offset, (field, colour) in enumerate((("advised", "#868e96"), ("accepted", "#1f5fbf"),
                                              ("worked", "#2b8a3e"))):
        values = [getattr(r, field) for r in rows]
        bars = axis.barh([p + (offset - 1) * width for p in positions], values, height=width, color=colour,
                         label=field)
        axis.bar_label(bars, fontsize=8, padding=2)
    axis.set_yticks(list(positions), [short(r.problem, 40) for r in rows])
    axis.invert_yaxis()
    axis.legend(loc="lower right")
    axis.set_title(title)
    figure.tight_layout()
    save(figure, path, title, [r.model_dump() for r in rows])
    return Chart(path=path, plotted=len(rows))
