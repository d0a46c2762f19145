"""`/forget` and `/export` in chat, for a tenant's admins: a preview card with Erase / Cancel, then the erase.

    /forget farmer F017 | /forget case OS 112/2024 | /forget vendor Ravi Steel | /forget person ravi
    /export farmer Yadagiri Rao

The preview only reads. The request waits as a core card (pack "core", kind "forget") so a restart keeps it and
a double tap erases once (open -> saving by a conditional update); the card is dropped when it is done, since it
names its subject. An export comes as one JSON file, sent as a document.
"""

import json
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from bot.core.messages import Button, Reply
from bot.services.i18n import in_number
from bot.core.subject_ops import SubjectRequests, canonical, counts
from bot.core.pack import Pack, Services, Turn
from memory.subjects import HeldItem, Subject

COMMANDS = ("forget", "export")
CALLBACK_PREFIX = "sf"
CARD_PACK, CARD_KIND = "core", "forget"
KINDS = ("farmer", "case", "vendor", "person")


def is_admin(turn: Turn) -> bool:
    return turn.user.role == "admin"


def is_subject_callback(data: str) -> bool:
    return data.startswith(f"{CALLBACK_PREFIX}:")


def find(services: Services, packs: dict[str, Pack], tenant: str, kind: str, query: str) -> list[tuple[str, str]]:
    """(id, name) of the tenant's subjects of `kind` that `query` (an id or a name) means: the chat and the office
    page find subjects here."""
    if kind == "person":
        wanted = query.strip().casefold()
        people = services.registry.users_of(tenant)
        exact = [u for u in people if u.user_id.casefold() == wanted or u.name.casefold() == wanted]
        return [(u.user_id, u.name) for u in exact]
    return [found for pack in packs.values() for found in pack.find_subjects(tenant, kind, query)]


def _find(turn: Turn, packs: dict[str, Pack], kind: str, query: str) -> list[tuple[str, str]]:
    return find(turn.services, packs, turn.user.tenant, kind, query)


def _requests(turn: Turn, packs: dict[str, Pack]) -> SubjectRequests:
    return SubjectRequests(turn.services, packs, by=turn.user.user_id, via=turn.incoming.transport)


async def on_command(turn: Turn, packs: dict[str, Pack], command: str, args: str) -> list[Reply]:
    if not is_admin(turn):
        return [Reply(text=turn.t("subjects.admins_only"))]
    kind, _, query = args.strip().partition(" ")
    kind, query = kind.lower(), query.strip()
    if kind not in KINDS or not query:
        return [Reply(text=turn.t("subjects.usage"))]
    found = _find(turn, packs, kind, query)
    if not found:
        return [Reply(text=turn.t("subjects.not_found", kind=kind, query=query))]
    if len(found) > 1:
        choices = ", ".join(f"{i} ({name})" for i, name in found[:8])
        return [Reply(text=turn.t("subjects.ambiguous", query=query, choices=choices))]
    subject = canonical(packs, Subject(tenant=turn.user.tenant, kind=kind, subject_id=found[0][0]))  # type: ignore[arg-type]
    others = [o for pack in packs.values() for o in pack.also_named(turn.user.tenant, kind, query, found[0][0])]
    also = turn.t("subjects.also_named", query=query, names=", ".join(f"{i} ({n})" for i, n in others[:8])) \
        if others else ""
    requests = _requests(turn, packs)
    if command == "export":
        [sent] = _export_replies(turn, subject, await requests.export(subject), found[0][1])
        return [sent.model_copy(update={"text": f"{sent.text}\n{also}".strip()})]
    held = await requests.preview(subject)
    if not [i for i in held if i.kept_because is None]:
        requests.audit("forget", subject, held, "nothing held")
        return [Reply(text=turn.t("subjects.nothing", kind=kind, subject_id=subject.subject_id))]
    card = turn.services.state.open_card(CARD_PACK, turn.user.user_id, CARD_KIND, subject.model_dump())
    buttons = [[Button(label=turn.t("subjects.button_confirm"), data=f"{CALLBACK_PREFIX}:y:{card.card_id}"),
                Button(label=turn.t("subjects.button_cancel"), data=f"{CALLBACK_PREFIX}:n:{card.card_id}")]]
    return [Reply(text=f"{preview_text(turn, subject, held)}\n{also}".strip(), buttons=buttons, card_id=card.card_id)]


