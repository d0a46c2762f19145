"""Confirm before retain: every extraction is shown as a card, edited field by field, and stored only on Save.

Button data is `c:<action>:<card id>[:<field index>]` (well under Telegram's 64 bytes). Actions: s save,
e edit (choose a field), f field chosen, b back, d discard. A card moves open -> saving -> saved only once,
so a double-tap on Save stores one memory. A save holds the lease `card-save:<id>` (renewed while Hindsight
takes its time), so the worker finishing saves a crash interrupted never re-retains one still in flight.
"""

import json
from abc import ABC, abstractmethod
from datetime import timedelta
from dataclasses import dataclass
from typing import Any

from bot.services.i18n import catalogue, text
from bot.core.messages import Button, Incoming, Reply
from bot.store.state import Card
from bot.core.pack import Pack, Services, Turn
from bot.core.registry import User
from memory import MemoryItem

CALLBACK_PREFIX = "c"
SAVE_LEASE = timedelta(minutes=5)
"""Longer than the longest retain (a Hindsight write may take 180 s); renewed while the save runs."""


def save_lease(card_id: str) -> str:
    return f"card-save:{card_id}"


ACTIONS_ON_CARD = ("s", "e", "d")
"""Card buttons that sit on the card's own message (Back and the fields sit on the field list)."""


@dataclass(frozen=True)
class CardPress:
    """A card button's data, read back: the one place its format is parsed."""

    action: str
    card_id: str
    field_index: int | None = None

    @property
    def on_card(self) -> bool:
        """True when the button sits on the card's own message, so that message is the card."""
        return self.action in ACTIONS_ON_CARD


def parse_card_data(data: str) -> CardPress | None:
    """Read `c:<action>:<card id>[:<field index>]`; None for anything else."""
    parts = data.split(":")
    if len(parts) < 3 or parts[0] != CALLBACK_PREFIX:
        return None
    index = int(parts[3]) if len(parts) == 4 and parts[3].isdigit() else None
    return CardPress(action=parts[1], card_id=parts[2], field_index=index)


