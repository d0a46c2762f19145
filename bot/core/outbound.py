"""Messages the bot starts itself (outcome follow-ups, queued-item results), sent on the person's transport.

Each running transport registers a Notifier. A message goes to the transport the person last used, then to
any other registered one; the console registers one that prints.
"""

import logging
from typing import Literal, Protocol

from pydantic import BaseModel

from bot.core.messages import Reply, Transport
from bot.core.registry import User
from bot.store.state import StateStore

log = logging.getLogger(__name__)

Purpose = Literal["followup", "notice"]


class Notifier(Protocol):
    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        """Send replies to the user unprompted; return False when this transport cannot reach them now."""
        ...


class Delivery(BaseModel):
    delivered: bool
    transport: Transport | None = None


class Outbound:
    """Holds the notifiers of the transports that are running in this process."""

    def __init__(self, state: StateStore) -> None:
        self._state = state
        self._notifiers: dict[Transport, Notifier] = {}

    def register(self, transport: Transport, notifier: Notifier) -> None:
        self._notifiers[transport] = notifier

    def reaches(self, transport: Transport) -> bool:
        """Whether a transport running in this process can send unprompted messages."""
        return transport in self._notifiers

    def remember_transport(self, user: User, transport: Transport) -> None:
        # Every message passes here: a read is far cheaper than a durable write of the value already kept.
        if self._state.pref(user.user_id, "last_transport") != transport:
            self._state.set_pref(user.user_id, "last_transport", transport)

    async def send(self, user: User, replies: list[Reply], purpose: Purpose) -> Delivery:
        last = self._state.pref(user.user_id, "last_transport")
        order = sorted(self._notifiers, key=lambda t: t != last)
        for transport in order:
            if await self._notifiers[transport].notify(user, replies, purpose):
                return Delivery(delivered=True, transport=transport)
        log.warning("could not deliver a %s message to %s on any transport", purpose, user.user_id)
        return Delivery(delivered=False)
