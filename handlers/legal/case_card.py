"""`/case add O.S. 311/2024 Pendyala v Kommineni, Vikarabad`: a card showing the case as read (number, title,
court), edited field by field, added to the tenant's register only on Save."""

from collections.abc import Callable
from typing import Any

from bot.services.i18n import text
from bot.core.messages import Reply
from bot.core.pack import Turn
from bot.core.cards import CardSpec
from handlers.legal.models import CaseRecord
from handlers.legal.newcase import NewCase, case_numbers, case_record, known_number
from handlers.legal.register import CaseRegister
from memory import MemoryItem

KIND = "case"
_FIELDS = ["number", "title", "court"]


def case_card_payload(new: NewCase, tenant: str, lang: str) -> dict[str, Any]:
    return {"case": new.model_dump(), "tenant": tenant, "lang": lang}


class NewCaseCard(CardSpec):
    kind = KIND

    def __init__(self, register_for: Callable[[str], CaseRegister],
                 add_case: Callable[[str, CaseRecord], None]) -> None:
        self.register_for = register_for
        self.add_case = add_case

    def fields(self, payload: dict[str, Any]) -> list[str]:
        return list(_FIELDS)

    def field_label(self, lang: str, field: str) -> str:
        return text(lang, f"legal.field_case_{field}")

    def render(self, lang: str, payload: dict[str, Any]) -> str:
        new = NewCase.model_validate(payload["case"])
        return text(lang, "legal.case_card", number=new.number, title=new.title or "-", court=new.court or "-")

    def apply_edit(self, payload: dict[str, Any], field: str, value: str) -> dict[str, Any]:
        new = NewCase.model_validate(payload["case"])
        lang = payload.get("lang", "en")
        value = value.strip()
        if field == "number":
            numbers = case_numbers(value)
            if not numbers:
                raise ValueError(text(lang, "legal.edit_bad_number"))
            new = new.model_copy(update={"number": numbers[0][0]})
        elif field == "title":
            if len(value) < 3:
                raise ValueError(text(lang, "legal.edit_empty"))
            new = new.model_copy(update={"title": value[:120]})
        elif field == "court":
            new = new.model_copy(update={"court": "" if value in ("-", "none") else value[:80]})
        else:
            raise ValueError(text(lang, "legal.edit_bad_field"))
        return {**payload, "case": new.model_dump()}

    def save_allowed(self, payload: dict[str, Any]) -> str | None:
        new = NewCase.model_validate(payload["case"])
        lang = payload.get("lang", "en")
        register = self.register_for(payload["tenant"])
        if known_number(register, new.number) and not payload.get("added_case"):
            mention = register.first(new.number)
            case = register.get(mention.case_id) if mention else None
            return text(lang, "legal.case_exists", number=new.number, case=case.label if case else new.number)
        if len(new.title) < 3:
            return text(lang, "legal.case_needs_title")
        return None

    async def before_retain(self, turn: Turn, payload: dict[str, Any]) -> dict[str, Any]:
        if payload.get("added_case"):
            return payload
        record = case_record(NewCase.model_validate(payload["case"]), self.register_for(payload["tenant"]))
        self.add_case(payload["tenant"], record)
        return {**payload, "added_case": record.case_id}

    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        return []  # a register row, not a memory: the hearings filed under it are the memories

    async def after_save(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        new = NewCase.model_validate(payload["case"])
        return [Reply(text=turn.t("legal.case_added", number=new.number, title=new.title))]