class CardSpec(ABC):
    """How one kind of extraction is shown, edited and turned into memories."""

    kind: str

    @abstractmethod
    def fields(self, payload: dict[str, Any]) -> list[str]:
        """Return the names of the fields a person may edit, in display order."""

    @abstractmethod
    def field_label(self, lang: str, field: str) -> str: ...

    @abstractmethod
    def render(self, lang: str, payload: dict[str, Any]) -> str:
        """Return the card's text: every extracted field, so nothing is stored unseen."""

    @abstractmethod
    def apply_edit(self, payload: dict[str, Any], field: str, value: str) -> dict[str, Any]:
        """Return the payload with one field changed; raise ValueError with a short reason (or the catalogue
        key of one) if it is invalid."""

    @abstractmethod
    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        """Return what Save retains."""

    async def before_retain(self, turn: Turn, payload: dict[str, Any]) -> dict[str, Any]:
        """On Save, before the memories are built: write what the card adds to the tenant's registers (a new
        farmer, a new case) and return the payload to retain. Must be idempotent: a save a crash interrupted
        runs it again. Nothing by default."""
        return payload

    async def after_save(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        """Do what follows a save (schedule a follow-up, say what comes next); nothing by default."""
        return []

    def save_allowed(self, payload: dict[str, Any]) -> str | None:
        """Return a reason the card cannot be saved yet (for example a date held for review), or None."""
        return None

    def saved_buttons(self, turn: Turn, card_id: str, payload: dict[str, Any]) -> list[list[Button]]:
        """Buttons a saved card keeps (Edit / Delete of the saved record, for a spec that allows them); none by
        default."""
        return []

    async def on_saved(self, turn: Turn, card: Card, action: str) -> list[Reply] | None:
        """Answer a button pressed on a card already saved (a correction of the saved record); None says it was
        already saved."""
        return None

    def accepts_value(self, payload: dict[str, Any], field: str, value: str) -> bool:
        """Return False when a message sent while a field waits is plainly not a value of that field's kind
        (a whole new note): it is then read as a new message and the edit is left open."""
        return True


def _data(action: str, card_id: str, extra: str | None = None) -> str:
    return ":".join([CALLBACK_PREFIX, action, card_id, *([extra] if extra is not None else [])])


def card_buttons(turn: Turn, card_id: str) -> list[list[Button]]:
    return [[
        Button(label=turn.t("core.button_save"), data=_data("s", card_id)),
        Button(label=turn.t("core.button_edit"), data=_data("e", card_id)),
        Button(label=turn.t("core.button_discard"), data=_data("d", card_id)),
    ]]


def open_card(turn: Turn, spec: CardSpec, payload: dict[str, Any], intro: str | None = None) -> Reply:
    """Store a new card and return it with Save / Edit / Discard buttons."""
    # Keyed by the message and what it read, so a message handled again after a crash reopens its own card.
    key = f"{turn.incoming.transport}:{turn.incoming.delivery_id}:{spec.kind}:" \
          f"{json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)}"
    card = turn.services.state.open_card(turn.user.pack, turn.user.user_id, spec.kind, payload, key=key)
    body = spec.render(turn.lang, payload)
    return Reply(
        text=f"{intro}\n\n{body}" if intro else body, buttons=card_buttons(turn, card.card_id), card_id=card.card_id
    )


def is_card_callback(data: str) -> bool:
    return data.startswith(f"{CALLBACK_PREFIX}:")


async def on_callback(turn: Turn, specs: dict[str, CardSpec], data: str) -> list[Reply]:
    """Answer a card button; stale, foreign or malformed data is answered harmlessly."""
    pressed = parse_card_data(data)
    if pressed is None:
        return [Reply(text=turn.t("core.card_gone"))]
    action, card_id = pressed.action, pressed.card_id
    state = turn.services.state
    card = state.card(card_id)
    if card is None or card.kind not in specs:
        return [Reply(text=turn.t("core.card_gone"))]
    if card.user_id != turn.user.user_id:
        return [Reply(text=turn.t("core.card_not_yours"))]
    if card.status == "saved":
        answered = await specs[card.kind].on_saved(turn, card, action)
        return answered if answered is not None else [Reply(text=turn.t("core.card_already_saved"))]
    if card.status == "discarded":
        return [Reply(text=turn.t("core.card_already_discarded"))]
    spec = specs[card.kind]
    if action == "s":
        return await _save(turn, spec, card)
    if action == "d":
        if not state.move_card(card_id, "open", "discarded"):
            return [Reply(text=turn.t("core.card_gone"))]
        state.clear_edit(turn.user.user_id)
        return [Reply(text=f"{spec.render(turn.lang, card.payload)}\n\n{turn.t('core.card_discarded')}",
                      card_id=card_id, replaces_card=True)]
    if action == "e":
        fields = spec.fields(card.payload)
        rows = [[Button(label=spec.field_label(turn.lang, f), data=_data("f", card_id, str(i)))]
                for i, f in enumerate(fields)]
        rows.append([Button(label=turn.t("core.button_cancel"), data=_data("b", card_id))])
        return [Reply(text=turn.t("core.card_choose_field"), buttons=rows)]
    if action == "f" and pressed.field_index is not None:
        fields = spec.fields(card.payload)
        index = pressed.field_index
        if index >= len(fields):
            return [Reply(text=turn.t("core.card_gone"))]
        state.await_edit(turn.user.user_id, card_id, fields[index])
        return [Reply(text=turn.t("core.card_send_value", field=spec.field_label(turn.lang, fields[index])))]
    if action == "b":
        state.clear_edit(turn.user.user_id)
        return [_show(turn, spec, card)]
    return [Reply(text=turn.t("core.card_gone"))]


def edit_left_open(turn: Turn, specs: dict[str, CardSpec], value: str) -> Reply | None:
    """If a field waits for a value and this message is not one of its kind, return the notice that the edit
    stays open (the caller then reads the message as a new one, so nothing is lost); else None."""
    awaiting = turn.services.state.awaiting_edit(turn.user.user_id)
    if awaiting is None:
        return None
    card = turn.services.state.card(awaiting.card_id)
    if card is None or card.status != "open" or card.kind not in specs:
        return None
    spec = specs[card.kind]
    if spec.accepts_value(card.payload, awaiting.field, value.strip()):
        return None
    return Reply(text=turn.t("core.card_edit_left_open", field=spec.field_label(turn.lang, awaiting.field)))


async def on_pending_edit(turn: Turn, specs: dict[str, CardSpec], value: str) -> list[Reply] | None:
    """If this person was asked for a field value, apply it and show the card again; else return None."""
    state = turn.services.state
    awaiting = state.awaiting_edit(turn.user.user_id)
    if awaiting is None:
        return None
    card = state.card(awaiting.card_id)
    if card is None or card.status != "open" or card.kind not in specs:
        state.clear_edit(turn.user.user_id)
        return None
    spec = specs[card.kind]
    try:
        payload = spec.apply_edit(card.payload, awaiting.field, value.strip())
    except ValueError as exc:
        # A spec may give its reason as a catalogue key, so the person reads it in their own language.
        reason = turn.t(str(exc)) if str(exc) in catalogue(turn.lang) else str(exc)
        return [Reply(text=turn.t("core.card_bad_value", field=spec.field_label(turn.lang, awaiting.field),
                                  reason=reason))]
    state.update_payload(card.card_id, payload)
    state.clear_edit(turn.user.user_id)
    return [_show(turn, spec, card.model_copy(update={"payload": payload}))]


MAX_REMINDED = 2
"""Earlier unsaved cards shown again under a new one (the latest); the notice counts them all."""


def open_card_ids(turn: Turn) -> set[str]:
    """The person's cards still open (not saving, saved or discarded), before a message is handled."""
    return {c.card_id for c in turn.services.state.open_cards(turn.user.user_id) if c.status == "open"}


def earlier_unsaved(turn: Turn, specs: dict[str, CardSpec], earlier: set[str], replies: list[Reply]) -> list[Reply]:
    """When a message opened a new card while an earlier one is still unsaved, say so and show the earlier card
    again with its buttons: nothing is saved without a tap, and no card drops out of sight behind the next note
    (a console or WhatsApp number only presses the latest buttons)."""
    if not any(r.card_id and not r.replaces_card for r in replies):
        return []
    shown = {r.card_id for r in replies}
    left = [c for c in turn.services.state.open_cards(turn.user.user_id)
            if c.card_id in earlier and c.status == "open" and c.card_id not in shown and c.kind in specs]
    if not left:
        return []
    notice = Reply(text=turn.t("core.card_still_unsaved", count=len(left)))
    # Marked, so an earlier card shown again is never taken for a second answer to its note.
    again = turn.t("core.card_shown_again")
    cards = [_show(turn, specs[c.kind], c) for c in left[-MAX_REMINDED:]]
    return [notice, *(r.model_copy(update={"replaces_card": False, "text": f"{again} {r.text}"}) for r in cards)]


def open_cards_shown(services: Services, packs: dict[str, Pack], user: User, lang: str) -> list[Reply]:
    """The person's cards still open, each shown with its buttons, and the field an edit waits for: what a
    transport that keeps no message history (the console) shows again after a restart."""
    specs = packs[user.pack].card_specs(user.tenant) if user.pack in packs else {}
    turn = Turn(user=user, services=services, lang=lang, incoming=Incoming(
        transport="console", sender=user.user_id, delivery_id=f"resume:{user.user_id}"))
    shown = [_show(turn, specs[c.kind], c).model_copy(update={"replaces_card": False})
             for c in services.state.open_cards(user.user_id) if c.status == "open" and c.kind in specs]
    awaiting = services.state.awaiting_edit(user.user_id)
    card = services.state.card(awaiting.card_id) if awaiting else None
    if awaiting and card is not None and card.status == "open" and card.kind in specs:
        label = specs[card.kind].field_label(lang, awaiting.field)
        shown.append(Reply(text=turn.t("core.card_send_value", field=label)))
    return shown


def _show(turn: Turn, spec: CardSpec, card: Card) -> Reply:
    return Reply(text=spec.render(turn.lang, card.payload), buttons=card_buttons(turn, card.card_id),
                 card_id=card.card_id, replaces_card=True)


async def _save(turn: Turn, spec: CardSpec, card: Card) -> list[Reply]:
    blocked = spec.save_allowed(card.payload)
    if blocked:
        return [Reply(text=blocked)]
    state = turn.services.state
    if not state.move_card(card.card_id, "open", "saving"):
        return [Reply(text=turn.t("core.card_already_saved"))]
    state.clear_edit(turn.user.user_id)
    try:
        async with turn.services.leases.keep(save_lease(card.card_id), SAVE_LEASE):
            payload = await _registered(turn, spec, card)
            items = spec.memories(turn, payload)
            outcome = await turn.services.outbox.retain_or_queue(
                turn.services.memory, turn.bank_id, items, origin=card_origin(card.card_id)) if items else None
    except BaseException:
        state.move_card(card.card_id, "saving", "open")
        raise
    state.move_card(card.card_id, "saving", "saved")
    if outcome is None:
        note = turn.t("core.card_saved_register")  # a card that only adds to a register (a new case)
    elif not outcome.fully_stored:
        note = turn.t("core.card_saved_offline")
    elif outcome.saving:
        note = turn.t("core.card_saving")
    else:
        note = turn.t("core.card_saved")
    replies = [Reply(text=f"{spec.render(turn.lang, payload)}\n\n{note}", card_id=card.card_id,
                     replaces_card=True, buttons=spec.saved_buttons(turn, card.card_id, payload))]
    return replies + await spec.after_save(turn, payload)


async def _registered(turn: Turn, spec: CardSpec, card: Card) -> dict[str, Any]:
    """Run the card's register writes; keep the payload they return, so a resumed save retains the same."""
    payload = await spec.before_retain(turn, card.payload)
    if payload != card.payload:
        turn.services.state.update_payload(card.card_id, payload, status="saving")
    return payload


CARD_ORIGIN = "card:"


def card_origin(card_id: str) -> str:
    return f"{CARD_ORIGIN}{card_id}"


async def show_confirmed(services: Services, packs: dict[str, Pack], origins: list[str]) -> int:
    """Turn each card whose save Hindsight has now confirmed from "saving" to "saved", where the person sees it."""
    shown = 0
    for origin in origins:
        if not origin.startswith(CARD_ORIGIN):
            continue
        card = services.state.card(origin[len(CARD_ORIGIN):])
        user = services.registry.by_id(card.user_id) if card else None
        spec = (packs[card.pack].card_specs(user.tenant).get(card.kind)
                if card and user and card.pack in packs else None)
        if card is None or user is None or spec is None:
            continue
        note = text(user.lang, "core.card_saved")
        reply = Reply(text=f"{spec.render(user.lang, card.payload)}\n\n{note}", card_id=card.card_id,
                      replaces_card=True)
        shown += int((await services.outbound.send(user, [reply], "notice")).delivered)
    return shown


async def resume_saving(services: Services, packs: dict[str, Pack]) -> int:
    """Finish saves a crash interrupted: retain again (the document id makes it once) and mark them saved.
    A save still in flight in a live process holds its lease and is left alone."""
    resumed = 0
    for card in services.state.open_cards():
        if card.status != "saving" or card.pack not in packs:
            continue
        user = services.registry.by_id(card.user_id)
        spec = packs[card.pack].card_specs(user.tenant).get(card.kind) if user is not None else None
        if user is None or spec is None:
            continue
        async with services.leases.keep(save_lease(card.card_id), SAVE_LEASE) as held:
            current = services.state.card(card.card_id)
            if not held or current is None or current.status != "saving":
                continue
            turn = Turn(user=user, services=services, lang=user.lang, incoming=Incoming(
                transport="cli", sender=user.user_id, delivery_id=f"resume:{card.card_id}"))
            bank = services.bank_for(user)
            payload = await _registered(turn, spec, current)
            items = spec.memories(turn, payload)
            if items:
                await services.outbox.retain_or_queue(services.memory, bank, items)
            services.state.move_card(card.card_id, "saving", "saved")
            resumed += 1
    return resumed
