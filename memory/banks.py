"""Bank naming: one Hindsight bank per tenant and pack, so separate practices never share memory."""

import re

_SAFE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


def bank_id(tenant: str, pack: str, prefix: str = "smriti") -> str:
    """Return the bank id for a tenant's pack, refusing names that could collide or escape."""
    for part in (tenant, pack):
        if not _SAFE.match(part):
            raise ValueError(f"tenant and pack must be lowercase letters, digits and hyphens: {part!r}")
    return f"{prefix}-{tenant}-{pack}"
