"""The bot's own records about a subject, as SubjectStores: cards, queued items, raw deliveries, follow-ups,
and (for a person) the person's row, channels, grants and conversation.

About a farmer, case or vendor, a record is found by what it says (the pack's ids and names, see
bot.core.subject_match), only among the tenant's own people. About a person, by whose it is.
"""

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, select, update

from bot.store.grants import GrantRow
from bot.store.people import ChannelRow, PersonRow, TerritoryRow
from bot.store.reply_outbox import OutgoingReply
from bot.store.state import CardMessageRow, CardRow, ConversationRow, InboxRow, PendingEditRow
from bot.store.sql import utc
from bot.core.subject_match import Matcher, SubjectTerms
from bot.core.pack import Services
from memory.subjects import HeldItem, Subject

TermsOf = Callable[[Subject], SubjectTerms]


def person_in_tenant(services: Services, subject: Subject) -> bool:
    """Whether the person named is one of the subject's tenant's people (a person id is unique across tenants:
    another tenant's id must reach nothing, neither their row nor their channels, territories or grants)."""
    user = services.registry.by_id(subject.subject_id)
    if user is not None:
        return user.tenant == subject.tenant
    with services.database.session() as s:
        person = s.get(PersonRow, subject.subject_id)
    return person is None or person.tenant_id == subject.tenant


def tenant_people(services: Services, subject: Subject) -> list[str]:
    if subject.kind == "person":
        return [subject.subject_id] if person_in_tenant(services, subject) else []
    return [u.user_id for u in services.registry.users_of(subject.tenant)]


def person_addresses(services: Services, person_id: str) -> list[str]:
    """The person's Telegram ids and WhatsApp numbers, from the database (the registry may be a fixed list)."""
    with services.database.session() as s:
        found = [c.address for c in s.scalars(select(ChannelRow).where(ChannelRow.person_id == person_id))]
    user = services.registry.by_id(person_id)
    if user is not None:
        found += [str(t) for t in user.telegram_ids] + list(user.whatsapp_numbers)
    return list(dict.fromkeys(found))


