"""Shapes in and out of Hindsight's client: payloads, recall results as Recalled, errors as ours."""

import asyncio
import sys
import re
import hashlib
import uuid
from collections.abc import Mapping
from datetime import date, datetime, time, timezone

from memory.asof import event_date_of, latest_date_of
from memory.errors import BankNotFound, MemoryRejected, MemoryUnavailable
from memory.models import EVENT_DATE_KEY, MemoryItem, Recalled, StoredMemory

_OPERATION_NAMESPACE = uuid.UUID("5b0f0c36-6d8e-4a53-9d0e-2f4f3c1d7a10")


def operation_id_for(bank_id: str, items: list[MemoryItem], attempt: int = 0) -> str:
    """Return the stable id of an asynchronous retain: the bank, the document ids and what they say.

    The same save sent twice (a lost acknowledgement, a worker retry) gets the same id, and Hindsight then
    returns the original operation instead of doing the work again. A corrected card changes the content, so
    it gets a new id and replaces the document, as a synchronous retain would. `attempt` counts resubmissions
    after a FAILED operation, which Hindsight would otherwise answer with the failed original.
    """
    digest = hashlib.sha256()
    for item in sorted(items, key=lambda i: i.document_id):
        digest.update(item.model_dump_json().encode())
    documents = ",".join(sorted(i.document_id for i in items))
    return str(uuid.uuid5(_OPERATION_NAMESPACE, f"{bank_id}|{documents}|{digest.hexdigest()}|{attempt}"))


def payload_of(items: list[MemoryItem]) -> list[dict[str, object]]:
    return [
        {
            "content": item.content,
            "timestamp": item.event_time.isoformat(),
            "context": item.context,
            "metadata": item.metadata_with_event_date(),
            "tags": item.tags,
            "document_id": item.document_id,
            **({"observation_scopes": item.observation_scopes} if item.observation_scopes else {}),
        }
        for item in items
    ]


def to_recalled(result: object, sources: Mapping[str, object]) -> Recalled:
    """Turn a recall result (or a reflect fact) into Recalled; an observation is dated by its LATEST source.

    Hindsight gives an observation the EARLIEST start among its source facts, so a brief as of April would
    otherwise let in an observation that also rests on a September visit.
    """
    metadata = {k: str(v) for k, v in (getattr(result, "metadata", None) or {}).items()}
    scores = getattr(result, "scores", None)
    kind = getattr(result, "type", None)
    if kind == "observation":
        source_dates = [
            event_date_of(
                getattr(src, "metadata", None),
                getattr(src, "occurred_end", None) or getattr(src, "occurred_start", None),
                getattr(src, "mentioned_at", None),
            )
            for sid in getattr(result, "source_fact_ids", None) or []
            if (src := sources.get(sid)) is not None
        ]
        day = latest_date_of(
            [d for d in source_dates if d is not None],
            getattr(result, "occurred_end", None),
            getattr(result, "mentioned_at", None),
            getattr(result, "occurred_start", None),
        )
    else:
        day = event_date_of(metadata, getattr(result, "occurred_start", None), getattr(result, "mentioned_at", None))
    return Recalled(
        text=getattr(result, "text", ""),
        event_date=day,
        document_id=getattr(result, "document_id", None),
        tags=list(getattr(result, "tags", None) or []),
        metadata=metadata,
        score=getattr(scores, "final", None) if scores is not None else None,
        type=kind,
        memory_id=getattr(result, "id", None),
    )


def facts_context(facts: list[Recalled]) -> str:
    lines = [f"- [{f.event_date.isoformat() if f.event_date else 'undated'}] {f.text}" for f in facts]
    return "Answer only from these dated memories:\n" + "\n".join(lines)


# A new tenant's bank is made on its first write; until then a read meets Hindsight's 404 for the bank.
_MISSING_BANK = re.compile(r"bank\b.*\bnot found", re.I)


def api_status(exc: BaseException) -> int | None:
    """The HTTP status of an error the Hindsight SDK raised (0 when it gave none); None for any other error.
    The SDK is looked up, not imported: it is loaded by the time it can have raised (and loading it costs most
    of a start-up)."""
    sdk = sys.modules.get("hindsight_client_api.exceptions")
    if sdk is None or not isinstance(exc, sdk.ApiException):
        return None
    return int(getattr(exc, "status", 0) or 0)


def _transport_error(exc: BaseException) -> bool:
    aiohttp = sys.modules.get("aiohttp")
    return isinstance(exc, (asyncio.TimeoutError, TimeoutError, OSError)) or (
        aiohttp is not None and isinstance(exc, aiohttp.ClientError))


def translate(exc: BaseException) -> BaseException:
    status = api_status(exc)
    if status is not None:
        said = getattr(exc, "body", None)
        body = said if isinstance(said, str) else str(said or "")
        if status >= 500 or status in (408, 429):
            return MemoryUnavailable(f"Hindsight answered {status}")
        if status == 404 and _MISSING_BANK.search(body):
            return BankNotFound(f"Hindsight has no such bank: {body[:300]}")
        return MemoryRejected(f"Hindsight refused the request ({status}): {body[:300]}")
    if _transport_error(exc):
        return MemoryUnavailable(f"Hindsight unreachable: {type(exc).__name__}")
    return exc


def to_stored_memory(unit: object) -> StoredMemory:
    """Turn a listed memory unit into StoredMemory; an observation is dated by its latest time."""
    metadata = {k: str(v) for k, v in (getattr(unit, "metadata", None) or {}).items()}
    kind = getattr(unit, "fact_type", None)
    if kind == "observation":
        day = latest_date_of([], getattr(unit, "occurred_end", None), getattr(unit, "mentioned_at", None),
                             getattr(unit, "occurred_start", None))
    else:
        day = event_date_of(metadata, getattr(unit, "occurred_start", None), getattr(unit, "mentioned_at", None))
    return StoredMemory(
        memory_id=getattr(unit, "id", ""), text=getattr(unit, "text", "") or "", type=kind,
        event_date=day, document_id=getattr(unit, "document_id", None),
        tags=list(getattr(unit, "tags", None) or []), metadata=metadata,
        source_memory_ids=list(getattr(unit, "source_memory_ids", None) or []),
    )


def item_of_document(document: object) -> MemoryItem:
    """The MemoryItem that retained a stored document (Hindsight's get_document answer), for a backup."""
    params = dict(getattr(document, "retain_params", None) or {})
    metadata = {k: str(v) for k, v in (getattr(document, "document_metadata", None) or {}).items()}
    stamp = params.get("timestamp") or params.get("event_date")
    event_time = None
    if isinstance(stamp, str):
        try:
            event_time = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        except ValueError:
            event_time = None
    if event_time is None or event_time.tzinfo is None:
        day = metadata.get(EVENT_DATE_KEY) or str(getattr(document, "created_at", ""))[:10]
        event_time = datetime.combine(date.fromisoformat(day), time(12, 0), timezone.utc)
    return MemoryItem(content=str(getattr(document, "original_text")), event_time=event_time,
                      context=str(params.get("context") or "restored from a backup"),
                      document_id=str(getattr(document, "id")), tags=list(getattr(document, "tags", None) or []),
                      metadata={k: v for k, v in metadata.items() if k != EVENT_DATE_KEY})
