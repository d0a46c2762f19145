"""Registers: every register kind browsable and searchable; import by upload (the dry run as a table, then
Apply or Discard, through the same staged import as the chat's /import); export in CSV, Excel or JSON."""

import tempfile
from pathlib import Path

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.core.chat_import import UNREADABLE
from bot.services.registers import FORMATS
from bot.services.registers.exporter import export_kind
from bot.services.registers.kinds import RegisterKind
from bot.services.registers.table import fold
from bot.store.registers import RegisterStore
from bot.web import auth
from bot.web.context import Section, Viewer, WebContext
from bot.web.forms import back_to
from bot.web.render import render

NAME = "registers"
PAGE_ROWS = 200
MEDIA_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json",
               "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def section(ctx: WebContext) -> Section:
    imports = ctx.conversation.imports

    def kind_of(request: Request) -> RegisterKind:
        kind = ctx.kinds.get(request.path_params["kind"])
        if kind is None:
            raise HTTPException(404)
        return kind

    def rows(kind: RegisterKind, tenant: str, query: str) -> tuple[list[list[str]], int]:
        registers = RegisterStore(ctx.services.database, *kind.tables).records(tenant)
        stored = registers.get(kind.name, {})
        found: list[list[str]] = []
        wanted = fold(query)
        for record in stored.values():
            model = kind.model.model_validate(record.data)
            cells = kind.cells_written(model, registers) if kind.columns else {"key": record.label}
            for one in cells if isinstance(cells, list) else [cells]:
                line = [one.get(c.field, "") for c in kind.columns] if kind.columns else [record.label]
                if not wanted or any(wanted in fold(v) for v in [record.label, *line]):
                    found.append(line)
        return found[:PAGE_ROWS], len(found)

    async def overview(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        counts = {}
        for name, kind in sorted(ctx.kinds.items(), key=lambda item: (item[1].pack, item[0])):
            stored = RegisterStore(ctx.services.database, *kind.tables).records(who.tenant).get(name, {})
            counts[name] = (kind.pack, len(stored))
        return render(ctx.templates, request, who, "registers.html", here=NAME, counts=counts)

    async def browse(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        kind = kind_of(request)
        query = request.query_params.get("q", "")[:100]
        found, total = rows(kind, who.tenant, query)
        headers = kind.headers if kind.columns else [who.t("web.col_id")]
        done = request.query_params.get("done")
        return render(ctx.templates, request, who, "register.html", here=NAME, kind=kind, headers=headers,
                      rows=found, total=total, query=query, formats=FORMATS,
                      notice=who.t("web.registers_discarded") if done == "discarded" else None)

    async def upload(request: Request) -> Response:
        who, form = await auth.posted(ctx, request, NAME)
        kind = kind_of(request)
        sent = form.get("file")
        if not isinstance(sent, UploadFile) or not sent.filename:
            return _problem(request, who, kind, who.t("web.registers_no_file"))
        content = await sent.read(ctx.services.settings.max_media_bytes + 1)
        if len(content) > ctx.services.settings.max_media_bytes:
            return _problem(request, who, kind, who.t("web.registers_too_large"))
        try:
            import_id, report = imports.stage(who.tenant, who.user.user_id, kind.name, sent.filename[:200], content)
        except UNREADABLE as exc:
            return _problem(request, who, kind, who.t("imports.unreadable", kind=kind.name, reason=str(exc)[:200]))
        ctx.access.audit(who.tenant, who.user.user_id, "import.dry_run", kind.name, file=sent.filename[:200],
                         added=len(report.added), updated=len(report.updated), rejected=len(report.rejected))
        return render(ctx.templates, request, who, "import_preview.html", here=NAME, kind=kind, report=report,
                      import_id=import_id, file_name=sent.filename)

    def staged_of(request: Request, who: Viewer) -> object:
        row = imports.staged(request.path_params["import_id"])
        if row is None or row.tenant_id != who.tenant or row.kind != request.path_params["kind"]:
            raise HTTPException(404)
        return row

    async def apply(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        kind = kind_of(request)
        row = staged_of(request, who)
        report = imports.apply(row)  # type: ignore[arg-type]
        if report is None:
            return _problem(request, who, kind, who.t("web.registers_already"))
        ctx.access.audit(who.tenant, who.user.user_id, "import.apply", kind.name, added=len(report.added),
                         updated=len(report.updated), rejected=len(report.rejected))
        return render(ctx.templates, request, who, "import_preview.html", here=NAME, kind=kind, report=report,
                      import_id=None, file_name=None, notice=who.t("imports.applied", kind=kind.name))

    async def discard(request: Request) -> Response:
        who, _ = await auth.posted(ctx, request, NAME)
        kind = kind_of(request)
        staged_of(request, who)
        if imports.discard(request.path_params["import_id"]):
            ctx.access.audit(who.tenant, who.user.user_id, "import.discard", kind.name)
        return back_to(f"/{NAME}/{kind.name}", done="discarded")

    async def export(request: Request) -> Response:
        who = auth.viewer(ctx, request, NAME)
        kind = kind_of(request)
        fmt = request.query_params.get("format", "csv")
        if fmt not in FORMATS:
            raise HTTPException(404)
        with tempfile.TemporaryDirectory(prefix="smriti-export-") as folder:
            out = Path(folder) / f"{kind.name}.{fmt}"
            try:
                export_kind(ctx.services.database, kind, who.tenant, fmt, out)
            except ValueError as exc:
                return _problem(request, who, kind, str(exc))
            body = out.read_bytes()
        ctx.access.audit(who.tenant, who.user.user_id, "register.export", kind.name, format=fmt)
        return Response(body, media_type=MEDIA_TYPES[fmt], headers={
            "Content-Disposition": f'attachment; filename="{who.tenant}-{kind.name}.{fmt}"'})

    def _problem(request: Request, who: Viewer, kind: RegisterKind, problem: str) -> Response:
        found, total = rows(kind, who.tenant, "")
        return render(ctx.templates, request, who, "register.html", status=400, here=NAME, kind=kind,
                      headers=kind.headers or [who.t("web.col_id")], rows=found, total=total, query="",
                      formats=FORMATS, problem=problem)

    return Section(name=NAME, title_key="web.section_registers", routes=[
        Route("/", overview), Route("/{kind}", browse), Route("/{kind}/import", upload, methods=["POST"]),
        Route("/{kind}/import/{import_id}/apply", apply, methods=["POST"]),
        Route("/{kind}/import/{import_id}/discard", discard, methods=["POST"]),
        Route("/{kind}/export", export),
    ])
