"""Telegram updates kept on disk from the moment they are taken until they are handled.

PTB confirms a polled update to Telegram (the next getUpdates offset) only after putting it on the
Application's update queue, and its webhook answers 200 only after the same put. So writing each update to the
durable inbox inside `put` means an update Telegram will no longer resend is always on disk; one taken but not
handled before a crash or stop is queued again at the next start. A stranger's update is never written: it is
only refused (bot/core/conversation.py), and a refusal lost in a crash costs nothing. While the database is down
an update goes to the local spool (bot/transports/spool.py) and is queued when the replay loop has kept it.
"""

import asyncio
import json
import logging
from collections.abc import Callable

from telegram import Bot, Update

from bot.core.errors import database_unavailable
from bot.core.metrics import SPOOLED
from bot.store.state import DeliveryTooLarge, StateStore
from bot.transports.redelivery import InFlight
from bot.transports.spool import Spool, Spooled

log = logging.getLogger(__name__)

INBOX = "telegram"


class DurableUpdateQueue(asyncio.Queue[object]):
    """The Application's update queue: every Update is kept durably before it is queued, and only once."""

    def __init__(self, state: StateStore, is_registered: Callable[[Update], bool], spool: Spool) -> None:
        super().__init__()
        self._state = state
        self._is_registered = is_registered
        self.spool = spool
        self.in_flight = InFlight()
        """Updates queued here and not yet handled or given up (readiness reads the oldest)."""

    async def put(self, item: object) -> None:
        if isinstance(item, Update):
            try:
                if not self._keep(item):
                    return
            except Exception as exc:
                if not database_unavailable(exc):
                    raise
                self.spool.append(str(item.update_id), json.dumps(item.to_dict()))
                SPOOLED.labels(INBOX).inc()
                return
            self._taken(item)
        await super().put(item)

    def _taken(self, update: Update) -> None:
        if update.message is not None or update.callback_query is not None:  # what the transport's handlers take
            self.in_flight.taken(str(update.update_id))

    def _keep(self, update: Update) -> bool:
        """Keep a registered person's update in the inbox; False when it was kept before (a redelivery)."""
        if not self._is_registered(update):
            return True
        try:
            if not self._state.inbox_put(INBOX, str(update.update_id), json.dumps(update.to_dict())):
                log.info("dropped redelivered telegram update %s", update.update_id)
                return False
        except DeliveryTooLarge as exc:
            log.warning("not keeping %s; handled in memory only", exc)
        return True

    def replay_spool(self, bot: Bot) -> int:
        """Keep what the spool holds in the database and queue it (once the database is back)."""
        def keep(entry: Spooled) -> None:
            update = Update.de_json(json.loads(entry.payload), bot)
            if update is not None and self._keep(update):
                self._taken(update)
                super(DurableUpdateQueue, self).put_nowait(update)
        return self.spool.replay(keep) if self.spool.pending() else 0

    async def take_retries(self, bot: Bot) -> int:
        """Queue the given-up updates an operator asked to retry that this process takes (one worker each)."""
        taken = 0
        for _key, payload in await asyncio.to_thread(self._state.inbox_take_retries, INBOX):
            update = Update.de_json(json.loads(payload), bot)
            if update is not None:
                self._taken(update)
                super().put_nowait(update)
                taken += 1
        return taken

    def again(self, update: Update) -> None:
        """Queue an update again that is kept already (its handling met a transient failure)."""
        super().put_nowait(update)

    def requeue_pending(self, bot: Bot) -> int:
        """Queue again every update kept but not handled (after a crash or stop); return how many."""
        queued = 0
        for key, payload in self._state.inbox_pending(INBOX):
            try:
                update = Update.de_json(json.loads(payload), bot)
            except (ValueError, TypeError, KeyError, RecursionError) as exc:
                # A kept delivery that cannot be read would fail at every start: removed, said in the log.
                log.error("telegram: removed kept update %s that cannot be read (%s)", key, type(exc).__name__)
                self._state.inbox_forget(INBOX, key)
                continue
            if update is None:
                continue
            self._taken(update)
            super().put_nowait(update)
            queued += 1
        if queued:
            log.info("telegram: %s updates taken before the last stop are handled now", queued)
        return queued

    def handled(self, update: Update) -> None:
        """Mark an update handled: it will not be queued again."""
        self.in_flight.finished(str(update.update_id))
        self._state.inbox_done(INBOX, str(update.update_id))

    def failed(self, update: Update, attempts: int, error: str) -> None:
        """Give up on an update: kept as failed for the operator, not queued again at the next start."""
        self.in_flight.finished(str(update.update_id))
        self._state.inbox_failed(INBOX, str(update.update_id), attempts, error)

    def forget(self, update: Update) -> None:
        """Remove a refused update altogether (one kept before its sender was known to be a stranger)."""
        self.in_flight.finished(str(update.update_id))
        self._state.inbox_forget(INBOX, str(update.update_id))
