"""Importing a register in chat: an admin sends "/import farmers" and then the file, or the file with that
caption; the bot answers with the dry run as a card, and only Apply writes.

The file waits in the one database (not in memory), so a card shown before a restart can still be applied; it
moves open -> applying -> applied (or open -> discarded) by conditional UPDATEs, so a double tap applies once, and
its bytes are dropped once it is applied or discarded. Apply plans again against the register as it is then.
"""

import csv
import logging
import secrets
import tempfile
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import DateTime, LargeBinary, String, select, update
from sqlalchemy.orm import Mapped, mapped_column

from bot.transports.chat_text import split_command
from bot.core.messages import Button, Media, Reply
from bot.services.registers.importer import ImportReport, import_file
from bot.services.registers.kinds import RegisterKind
from bot.store import Base, Database
from bot.store.sql import rowcount, utc
from bot.core.pack import Turn

log = logging.getLogger(__name__)

PREFIX = "imp"
WAIT_FOR_FILE = timedelta(minutes=30)
UNREADABLE = (ValueError, UnicodeDecodeError, zipfile.BadZipFile, csv.Error, KeyError)


class ChatImportRow(Base):
    __tablename__ = "chat_imports"
    import_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(String(41))
    user_id: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    """awaiting (a file), open (dry run shown), applying, applied, discarded."""
    file_name: Mapped[str | None] = mapped_column(String(200))
    content: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def _now() -> datetime:
    return datetime.now(timezone.utc)


def is_import_callback(data: str) -> bool:
    return data.startswith(f"{PREFIX}:")


