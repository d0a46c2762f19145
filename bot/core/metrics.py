"""What the process counts for `/metrics` (Prometheus text format), and the one log line per message handled.

Counters and histograms are the process's own (prometheus_client's default registry); the depths and ages of
the queues are read from the database when `/metrics` is scraped (bot.transports.health).
"""

import functools
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from prometheus_client import Counter, Gauge, Histogram

from bot.log_hygiene import MESSAGES_LOGGER
from memory.calllog import CallRecord

if TYPE_CHECKING:
    from bot.services.speech import SpeechEngine, Transcript

log = logging.getLogger(MESSAGES_LOGGER)

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 180.0)

RECEIVED = Counter("smriti_messages_received_total", "Deliveries that reached the conversation core",
                   ["transport", "pack"])
HANDLED = Counter("smriti_messages_handled_total", "Deliveries the core finished, by outcome",
                  ["transport", "pack", "outcome"])
HANDLING = Histogram("smriti_message_handling_seconds", "Time from the core taking a delivery to its answer",
                     ["transport", "pack"], buckets=LATENCY_BUCKETS)
RETRIES = Counter("smriti_retries_total", "Deliveries or replies tried again after a transient failure",
                  ["what"])
GAVE_UP = Counter("smriti_deliveries_failed_total", "Deliveries a transport gave up on after bounded retries (kept "
                  "as failed in the inbox: smriti queue list)", ["transport"])
REPLIES_FAILED = Counter("smriti_replies_failed_total", "Replies given up: refused by the provider, or not sent "
                         "after bounded retries (smriti queue resend)", ["transport"])
SPOOLED = Counter("smriti_spooled_total", "Deliveries kept in the local spool while the database was down",
                  ["transport"])
MEMORY_CALLS = Histogram("smriti_memory_call_seconds", "Hindsight calls", ["operation", "ok"],
                         buckets=LATENCY_BUCKETS)
SPEECH_CALLS = Histogram("smriti_speech_call_seconds", "Speech-to-text calls", ["engine", "ok"],
                         buckets=LATENCY_BUCKETS)
GAUGES = {
    name: Gauge(f"smriti_{name}", help_text, ["transport"] if per_transport else [])
    for name, help_text, per_transport in (
        ("queue_depth", "Deliveries queued in this process, not yet handled", True),
        ("inbox_depth", "Kept webhook deliveries not yet handled (all processes)", True),
        ("inbox_oldest_age_seconds", "Age of the oldest kept delivery not yet handled", True),
        ("spool_depth", "Deliveries waiting in the local spool for the database", True),
        ("intake_unprocessed", "Intake items received, processing, waiting or held", False),
        ("intake_oldest_age_seconds", "Age of the oldest unprocessed intake item", False),
        ("replies_pending", "Replies kept in the reply outbox and not sent yet", False),
        ("replies_given_up", "Replies given up or flagged undelivered, not yet resent or dropped", False),
        ("inbox_failed", "Kept deliveries the transport gave up on (smriti queue list)", False),
        ("memory_outbox_size", "Memories queued for Hindsight (the retain outbox)", False),
        ("database_up", "1 when the database answered the last check", False),
        ("memory_up", "1 when Hindsight answered the last check", False),
        ("loops_stalled", "Background loops not running or silent too long", False),
    )
}


def observe_memory_call(record: CallRecord) -> None:
    MEMORY_CALLS.labels(record.operation, "true" if record.ok else "false").observe(record.duration_ms / 1000)


def observe_speech(engine: "SpeechEngine") -> None:
    """Time every transcription of this engine (its own method, wrapped on the instance: the engine keeps its
    type)."""
    transcribe = engine.transcribe

    @functools.wraps(transcribe)
    async def timed(*args: Any, **kwargs: Any) -> "Transcript":
        started = time.monotonic()
        ok = "false"
        try:
            result = await transcribe(*args, **kwargs)
            ok = "true"
            return result
        finally:
            SPEECH_CALLS.labels(engine.name, ok).observe(time.monotonic() - started)

    engine.transcribe = timed  # type: ignore[method-assign]  # the same signature, timed


@dataclass
class MessageOutcome:
    """Filled in while the core handles one delivery; logged and counted when it ends."""

    transport: str
    delivery_id: str
    pack: str = "-"
    tenant: str = "-"
    user_id: str = "-"
    kind: str = "text"
    outcome: str = "error"
    intake_id: str = "-"


@contextmanager
def handling(transport: str, delivery_id: str, kind: str) -> Iterator[MessageOutcome]:
    """Count and time one delivery through the core; log one line for it (ids only: no text, no number)."""
    outcome = MessageOutcome(transport=transport, delivery_id=delivery_id, kind=kind)
    started = time.monotonic()
    try:
        yield outcome
    finally:
        elapsed = time.monotonic() - started
        RECEIVED.labels(transport, outcome.pack).inc()
        HANDLED.labels(transport, outcome.pack, outcome.outcome).inc()
        HANDLING.labels(transport, outcome.pack).observe(elapsed)
        log.info("message handled", extra={"event": {
            "transport": transport, "delivery_id": delivery_id, "intake_id": outcome.intake_id,
            "tenant": outcome.tenant, "pack": outcome.pack, "user_id": outcome.user_id, "kind": kind,
            "outcome": outcome.outcome, "ms": round(elapsed * 1000)}})