def preview_text(turn: Turn, subject: Subject, held: list[HeldItem]) -> str:
    lines = [turn.t("subjects.preview_header", kind=subject.kind, subject_id=subject.subject_id)]
    for key, count in sorted(counts([i for i in held if i.kept_because is None]).items()):
        store, what = key.split(":", 1)
        lines.append(turn.t("subjects.preview_line", store=store, count=count, what=in_number(count, what)))
    kept: dict[tuple[str, str], int] = {}
    for item in held:
        if item.kept_because is not None:
            kept[(item.store, item.kept_because)] = kept.get((item.store, item.kept_because), 0) + 1
    if kept:
        lines.append(turn.t("subjects.preview_kept_header"))
        lines += [turn.t("subjects.preview_kept", store=store, count=n, why=why) for (store, why), n in kept.items()]
    lines.append(turn.t("subjects.preview_question"))
    return "\n".join(lines)


async def on_callback(turn: Turn, packs: dict[str, Pack], data: str) -> list[Reply]:
    """Erase or cancel a previewed request; a stale, foreign or repeated tap changes nothing."""
    parts = data.split(":")
    state = turn.services.state
    card = state.card(parts[2]) if len(parts) == 3 else None
    if card is None or card.pack != CARD_PACK or card.kind != CARD_KIND or card.status != "open":
        return [Reply(text=turn.t("subjects.request_gone"))]
    if card.user_id != turn.user.user_id or not is_admin(turn):
        return [Reply(text=turn.t("subjects.not_yours"))]
    subject = Subject.model_validate(card.payload)
    requests = _requests(turn, packs)
    if parts[1] != "y":
        if state.move_card(card.card_id, "open", "discarded"):
            requests.audit("forget", subject, await requests.preview(subject), "declined")
            state.drop_card(card.card_id)
        return [Reply(text=turn.t("subjects.cancelled"), card_id=card.card_id, replaces_card=True)]
    if not state.move_card(card.card_id, "open", "saving"):
        return [Reply(text=turn.t("subjects.request_gone"))]
    held = await requests.preview(subject)
    failed = await requests.erase(subject, held)
    if failed is not None:
        state.move_card(card.card_id, "saving", "open")
        return [Reply(text=turn.t("subjects.failed", reason=failed))]
    state.drop_card(card.card_id)
    erased = sum(1 for i in held if i.kept_because is None)
    return [Reply(text=turn.t("subjects.erased", count=erased, kind=subject.kind, subject_id=subject.subject_id),
                  card_id=card.card_id, replaces_card=True)]


EXPORT_RETENTION = timedelta(hours=24)
"""How long an export file stays under state/exports: long enough for a reply kept while the chat service was
down to be sent from it, short enough that a subject's data does not pile up on disk."""


def exports_dir(state_dir: Path) -> Path:
    return state_dir / "exports"


def prune_exports(folder: Path, now: datetime, keep: timedelta = EXPORT_RETENTION) -> int:
    """Delete export files older than `keep`; return how many went."""
    if not folder.is_dir():
        return 0
    removed = 0
    for path in folder.glob("*.json"):
        written = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
        if now - written > keep:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _export_replies(turn: Turn, subject: Subject, exported: dict[str, Any], name: str) -> list[Reply]:
    """The export as one JSON file sent as a document (a chat message cannot hold it); older exports past
    their retention are deleted first."""
    folder = exports_dir(turn.services.settings.state_dir)
    folder.mkdir(parents=True, exist_ok=True)
    prune_exports(folder, turn.services.clock())
    path = folder / f"{subject.kind}-{uuid.uuid4().hex}.json"
    path.write_text(json.dumps(exported, indent=1, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return [Reply(text=turn.t("subjects.export_file", kind=subject.kind, subject_id=subject.subject_id, name=name),
                  document=path)]
