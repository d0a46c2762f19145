"""Examples and list lines made from the practice's own register: /help and the usage hints name its cases (by
a name that finds the case again), never the demo's; /cases writes a case's title once."""

from bot.services.i18n import text
from handlers.legal.models import CaseRecord
from handlers.legal.register import CaseRegister


def _names(case: CaseRecord) -> list[str]:
    return [*case.aliases, *case.numbers, *([case.code] if case.code else []), case.title]


def example_names(register: CaseRegister, wanted: int = 2) -> list[str]:
    """Up to `wanted` names of different cases (an alias, else a number, a code, the title) that a question
    naming them finds again."""
    found: list[str] = []
    for case in register.cases:
        usable = [n for n in _names(case) if n.strip() and _finds(register, n, case)]
        if usable:
            found.append(usable[0])
        if len(found) == wanted:
            break
    return found


def _finds(register: CaseRegister, name: str, case: CaseRecord) -> bool:
    mention = register.asked_about(name)
    return mention is not None and mention.case_id == case.case_id


def example_case(lang: str, register: CaseRegister) -> str:
    """A case of the register to show in an example, or a placeholder that says what to write."""
    names = example_names(register, 1)
    return names[0] if names else text(lang, "legal.example_case")


def help_examples(lang: str, register: CaseRegister) -> list[str]:
    names = example_names(register)
    if not names:
        return [text(lang, "legal.help_no_cases")]
    return [text(lang, "legal.help_examples", case=names[0], other=names[-1])]


def case_line(lang: str, case: CaseRecord) -> str:
    """One case of /cases: its short name, number, title and court; the title once when it is the name."""
    number = ", ".join(case.numbers) or case.code or "-"
    court = case.court or "-"
    if case.label == case.title:
        return text(lang, "legal.case_line_titled", case=case.title, number=number, court=court)
    return text(lang, "legal.case_line", case=case.label, number=number, title=case.title, court=court)
