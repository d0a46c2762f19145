"""As-of filtering: a brief as of a date never knows anything dated after it."""

from datetime import date, datetime, time, timedelta, timezone

from memory.models import EVENT_DATE_KEY, Period, Recalled

IST = timezone(timedelta(hours=5, minutes=30), "IST")


def today_in_india() -> date:
    return datetime.now(IST).date()


def query_timestamp(as_of: date) -> str:
    """Return the ISO anchor Hindsight uses for recency scoring: the end of that day in India."""
    return datetime.combine(as_of, time(23, 59, 59), IST).isoformat()


def temporal_window(period: Period) -> dict[str, str]:
    """Return the server's temporal-arm window for a period: its first day's start to its last day's end, in India."""
    return {"start": datetime.combine(period.start, time(0, 0, 0), IST).isoformat(), "end": query_timestamp(period.end)}


def event_date_of(metadata: dict[str, str] | None, occurred_start: str | None, mentioned_at: str | None) -> date | None:
    """Return a memory's event date: metadata first (we wrote it), then the server's times."""
    if metadata and metadata.get(EVENT_DATE_KEY):
        try:
            return date.fromisoformat(metadata[EVENT_DATE_KEY][:10])
        except ValueError:
            pass
    for stamp in (occurred_start, mentioned_at):
        if stamp:
            try:
                # The server reports UTC; the event happened in India, so read it back there.
                return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(IST).date()
            except ValueError:
                continue
    return None


def latest_date_of(known: list[date], *stamps: str | None) -> date | None:
    """Return the latest of some dates and server times (read in India): the day a summary is current to."""
    days = list(known)
    for stamp in stamps:
        if stamp:
            try:
                days.append(datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(IST).date())
            except ValueError:
                continue
    return max(days) if days else None


def not_after(memories: list[Recalled], as_of: date) -> list[Recalled]:
    """Drop every memory dated after `as_of`; an undated memory cannot be placed, so it is dropped too."""
    return [m for m in memories if m.event_date is not None and m.event_date <= as_of]