class CardStore:
    """Cards (open, saving, and saved or discarded ones, whose payload still holds what was said)."""

    name = "cards"

    def __init__(self, services: Services, terms_of: TermsOf) -> None:
        self._services, self._terms_of = services, terms_of

    def _rows(self, subject: Subject) -> list[CardRow]:
        query = select(CardRow).where(CardRow.user_id.in_(tenant_people(self._services, subject)))
        if subject.pack is not None:
            query = query.where(CardRow.pack == subject.pack)
        with self._services.database.session() as s:
            rows = list(s.scalars(query.order_by(CardRow.created_at)))
        if subject.kind == "person":
            return rows
        matcher = Matcher(self._terms_of(subject))
        return [r for r in rows if matcher.mentions(json.loads(r.payload))]

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=r.card_id, day=utc(r.created_at).date(),  # type: ignore[union-attr]
                         kind="open card" if r.status in ("open", "saving") else "closed card")
                for r in self._rows(subject)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        return {"cards": [{"card_id": r.card_id, "kind": r.kind, "status": r.status, "user_id": r.user_id,
                           "created_at": utc(r.created_at).isoformat(),  # type: ignore[union-attr]
                           "payload": json.loads(r.payload)} for r in self._rows(subject)]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        held = await self.list_held(subject)
        ids = [h.key for h in held]
        with self._services.database.session() as s:
            if ids:
                s.execute(delete(PendingEditRow).where(PendingEditRow.card_id.in_(ids)))
                s.execute(delete(CardMessageRow).where(CardMessageRow.card_id.in_(ids)))
                s.execute(delete(CardRow).where(CardRow.card_id.in_(ids)))
            if subject.kind == "person":
                s.execute(delete(PendingEditRow).where(PendingEditRow.user_id == subject.subject_id))
        return held


class QueuedItemStore:
    """Items in the intake store: what was sent (text, a file's name), in any state, with its kept media."""

    name = "queued items"

    def __init__(self, services: Services, terms_of: TermsOf) -> None:
        self._services, self._terms_of = services, terms_of

    def _items(self, subject: Subject) -> list[Any]:
        items = self._services.intake.items_of(tenant_people(self._services, subject))
        if subject.kind == "person":
            return items
        matcher = Matcher(self._terms_of(subject))
        return [i for i in items if matcher.mentions(
            [i.incoming.text or "", i.incoming.media.file_name or "" if i.incoming.media else ""])]

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=i.intake_id, kind=f"{i.state} item", day=i.received_at.date())
                for i in self._items(subject)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        return {"items": [{"intake_id": i.intake_id, "state": i.state, "received_at": i.received_at.isoformat(),
                           "text": i.incoming.text, "media": i.incoming.media.model_dump(mode="json")
                           if i.incoming.media else None} for i in self._items(subject)]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        held = await self.list_held(subject)
        self._services.intake.erase([h.key for h in held])
        return held


class InboxStore:
    """Raw deliveries kept from the transports (a Telegram update, a Twilio message), from the tenant's people."""

    name = "raw deliveries"

    def __init__(self, services: Services, terms_of: TermsOf) -> None:
        self._services, self._terms_of = services, terms_of

    def _rows(self, subject: Subject) -> list[InboxRow]:
        addresses = [a for p in tenant_people(self._services, subject) for a in person_addresses(self._services, p)]
        if not addresses:
            return []
        sender = Matcher(SubjectTerms(ids=addresses))
        with self._services.database.session() as s:
            rows = [r for r in s.scalars(select(InboxRow).order_by(InboxRow.received_at))
                    if sender.mentions(r.payload)]
        if subject.kind == "person":
            return rows
        about = Matcher(self._terms_of(subject))
        return [r for r in rows if about.mentions(_without_sender(r.payload))]

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=f"{r.channel}:{r.key}", kind="delivery",
                         day=utc(r.received_at).date()) for r in self._rows(subject)]  # type: ignore[union-attr]

    async def export(self, subject: Subject) -> dict[str, Any]:
        return {"deliveries": [{"channel": r.channel, "key": r.key, "payload": r.payload}
                               for r in self._rows(subject)]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        rows = self._rows(subject)
        held = await self.list_held(subject)
        with self._services.database.session() as s:
            for r in rows:
                s.execute(delete(InboxRow).where(InboxRow.channel == r.channel, InboxRow.key == r.key))
        return held


class ReplyStore:
    """Replies kept in the reply outbox for the tenant's people (their text names what it answered)."""

    name = "replies"

    def __init__(self, services: Services, terms_of: TermsOf) -> None:
        self._services, self._terms_of = services, terms_of

    def _rows(self, subject: Subject) -> list[OutgoingReply]:
        rows = self._services.replies.outbox.of_people(tenant_people(self._services, subject))
        if subject.kind == "person":
            return rows
        matcher = Matcher(self._terms_of(subject))
        return [r for r in rows if matcher.mentions(r.reply.text)]

    def _shared(self, subject: Subject) -> dict[tuple[str, int], str]:
        """Replies that also name another subject of the register, each with the text left once this subject's
        lines are taken out: forget keeps that part for the other subject (a register list, a cause list, an
        answer about two cases), and erases the rest."""
        if subject.kind == "person":
            return {}
        terms = self._terms_of(subject)
        ours, theirs = Matcher(terms), Matcher(SubjectTerms(names=terms.others))
        shared: dict[tuple[str, int], str] = {}
        for r in self._rows(subject):
            left = _without_lines_of(r.reply.text, ours)
            if left.strip() and theirs.mentions(left) and not ours.mentions(left):
                shared[(r.key, r.position)] = left
        return shared

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        shared = self._shared(subject)
        return [HeldItem(store=self.name, key=f"{r.key}#{r.position}",
                         kind=f"{r.state} reply" + (" (its lines only)" if (r.key, r.position) in shared else ""),
                         day=r.created_at.date() if r.created_at else None) for r in self._rows(subject)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        matcher = Matcher(self._terms_of(subject)) if subject.kind != "person" else None
        return {"replies": [{"key": r.key, "position": r.position, "state": r.state,
                             "text": _own_lines(r.reply.text, matcher) if r.reply.lists_many else r.reply.text,
                             "created_at": r.created_at.isoformat() if r.created_at else None}
                            for r in self._rows(subject)]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        rows, shared = self._rows(subject), self._shared(subject)
        held = await self.list_held(subject)
        outbox = self._services.replies.outbox
        outbox.erase([r for r in rows if (r.key, r.position) not in shared])
        ours = Matcher(self._terms_of(subject))
        for r in rows:
            left = shared.get((r.key, r.position))
            if left is not None:
                buttons = [] if ours.mentions([b.model_dump() for b in r.reply.flat_buttons()]) else r.reply.buttons
                outbox.rewrite(r, r.reply.model_copy(update={"text": left, "buttons": buttons}))
        return held


def _without_lines_of(text: str, matcher: Matcher) -> str:
    """The text without the lines naming the subject, an indented line going with the line it follows (a cause
    list's detail under its case)."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if blocks and line[:1].isspace() and line.strip():
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return "\n".join(line for block in blocks if not matcher.mentions("\n".join(block)) for line in block)


def _own_lines(text: str, matcher: Matcher | None) -> str:
    """A reply listing many subjects, cut to the lines naming this one (another client's line is theirs)."""
    if matcher is None:
        return text
    return "\n".join(line for line in text.splitlines() if matcher.mentions(line))


def _without_sender(payload: str) -> Any:
    """The delivery without who sent it: ids there are the sender's, not the subject's."""
    try:
        data = json.loads(payload)
    except ValueError:
        return payload
    if isinstance(data, dict):
        return {k: v for k, v in data.items() if k.lower() not in ("from", "from_", "to", "sender")}
    return data


class FollowUpStore:
    """Follow-ups the bot would ask about the subject (any status); their jobs go with them."""

    name = "follow-ups"

    def __init__(self, services: Services, terms_of: TermsOf) -> None:
        self._services, self._terms_of = services, terms_of

    def _followups(self, subject: Subject) -> list[Any]:
        scheduler = self._services.scheduler
        if scheduler is None:
            return []
        found = scheduler.all_of(tenant_people(self._services, subject))
        if subject.kind == "person":
            return found
        matcher = Matcher(self._terms_of(subject))
        return [f for f in found if f.pack == subject.pack and matcher.mentions(f.subject)]

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=f.followup_id, kind=f"{f.status} follow-up", day=f.due_at.date())
                for f in self._followups(subject)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        return {"followups": [f.model_dump(mode="json") for f in self._followups(subject)]}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        held = await self.list_held(subject)
        ids = [h.key for h in held]
        if self._services.scheduler is not None and ids:
            self._services.scheduler.forget(ids)
            with self._services.database.session() as s:
                s.execute(update(ConversationRow).where(ConversationRow.awaiting_followup_id.in_(ids))
                          .values(awaiting_followup_id=None))
        return held


class PersonStore:
    """A person's own row: who they are, their channels, territories, grants and conversation settings."""

    name = "people"

    def __init__(self, services: Services) -> None:
        self._services = services

    def _keys(self, person_id: str) -> list[str]:
        addresses = person_addresses(self._services, person_id)
        return [person_id, *(f"telegram:{a}" for a in addresses), *(f"whatsapp:{a}" for a in addresses)]

    def _rows(self, subject: Subject) -> dict[str, list[Any]]:
        if subject.kind != "person" or not person_in_tenant(self._services, subject):
            return {}
        pid = subject.subject_id
        with self._services.database.session() as s:
            person = s.get(PersonRow, pid)
            return {
                "person": [person] if person is not None and person.tenant_id == subject.tenant else [],
                "channels": list(s.scalars(select(ChannelRow).where(ChannelRow.person_id == pid))),
                "territories": list(s.scalars(select(TerritoryRow).where(TerritoryRow.person_id == pid))),
                "grants": list(s.scalars(select(GrantRow).where(GrantRow.user_id == pid))),
                "conversation": list(s.scalars(select(ConversationRow).where(
                    ConversationRow.subject.in_(self._keys(pid))))),
                "card messages": list(s.scalars(select(CardMessageRow).where(
                    CardMessageRow.chat.in_(self._keys(pid))))),
            }

    async def list_held(self, subject: Subject) -> list[HeldItem]:
        return [HeldItem(store=self.name, key=f"{kind}:{i}", kind=kind)
                for kind, rows in self._rows(subject).items() for i, _ in enumerate(rows)]

    async def export(self, subject: Subject) -> dict[str, Any]:
        return {kind: [_plain(r) for r in rows] for kind, rows in self._rows(subject).items()}

    async def delete(self, subject: Subject) -> list[HeldItem]:
        if subject.kind != "person" or not person_in_tenant(self._services, subject):
            return []
        held = await self.list_held(subject)
        pid, keys = subject.subject_id, self._keys(subject.subject_id)
        with self._services.database.session() as s:
            s.execute(delete(CardMessageRow).where(CardMessageRow.chat.in_(keys)))
            s.execute(delete(ConversationRow).where(ConversationRow.subject.in_(keys)))
            s.execute(delete(GrantRow).where(GrantRow.user_id == pid))
            s.execute(delete(TerritoryRow).where(TerritoryRow.person_id == pid))
            s.execute(delete(ChannelRow).where(ChannelRow.person_id == pid))
            s.execute(delete(PersonRow).where(PersonRow.person_id == pid, PersonRow.tenant_id == subject.tenant))
        return held


def _plain(row: Any) -> dict[str, Any]:
    values = {c.key: getattr(row, c.key) for c in row.__table__.columns}
    return {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in values.items()}
