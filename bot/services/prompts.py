"""Prompts are files under prompts/<pack>/<name>.md with `{{placeholder}}` slots; a pack's bank profile (the
mission and directives Hindsight is given for its banks) is prompts/<pack>/bank.json.

Rendering fails on a slot left unfilled or a value nobody asked for, so a prompt and its caller can't drift.
A prompt file may hold a system part and a user part, split by a line `---user---`.
"""

import re
from pathlib import Path

from pydantic import BaseModel

from bot.paths import PROMPTS_DIR
from memory import BankProfile

_SLOT = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
_USER_SPLIT = "\n---user---\n"


class PromptError(KeyError):
    """A prompt file is missing or its slots do not match the values given."""


class BankFile(BaseModel):
    mission: str
    directives: dict[str, str]


class Prompt(BaseModel):
    system: str
    user: str


def _fill(template: str, values: dict[str, str], name: str) -> str:
    def slot(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise PromptError(f"prompt {name!r} needs a value for {key!r}")
        return values[key]

    return _SLOT.sub(slot, template)


def render(pack: str, name: str, root: Path = PROMPTS_DIR, **values: str) -> Prompt:
    """Load prompts/<pack>/<name>.md and fill every slot."""
    path = root / pack / f"{name}.md"
    if not path.is_file():
        raise PromptError(f"no prompt file {path}")
    template = path.read_text(encoding="utf-8")
    wanted = set(_SLOT.findall(template))
    unused = set(values) - wanted
    if unused:
        raise PromptError(f"prompt {name!r} has no slot for {sorted(unused)}")
    system, _, user = template.partition(_USER_SPLIT)
    return Prompt(system=_fill(system, values, name).strip(), user=_fill(user, values, name).strip())


def bank_profile(pack: str, bank_id: str, root: Path = PROMPTS_DIR) -> BankProfile:
    """The pack's bank profile from prompts/<pack>/bank.json, for the bank `bank_id`."""
    path = root / pack / "bank.json"
    if not path.is_file():
        raise PromptError(f"no bank profile {path}")
    data = BankFile.model_validate_json(path.read_text(encoding="utf-8"))
    return BankProfile(bank_id=bank_id, mission=data.mission, directives=data.directives)