class ChatImports:
    """The admin's imports in chat, over every register kind of the installed packs."""

    def __init__(self, database: Database, kinds: dict[str, RegisterKind], bank_prefix: str = "smriti") -> None:
        self._db = database
        self._kinds = kinds
        self._bank_prefix = bank_prefix

    # --- the command and the file ----------------------------------------------------------------------------

    def command(self, turn: Turn, args: str) -> list[Reply]:
        """Answer "/import KIND" sent without a file: wait for the file."""
        kind = self._kind(turn, args)
        if isinstance(kind, Reply):
            return [kind]
        now = _now()
        self._drop_waiting(turn.user.user_id)
        with self._db.session() as s:
            s.add(ChatImportRow(import_id=secrets.token_hex(8), tenant_id=turn.user.tenant,
                                user_id=turn.user.user_id, kind=kind, status="awaiting", created_at=now,
                                updated_at=now))
        return [Reply(text=turn.t("imports.send_file", kind=kind))]

    def wants(self, turn: Turn) -> bool:
        """Whether this upload is an import: captioned "/import ...", or a document after "/import KIND"."""
        media = turn.incoming.media
        if media is None:
            return False
        if self._caption_command(turn) is not None:
            return True
        return media.kind == "document" and self._waiting(turn.user.user_id) is not None

    async def on_file(self, turn: Turn, media: Media) -> list[Reply]:
        """Plan the import of an uploaded file and show the dry run with Apply / Discard."""
        captioned = self._caption_command(turn)
        kind = self._kind(turn, captioned) if captioned is not None else None
        if isinstance(kind, Reply):
            return [kind]
        waiting = self._waiting(turn.user.user_id)
        if kind is not None or waiting is None:
            self._drop_waiting(turn.user.user_id)
            waiting = None
        kind = kind or (waiting.kind if waiting is not None else None)
        if kind is None:
            return [Reply(text=turn.t("imports.usage", kinds=", ".join(self._kinds_of(turn.user.pack))))]
        content = media.path.read_bytes()
        try:
            import_id, report = self.stage(turn.user.tenant, turn.user.user_id, kind, media.file_name, content,
                                           waiting.import_id if waiting is not None else None)
        except UNREADABLE as exc:
            log.info("could not read an uploaded %s file: %s", kind, type(exc).__name__)
            self._drop_waiting(turn.user.user_id)
            return [Reply(text=turn.t("imports.unreadable", kind=kind, reason=str(exc)[:200]))]
        buttons = [[Button(label=turn.t("imports.button_apply"), data=f"{PREFIX}:a:{import_id}"),
                    Button(label=turn.t("imports.button_discard"), data=f"{PREFIX}:d:{import_id}")]]
        return [Reply(text=f"{turn.t('imports.dry_run', kind=kind)}\n{report.render()}", buttons=buttons,
                      card_id=import_id)]

    # --- the buttons -------------------------------------------------------------------------------------------

    async def on_callback(self, turn: Turn, data: str) -> list[Reply]:
        parts = data.split(":")
        row = self._row(parts[2]) if len(parts) == 3 and parts[1] in ("a", "d") else None
        if row is None:
            return [Reply(text=turn.t("core.card_gone"))]
        if row.user_id != turn.user.user_id or row.tenant_id != turn.user.tenant:
            return [Reply(text=turn.t("core.card_not_yours"))]
        if turn.user.role != "admin" or row.kind not in self._kinds_of(turn.user.pack):
            return [Reply(text=turn.t("join.admins_only"))]  # no longer this pack's admin since the dry run
        if parts[1] == "d":
            if not self.discard(row.import_id):
                return [Reply(text=turn.t("imports.already", status=row.status))]
            return [Reply(text=turn.t("imports.discarded", kind=row.kind), card_id=row.import_id,
                          replaces_card=True)]
        report = self.apply(row)
        if report is None:
            return [Reply(text=turn.t("imports.already", status=row.status))]
        return [Reply(text=f"{turn.t('imports.applied', kind=row.kind)}\n{report.render()}", card_id=row.import_id,
                      replaces_card=True)]

    # --- staged imports, shared with the office web page -------------------------------------------------------

    def stage(self, tenant: str, user_id: str, kind: str, file_name: str | None, content: bytes,
              import_id: str | None = None) -> tuple[str, ImportReport]:
        """Plan an import of `content` and keep the file (open) until it is applied or discarded; the dry run's
        report and the import's id. Raises what an unreadable file raises; nothing is kept then."""
        report = self._run(tenant, kind, content, apply=False)
        now = _now()
        import_id = import_id or secrets.token_hex(8)
        with self._db.session() as s:
            row = s.get(ChatImportRow, import_id)
            if row is None:
                row = ChatImportRow(import_id=import_id, tenant_id=tenant, user_id=user_id, kind=kind, created_at=now)
                s.add(row)
            row.status, row.file_name, row.content, row.updated_at = "open", file_name, content, now
        return import_id, report

    def staged(self, import_id: str) -> ChatImportRow | None:
        return self._row(import_id)

    def discard(self, import_id: str) -> bool:
        """Drop an open import's file; False when it is not open (applied, discarded, or being applied)."""
        return self._move(import_id, "open", "discarded")

    def apply(self, row: ChatImportRow) -> ImportReport | None:
        """Apply an open import against the register as it is now; None when it is not open any more (a double
        tap applies once)."""
        if not self._move(row.import_id, "open", "applying", keep_content=True):
            return None
        try:
            report = self._run(row.tenant_id, row.kind, row.content or b"", apply=True)
        except BaseException:
            self._move(row.import_id, "applying", "open", keep_content=True)
            raise
        self._move(row.import_id, "applying", "applied")
        log.info("import %s applied: %s %s added, %s updated", row.import_id, row.kind, len(report.added),
                 len(report.updated))
        return report

    def history(self, tenant: str, limit: int = 50) -> list[ChatImportRow]:
        """The tenant's imports in chat and on the office page, newest first (their files are not loaded)."""
        with self._db.session() as s:
            rows = s.scalars(select(ChatImportRow).where(ChatImportRow.tenant_id == tenant,
                                                         ChatImportRow.status != "awaiting")
                             .order_by(ChatImportRow.updated_at.desc()).limit(limit))
            return list(rows)

    # --- helpers -----------------------------------------------------------------------------------------------

    def _kinds_of(self, pack: str) -> list[str]:
        """The register kinds of one pack: an admin imports only their own pack's registers."""
        return sorted(name for name, kind in self._kinds.items() if kind.pack == pack)

    def _kind(self, turn: Turn, args: str) -> str | Reply:
        if turn.user.role != "admin":
            return Reply(text=turn.t("join.admins_only"))
        kind = args.strip().lower()
        if kind not in self._kinds_of(turn.user.pack):
            return Reply(text=turn.t("imports.usage", kinds=", ".join(self._kinds_of(turn.user.pack))))
        return kind

    @staticmethod
    def _caption_command(turn: Turn) -> str | None:
        command = split_command((turn.incoming.text or "").strip())
        return command[1] if command is not None and command[0] == "import" else None

    def _run(self, tenant: str, kind: str, content: bytes, apply: bool) -> ImportReport:
        with tempfile.TemporaryDirectory(prefix="smriti-import-") as folder:
            path = Path(folder) / "upload.table"
            path.write_bytes(content)
            return import_file(self._db, self._kinds, kind, tenant, path, apply=apply, bank_prefix=self._bank_prefix)

    def _waiting(self, user_id: str) -> ChatImportRow | None:
        since = _now() - WAIT_FOR_FILE
        with self._db.session() as s:
            rows = s.scalars(select(ChatImportRow).where(ChatImportRow.user_id == user_id,
                                                         ChatImportRow.status == "awaiting"))
            return next((r for r in rows if utc(r.updated_at) >= since), None)  # type: ignore[operator]

    def _drop_waiting(self, user_id: str) -> None:
        """End this person's wait for a file (a new /import, or a file that answered it otherwise)."""
        with self._db.session() as s:
            s.execute(update(ChatImportRow).where(ChatImportRow.user_id == user_id,
                                                  ChatImportRow.status == "awaiting")
                      .values(status="discarded", updated_at=_now()))

    def _row(self, import_id: str) -> ChatImportRow | None:
        with self._db.session() as s:
            return s.get(ChatImportRow, import_id)

    def _move(self, import_id: str, before: str, after: str, keep_content: bool = False) -> bool:
        values: dict[str, object] = {"status": after, "updated_at": _now()}
        if not keep_content:
            values["content"] = None
        with self._db.session() as s:
            result = s.execute(update(ChatImportRow).where(ChatImportRow.import_id == import_id,
                                                           ChatImportRow.status == before).values(**values))
            return rowcount(result) == 1
