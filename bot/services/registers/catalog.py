"""Which register kinds each installed pack declares (its `registers` module's KINDS), found by name."""

import importlib
from types import ModuleType

from bot.services.registers.kinds import RegisterKind


def _module(pack_module: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{pack_module}.registers")
    except ModuleNotFoundError:
        return None


def pack_kinds(pack_modules: dict[str, str]) -> dict[str, dict[str, RegisterKind]]:
    """Pack name -> its kinds by name, for every pack that has registers."""
    found: dict[str, dict[str, RegisterKind]] = {}
    for pack, module_name in pack_modules.items():
        module = _module(module_name)
        if module is not None:
            found[pack] = dict(module.KINDS)
    return found


def seed_files(pack_module: str) -> list[tuple[str, str]]:
    """The (kind, path under seeds/) a pack's demo registers are imported from, in dependency order."""
    module = _module(pack_module)
    return list(getattr(module, "SEED_FILES", [])) if module is not None else []
