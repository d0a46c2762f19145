"""The one place in Smriti that talks to Hindsight.

Every call is timed into a CallLog. Reads fail soft for answers (the caller catches MemoryUnavailable and
says "memory unavailable"); writes fail loud (MemoryUnavailable propagates so the intake queue keeps the
item). Hindsight's JSON is turned into our pydantic models here and nowhere else.
"""

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import TypeVar

import aiohttp
from hindsight_client import Hindsight
from hindsight_client_api.exceptions import ApiException

from memory.asof import event_date_of, not_after, query_timestamp, temporal_window
from memory.calllog import CallLog, CallRecord, Operation
from memory.errors import MemoryRejected, MemoryUnavailable
from memory.models import (
    BankProfile,
    BankStats,
    MemoryItem,
    Recalled,
    RecallRequest,
    ReflectAnswer,
    RetainReport,
    StoredDocument,
    TagsMatch,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

_NO_LLM_MARKER = "requires an llm"
# A new tenant's bank is made on its first write; until then a read meets Hindsight's 404 for the bank.
_MISSING_BANK = re.compile(r"bank\b.*\bnot found", re.I)


class BankNotFound(MemoryRejected):
    """The bank does not exist yet: reads answer empty, writes create the bank first (ensure_bank)."""


class MemoryClient:
    """Async access to one Hindsight server (local, self-hosted or Cloud)."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        call_log: CallLog | None = None,
        read_timeout_s: float = 20.0,
        write_timeout_s: float = 180.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.call_log = call_log if call_log is not None else CallLog()
        self._read_timeout_s = read_timeout_s
        self._write_timeout_s = write_timeout_s
        self._client = Hindsight(base_url=self.base_url, api_key=api_key, timeout=write_timeout_s, max_attempts=1)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> "MemoryClient":
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def _timed(
        self,
        operation: Operation,
        bank_id: str,
        tags: list[str],
        call: Callable[[], Awaitable[T]],
        timeout_s: float,
        hits: Callable[[T], int] = lambda _: 0,
    ) -> T:
        started = time.perf_counter()
        try:
            result = await asyncio.wait_for(call(), timeout=timeout_s)
        except BaseException as exc:
            self.call_log.push(
                CallRecord(
                    operation=operation,
                    bank_id=bank_id,
                    tags=tags,
                    duration_ms=(time.perf_counter() - started) * 1000,
                    ok=False,
                    error=type(exc).__name__,
                )
            )
            raise _translate(exc) from exc
        self.call_log.push(
            CallRecord(
                operation=operation,
                bank_id=bank_id,
                tags=tags,
                duration_ms=(time.perf_counter() - started) * 1000,
                hits=hits(result),
            )
        )
        return result

    async def health(self) -> bool:
        """Return True when the server answers its health check."""
        try:
            await self._timed("health", "-", [], self._client.aget_version, timeout_s=5.0)
        except MemoryUnavailable:
            return False
        return True

    async def ensure_bank(self, profile: BankProfile) -> None:
        """Create or update a bank with its mission, and sync its directives by name (idempotent)."""

        async def sync() -> None:
            await self._client.acreate_bank(
                profile.bank_id, reflect_mission=profile.mission, enable_observations=True
            )
            existing = await self._client.alist_directives(profile.bank_id, limit=200)
            by_name = {d.name: d for d in existing.items}
            for name, content in profile.directives.items():
                current = by_name.get(name)
                if current is None:
                    await self._client.acreate_directive(profile.bank_id, name=name, content=content)
                elif current.content != content or current.is_active is False:
                    await self._client.aupdate_directive(
                        profile.bank_id, current.id, content=content, is_active=True
                    )

        await self._timed("ensure_bank", profile.bank_id, [], sync, self._write_timeout_s)

    async def retain(self, bank_id: str, items: list[MemoryItem]) -> RetainReport:
        """Retain a batch; each item replaces any earlier memory with the same document id."""
        if not items:
            return RetainReport(bank_id=bank_id, items=0, document_ids=[])
        payload = [
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
        tags = sorted({t for item in items for t in item.tags})
        await self._timed(
            "retain",
            bank_id,
            tags,
            lambda: self._client.aretain_batch(bank_id, payload),
            self._write_timeout_s,
            hits=lambda _: len(payload),
        )
        return RetainReport(bank_id=bank_id, items=len(items), document_ids=[i.document_id for i in items])

    async def recall(self, bank_id: str, request: RecallRequest) -> list[Recalled]:
        """Recall memories; with an as-of date, nothing dated after it survives."""

        async def call() -> list[Recalled]:
            response = await self._client.arecall(
                bank_id,
                request.query,
                max_tokens=request.max_tokens,
                budget=request.budget,
                tags=request.tags or None,
                tags_match=request.tags_match,
                query_timestamp=query_timestamp(request.as_of) if request.as_of else None,
                temporal_window=temporal_window(request.period) if request.period else None,
            )
            found = [_to_recalled(r) for r in response.results or []]
            return not_after(found, request.as_of) if request.as_of else found

        try:
            return await self._timed("recall", bank_id, request.tags, call, self._read_timeout_s, hits=len)
        except BankNotFound:
            return []

    async def reflect(
        self, bank_id: str, query: str, tags: list[str] | None = None, tags_match: TagsMatch = "any_strict"
    ) -> ReflectAnswer:
        """Ask the bank to reflect; a server without an LLM gives an unavailable answer, not an error."""
        try:
            response = await self._timed(
                "reflect",
                bank_id,
                tags or [],
                lambda: self._client.areflect(bank_id, query, tags=tags, tags_match=tags_match),
                self._write_timeout_s,
            )
        except BankNotFound:
            return ReflectAnswer(text=None, available=False, reason="nothing is remembered here yet")
        except MemoryRejected as exc:
            if _NO_LLM_MARKER in str(exc).lower():
                return ReflectAnswer(text=None, available=False, reason="this memory server has no language model")
            raise
        return ReflectAnswer(text=response.text, available=True)

    async def list_documents(
        self, bank_id: str, tags: list[str] | None = None, tags_match: TagsMatch = "all_strict"
    ) -> list[StoredDocument]:
        """List every stored document (optionally by tags), paging through the server's listing."""

        async def call() -> list[StoredDocument]:
            found: list[StoredDocument] = []
            offset = 0
            while True:
                page = await self._client.documents.list_documents(
                    bank_id, tags=tags, tags_match=tags_match if tags else None, limit=500, offset=offset
                )
                found.extend(
                    StoredDocument(
                        document_id=d.id,
                        tags=list(d.tags or []),
                        metadata=dict(d.document_metadata or {}),
                        event_date=event_date_of(d.document_metadata, None, None),
                    )
                    for d in page.items
                )
                offset += len(page.items)
                if not page.items or offset >= page.total:
                    return found

        try:
            return await self._timed("list", bank_id, tags or [], call, self._read_timeout_s, hits=len)
        except BankNotFound:
            return []

    async def delete_document(self, bank_id: str, document_id: str) -> None:
        await self._timed(
            "delete",
            bank_id,
            [],
            lambda: self._client.documents.delete_document(bank_id, document_id),
            self._write_timeout_s,
        )

    async def bank_ids(self) -> list[str]:
        response = await self._timed("count", "*", [], self._client.banks.list_banks, self._read_timeout_s)
        return [b.bank_id for b in response.banks]

    async def stats(self, bank_id: str) -> BankStats:
        """Return how many documents, memories and observations a bank holds."""
        try:
            response = await self._timed(
                "count", bank_id, [], lambda: self._client.banks.get_agent_stats(bank_id), self._read_timeout_s
            )
        except BankNotFound:
            return BankStats(bank_id=bank_id, documents=0, memories=0, observations=0)
        return BankStats(
            bank_id=bank_id,
            documents=response.total_documents,
            memories=response.total_nodes,
            observations=response.total_observations or 0,
        )

    async def delete_bank(self, bank_id: str) -> None:
        await self._timed(
            "delete", bank_id, [], lambda: self._client.adelete_bank(bank_id), self._write_timeout_s
        )


def _to_recalled(result: object) -> Recalled:
    metadata = dict(getattr(result, "metadata", None) or {})
    scores = getattr(result, "scores", None)
    return Recalled(
        text=getattr(result, "text", ""),
        event_date=event_date_of(
            metadata, getattr(result, "occurred_start", None), getattr(result, "mentioned_at", None)
        ),
        document_id=getattr(result, "document_id", None),
        tags=list(getattr(result, "tags", None) or []),
        metadata=metadata,
        score=getattr(scores, "final", None) if scores is not None else None,
        type=getattr(result, "type", None),
    )


def _translate(exc: BaseException) -> BaseException:
    if isinstance(exc, ApiException):
        status = exc.status or 0
        body = exc.body if isinstance(exc.body, str) else str(exc.body or "")
        if status >= 500 or status in (408, 429):
            return MemoryUnavailable(f"Hindsight answered {status}")
        if status == 404 and _MISSING_BANK.search(body):
            return BankNotFound(f"Hindsight has no such bank: {body[:300]}")
        return MemoryRejected(f"Hindsight refused the request ({status}): {body[:300]}")
    if isinstance(exc, (aiohttp.ClientError, asyncio.TimeoutError, TimeoutError, OSError)):
        return MemoryUnavailable(f"Hindsight unreachable: {type(exc).__name__}")
    return exc
