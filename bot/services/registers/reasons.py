"""Why a row of a register was refused, in words a clerk understands: the column as the sheet names it, the
value as it was written and what is wrong with it; never a pattern, a type name or a traceback."""

from typing import Any

from pydantic import ValidationError

from bot.services.registers.kinds import RegisterKind

_PYTHON_WORDS = ("could not convert", "invalid literal", "object has no attribute", "unsupported operand",
                 "is not subscriptable", "NoneType", "Decimal", "ConversionSyntax")


def _column(kind: RegisterKind | None, loc: tuple[Any, ...]) -> str:
    names = [str(p) for p in loc if not isinstance(p, int)]
    if not names:
        return "row"
    if kind is not None:
        for column in kind.columns:
            if column.field == names[0] or column.field == names[-1]:
                return column.header
    return names[-1].replace("_", " ")


def _shown(value: object) -> str:
    text = str(value)
    return f"'{text[:40]}…'" if len(text) > 40 else f"'{text}'"


def _one(kind: RegisterKind | None, error: Any) -> str:
    where = _column(kind, tuple(error.get("loc", ())))
    kind_of = str(error.get("type", ""))
    value = error.get("input")
    context = error.get("ctx") or {}
    if kind_of == "missing":
        return f"missing {where}"
    if kind_of == "value_error":
        return str(error.get("msg", "")).removeprefix("Value error, ")
    if kind_of == "string_pattern_mismatch":
        return f"{where} {_shown(value)} is not written the way a {where} is"
    if kind_of in ("string_too_short", "too_short"):
        return f"{where} is empty" if not value else f"{where} {_shown(value)} is too short"
    if kind_of in ("string_too_long", "too_long"):
        return f"{where} {_shown(value)} is too long"
    if kind_of.startswith(("float", "int", "decimal")) and "parsing" in kind_of or kind_of.endswith("_type") \
            and kind_of.startswith(("float", "int", "decimal")):
        return f"{where} {_shown(value)} is not a number"
    if kind_of in ("greater_than", "greater_than_equal"):
        return f"{where} {_shown(value)} must be more than {context.get('gt', context.get('ge', 0))}"
    if kind_of in ("less_than", "less_than_equal"):
        return f"{where} {_shown(value)} is too large"
    if kind_of.startswith(("date", "datetime")):
        return f"{where} {_shown(value)} is not a date (write it like 12-04-2023)"
    if kind_of in ("literal_error", "enum"):
        return f"{where} {_shown(value)} is not one of {context.get('expected', 'the allowed values')}"
    return f"{where} {_shown(value)} cannot be read"


def clerk_reason(error: Exception, kind: RegisterKind | None = None) -> str:
    """The reason a row is refused, for the person who keeps the sheet."""
    if isinstance(error, ValidationError):
        return _one(kind, error.errors()[0])
    message = str(error)
    if any(word in message for word in _PYTHON_WORDS):
        return "a value in this row cannot be read"
    return message
