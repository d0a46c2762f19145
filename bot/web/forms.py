"""Small helpers for reading a posted form and answering it."""

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.responses import RedirectResponse

from bot.web.context import PREFIX


def value(form: FormData, name: str, limit: int = 400) -> str:
    """A text field, stripped and cut to `limit` characters ('' when absent or a file)."""
    found = form.get(name)
    return found.strip()[:limit] if isinstance(found, str) else ""


def one_of(form: FormData, name: str, allowed: tuple[str, ...] | list[str]) -> str:
    """A field that must be one of `allowed`; 400 otherwise (a hand-made form)."""
    found = value(form, name)
    if found not in allowed:
        raise HTTPException(400)
    return found


def back_to(path: str, **query: str) -> RedirectResponse:
    """Redirect after a POST (303), to a page of the office, with a short message in the query."""
    from urllib.parse import urlencode

    suffix = f"?{urlencode(query)}" if query else ""
    return RedirectResponse(f"{PREFIX}{path}{suffix}", status_code=303)
