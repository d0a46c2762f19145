"""`/web` in chat: a one-time link that signs the sender in to the office web page (admins and AP clerks).

The link is a secret reply: sent at once, never kept in the reply outbox, and only its hash is stored."""

from bot.core.messages import Reply
from bot.core.pack import Turn

WEB_ROLES = ("admin", "clerk")


def web_link(turn: Turn) -> list[Reply]:
    """Answer /web: the link for the sender only, or why they get none."""
    if turn.user.role not in WEB_ROLES:
        return [Reply(text=turn.t("web.chat_not_allowed"))]
    # Loaded here: a bot that is never asked for a link never loads the web layer.
    from bot.store.web_access import LINK_MINUTES, WebAccess
    from bot.web.auth import sign_in_link

    link = sign_in_link(WebAccess(turn.services.database), turn.services.settings, turn.user,
                        created_by=turn.user.user_id)
    return [Reply(text=turn.t("web.chat_link", minutes=LINK_MINUTES, link=link), secret=True)]
