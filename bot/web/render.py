"""Rendering a page: the templates (the core's and the packs'), with the catalogue, the viewer and the form
token at hand in every one."""

from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from bot.services.i18n import LANGUAGES, show_date, text
from bot.web.auth import FORM_FIELD
from bot.web.context import PREFIX, Viewer

TEMPLATES = Path(__file__).resolve().parent / "templates"


def make_templates(extra_dirs: list[Path]) -> Jinja2Templates:
    env = Environment(loader=ChoiceLoader([FileSystemLoader(str(d)) for d in [TEMPLATES, *extra_dirs]]),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.globals.update(prefix=PREFIX, form_field=FORM_FIELD, languages=LANGUAGES)
    return Jinja2Templates(env=env)


def render(templates: Jinja2Templates, request: Request, who: Viewer | None, template: str, status: int = 200,
           lang: str = "en", **values: Any) -> HTMLResponse:
    """The page `template` for this viewer (or for nobody signed in, in `lang`)."""
    lang = who.lang if who is not None else lang

    def t(key: str, **more: object) -> str:
        return text(lang, key, **more)

    context = {"who": who, "t": t, "lang": lang, "day": lambda d: show_date(lang, d), **values}
    return templates.TemplateResponse(request, template, context, status_code=status)
