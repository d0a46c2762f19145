"""The one place in Smriti that talks to Hindsight.

Every call is timed into a CallLog. Reads fail soft for answers (the caller catches MemoryUnavailable and
says "memory unavailable"); writes fail loud (MemoryUnavailable propagates so the intake queue keeps the
item). Hindsight's JSON is turned into our pydantic models here and nowhere else.
"""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import date
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar


if TYPE_CHECKING:
    from hindsight_client import Hindsight

from memory.asof import event_date_of, not_after, query_timestamp, temporal_window, today_in_india
from memory.calllog import CallLog, CallRecord, Operation
from memory.convert import (
    facts_context,
    item_of_document,
    operation_id_for,
    payload_of,
    to_recalled,
    to_stored_memory,
    api_status,
    translate,
)
from memory.errors import BankNotFound, MemoryRejected, MemoryUnavailable
from memory.models import (
    RAW_TYPES,
    BankProfile,
    BankStats,
    ForgetReport,
    MemoryItem,
    MentalModel,
    OperationStatus,
    Recalled,
    RecallRequest,
    ReflectAnswer,
    RetainOperation,
    RetainReport,
    StoredDocument,
    StoredMemory,
    SubjectExport,
    TagsMatch,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
_OPERATION_STATES = ("pending", "processing", "completed", "failed", "cancelled")

_NO_LLM_MARKER = "requires an llm"
class MemoryClient:
    """Async access to one Hindsight server (local, self-hosted or Cloud)."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        call_log: CallLog | None = None,
        read_timeout_s: float = 20.0,
        write_timeout_s: float = 180.0,
        read_attempts: int = 3,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.call_log = call_log if call_log is not None else CallLog()
        self._read_timeout_s = read_timeout_s
        self._write_timeout_s = write_timeout_s
        self._read_attempts = read_attempts
        # The client retries only its idempotent reads (recall, reflect), honouring Retry-After with jitter;
        # it never retries a write. Writes that fail are kept by the outbox instead.
        self._api_key = api_key
        self._sdk: "Hindsight | None" = None

    @property
    def _client(self) -> "Hindsight":
        """The SDK client, made at the first call: importing it takes most of a start-up, and a first reply that
        needs no memory (/help) should not wait for it."""
        if self._sdk is None:
            from hindsight_client import Hindsight

            self._sdk = Hindsight(base_url=self.base_url, api_key=self._api_key, timeout=self._write_timeout_s,
                                  max_attempts=self._read_attempts)
        return self._sdk

    async def _read(self, call: Callable[[], Awaitable[T]]) -> T:
        """Run a read the client does not retry itself (listings) with the client's own retry policy."""
        from hindsight_client.hindsight_client import _retry_on_capacity

        return await _retry_on_capacity(call, self._read_attempts, self._client._retry_rng)  # type: ignore[no-any-return]  # untyped helper

    async def aclose(self) -> None:
        if self._sdk is None:
            return
        await self._sdk.aclose()  # type: ignore[no-untyped-call]  # hindsight_client leaves aclose unannotated

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
            raise translate(exc) from exc
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
                profile.bank_id, reflect_mission=profile.mission, enable_observations=True,
                enable_graph_retrieval=profile.graph_retrieval,
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
        payload = payload_of(items)
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

    async def retain_async(self, bank_id: str, items: list[MemoryItem], attempt: int = 0) -> RetainOperation:
        """Hand a batch to Hindsight to retain in the background; returns once it is accepted, not stored.

        The operation id is stable for the same items, so sending again after a lost answer creates no second
        operation. Extraction with a language model takes seconds to minutes; nobody should wait for it.
        """
        operation_id = operation_id_for(bank_id, items, attempt)
        payload = payload_of(items)
        tags = sorted({t for item in items for t in item.tags})
        await self._timed(
            "retain",
            bank_id,
            tags,
            lambda: self._client.aretain_batch(bank_id, payload, retain_async=True, operation_id=operation_id),
            self._read_timeout_s,
            hits=lambda _: len(payload),
        )
        return RetainOperation(bank_id=bank_id, operation_id=operation_id, document_ids=[i.document_id for i in items])

    async def operation_status(self, bank_id: str, operation_id: str) -> OperationStatus:
        """Return where an asynchronous operation is; one the server does not know is `unknown`."""

        async def call() -> OperationStatus:
            try:
                found = await self._read(lambda: self._client.operations.get_operation_status(bank_id, operation_id))
            except Exception as exc:
                if api_status(exc) == 404:
                    return OperationStatus(operation_id=operation_id, status="unknown")
                raise
            status = found.status if found.status in _OPERATION_STATES else "unknown"
            return OperationStatus.model_validate({"operation_id": operation_id, "status": status,
                                                   "error": found.error_message,
                                                   "kind": found.operation_type or found.task_type})

        return await self._timed("operations", bank_id, [], call, self._read_timeout_s)

    async def pending_operations(self, bank_id: str) -> list[OperationStatus]:
        """Return the bank's operations Hindsight has accepted but not finished (retains, consolidation...)."""

        async def call() -> list[OperationStatus]:
            found: list[OperationStatus] = []
            for state in ("pending", "processing"):
                page = await self._read(lambda state=state: self._client.operations.list_operations(  # type: ignore[misc]  # default-bound lambda
                    bank_id, status=state, limit=100, exclude_parents=True))
                found += [OperationStatus.model_validate({
                    "operation_id": o.operation_id or o.id, "status": state, "error": o.error_message,
                    "document_id": o.document_id, "kind": o.operation_type or o.task_type}) for o in page.operations]
            return found

        return await self._timed("operations", bank_id, [], call, self._read_timeout_s, hits=len)

    async def recall(self, bank_id: str, request: RecallRequest) -> list[Recalled]:
        """Recall memories; with an as-of date, nothing dated after it survives."""

        types = request.effective_types()
        with_observations = types is None or "observation" in types
        window = temporal_window(request.period) if request.period and request.period.ranks_anything(
            today_in_india()) else None

        async def call() -> list[Recalled]:
            response = await self._client.arecall(
                bank_id,
                request.query,
                types=list(types) if types is not None else None,
                max_tokens=request.max_tokens,
                budget=request.budget,
                tags=request.tags or None,
                tags_match=request.tags_match,
                query_timestamp=query_timestamp(request.as_of) if request.as_of else None,
                temporal_window=window,
                include_source_facts=with_observations,
            )
            sources = dict(response.source_facts or {})
            found = [to_recalled(r, sources) for r in response.results or []]
            return not_after(found, request.as_of) if request.as_of else found

        try:
            return await self._timed("recall", bank_id, request.tags, call, self._read_timeout_s, hits=len)
        except BankNotFound:
            return []

    async def reflect(
        self,
        bank_id: str,
        query: str,
        tags: list[str] | None = None,
        tags_match: TagsMatch = "any_strict",
        as_of: date | None = None,
        facts: list[Recalled] | None = None,
    ) -> ReflectAnswer:
        """Ask the bank to reflect; a server without an LLM gives an unavailable answer, not an error.

        Hindsight's reflect has no as-of: its agent searches the whole bank. So with `as_of`, the facts recalled
        under the as-of filter are handed in as context, the agent is kept to raw facts, and the answer is only
        used when every memory it was based on is one of those facts (or dated no later than `as_of`).
        Anything else is refused as unavailable, so the caller falls back to its counted answer.
        """
        context = facts_context(facts) if facts else None
        try:
            response = await self._timed(
                "reflect",
                bank_id,
                tags or [],
                lambda: self._client.areflect(
                    bank_id,
                    query,
                    context=context,
                    tags=tags,
                    tags_match=tags_match,
                    include_facts=True,
                    fact_types=list(RAW_TYPES) if as_of else None,
                    exclude_mental_models=as_of is not None,
                ),
                self._write_timeout_s,
            )
        except BankNotFound:
            return ReflectAnswer(text=None, available=False, reason="nothing is remembered here yet")
        except MemoryRejected as exc:
            if _NO_LLM_MARKER in str(exc).lower():
                return ReflectAnswer(text=None, available=False, reason="this memory server has no language model")
            raise
        based_on = [to_recalled(m, {}) for m in (getattr(response.based_on, "memories", None) or [])]
        if as_of is not None:
            allowed = {f.memory_id for f in facts or [] if f.memory_id}
            later = [m for m in based_on if m.memory_id not in allowed
                     and (m.event_date is None or m.event_date > as_of or m.type == "observation")]
            if later or getattr(response.based_on, "mental_models", None):
                log.info("reflect answer dropped: it used %d memories outside the as-of facts", len(later))
                return ReflectAnswer(text=None, available=False, based_on=based_on,
                                     reason="the answer drew on memories after the as-of date")
        return ReflectAnswer(text=response.text, available=True, based_on=based_on)

    async def list_documents(
        self, bank_id: str, tags: list[str] | None = None, tags_match: TagsMatch = "all_strict"
    ) -> list[StoredDocument]:
        """List every stored document (optionally by tags), paging through the server's listing."""

        async def call() -> list[StoredDocument]:
            found: list[StoredDocument] = []
            offset = 0
            while True:
                page = await self._read(lambda at=offset: self._client.documents.list_documents(  # type: ignore[misc]  # default-bound lambda
                    bank_id, tags=tags, tags_match=tags_match if tags else None, limit=500, offset=at
                ))
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

    async def list_memories(self, bank_id: str, tag: str) -> list[StoredMemory]:
        """List every memory unit (facts and observations) carrying `tag`, with its date and sources."""

        async def call() -> list[StoredMemory]:
            found: list[StoredMemory] = []
            offset = 0
            while True:
                page = await self._read(lambda at=offset: self._client.alist_memories(  # type: ignore[misc]  # default-bound lambda
                    bank_id, tags=[tag], tags_match="any_strict", limit=100, offset=at))
                found += [to_stored_memory(m) for m in page.items]
                offset += len(page.items)
                if not page.items or offset >= page.total:
                    return found

        return await self._timed("list", bank_id, [tag], call, self._read_timeout_s, hits=len)

    async def clear_observations_of(self, bank_id: str, memory_id: str) -> None:
        """Delete the observations built on one fact (they are rebuilt from what remains)."""
        await self._timed(
            "delete", bank_id, [],
            lambda: self._client._memory_api.clear_memory_observations(bank_id, memory_id),
            self._write_timeout_s,
        )

    async def ensure_mental_model(self, bank_id: str, model_id: str, name: str, query: str, tags: list[str]) -> None:
        """Create a mental model under a stable id if the bank has none by that id.

        Hindsight builds it in the background, and refreshes it after every consolidation of new memories under
        its tags, so reading it later is one cheap call instead of a reflect per question.
        """

        async def call() -> None:
            try:
                await self._client.aget_mental_model(bank_id, model_id)
                return
            except Exception as exc:
                if api_status(exc) != 404:
                    raise
            await self._client.acreate_mental_model(
                bank_id, name=name, source_query=query, tags=tags, id=model_id,
                trigger={"refresh_after_consolidation": True, "tags_match": "any_strict"},
            )

        await self._timed("mental_model", bank_id, tags, call, self._write_timeout_s)

    async def mental_model(self, bank_id: str, model_id: str) -> MentalModel | None:
        """Return a mental model's current content, or None when the bank has no model by that id."""

        async def call() -> MentalModel | None:
            try:
                found = await self._read(lambda: self._client.aget_mental_model(bank_id, model_id))
            except Exception as exc:
                if api_status(exc) == 404:
                    return None
                raise
            return MentalModel(model_id=found.id, name=found.name, content=found.content, tags=list(found.tags or []),
                               last_refreshed_at=found.last_refreshed_at)

        return await self._timed("mental_model", bank_id, [], call, self._read_timeout_s)

    async def refresh_mental_model(self, bank_id: str, model_id: str) -> str:
        """Ask Hindsight to rebuild a mental model in the background; returns the operation id."""
        response = await self._timed(
            "mental_model", bank_id, [],
            lambda: self._client.arefresh_mental_model(bank_id, model_id),
            self._write_timeout_s,
        )
        return str(getattr(response, "operation_id", "") or "")

    async def list_mental_models(self, bank_id: str) -> list[MentalModel]:
        async def call() -> list[MentalModel]:
            page = await self._read(lambda: self._client.alist_mental_models(bank_id, detail="metadata"))
            return [MentalModel(model_id=m.id, name=m.name, tags=list(m.tags or [])) for m in page.items]

        return await self._timed("mental_model", bank_id, [], call, self._read_timeout_s, hits=len)

    async def documents_about(self, bank_id: str, tag: str) -> list[StoredDocument]:
        """Every document carrying the subject's tag (farmer:f017, case:..., vendor:...)."""
        return await self.list_documents(bank_id, tags=[tag], tags_match="any_strict")

    async def export_subject(self, bank_id: str, tag: str) -> SubjectExport:
        """Everything held about a subject: its documents with their text and dates, and every memory unit
        (facts and the observations built on them) carrying its tag, each dated."""
        documents = await self.documents_about(bank_id, tag)

        async def texts() -> list[StoredDocument]:
            found = []
            for document in documents:
                full = await self._read(lambda d=document: self._client.documents.get_document(  # type: ignore[misc]  # default-bound lambda
                    bank_id, d.document_id))
                found.append(document.model_copy(update={"text": full.original_text}))
            return found

        with_text = await self._timed("export", bank_id, [tag], texts, self._read_timeout_s, hits=len)
        memories = await self.list_memories(bank_id, tag)
        return SubjectExport(bank_id=bank_id, tag=tag, documents=with_text, memories=memories)

    async def export_bank(self, bank_id: str) -> list[MemoryItem]:
        """Every document of a bank as the item that would retain it again (a backup): same document id,
        content, tags, metadata and event time. Retaining them into an empty bank rebuilds it."""
        documents = await self.list_documents(bank_id)

        async def items() -> list[MemoryItem]:
            found = []
            for document in documents:
                full = await self._read(lambda d=document: self._client.documents.get_document(  # type: ignore[misc]  # default-bound lambda
                    bank_id, d.document_id))
                if full.original_text:
                    found.append(item_of_document(full))
            return found

        return await self._timed("export", bank_id, [], items, self._read_timeout_s, hits=len)

    async def forget_subject(self, bank_id: str, tag: str) -> ForgetReport:
        """Delete every document about a subject and the observations built on its facts; report leftovers.

        Observations are cleared from each fact first (an observation may merge this subject's facts with
        others'); deleting a document then removes its facts, and Hindsight drops observations left stale.
        """
        units = await self.list_memories(bank_id, tag)
        facts = [u for u in units if u.type != "observation"]
        for fact in facts:
            await self.clear_observations_of(bank_id, fact.memory_id)
        documents = await self.documents_about(bank_id, tag)
        for document in documents:
            await self.delete_document(bank_id, document.document_id)
        left = await self.list_memories(bank_id, tag)
        return ForgetReport(bank_id=bank_id, tag=tag, documents=[d.document_id for d in documents],
                            observations_cleared=sum(u.type == "observation" for u in units), left=left)

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
