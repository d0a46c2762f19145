"""What `smriti people ...` does once parsed (bot.cli.people): loaded only when such a command runs."""

import argparse
import csv
import sys
import zipfile
from datetime import datetime, timezone
from pathlib import Path

from pydantic import ValidationError

from bot.services.i18n import text
from bot.services.registers.designations import parse_designations
from bot.services.registers.reasons import clerk_reason
from bot.store.invites import InviteRequest, InviteStore, pack_for, telegram_link, whatsapp_link
from bot.store.people import (ChannelTaken, OtherTenantsId, add_person, import_people_file, load_people,
                              remove_person)
from bot.store.people_table import import_people_table, territory_slugs
from bot.core.registry import User
from bot.settings import Settings
from bot.store import Database


def run(args: argparse.Namespace, database: Database, settings: Settings) -> int:
    """Carry out one people command; print what changed, or why nothing did."""
    lang = args.ui_lang
    try:
        if args.action == "list":
            return _list(lang, database, args.tenant)
        if args.action == "remove":
            if not remove_person(database, args.tenant, args.user):
                print(text(lang, "people.unknown", user=args.user, tenant=args.tenant), file=sys.stderr)
                return 2
            print(text(lang, "people.removed", user=args.user, tenant=args.tenant))
            return 0
        if args.action == "revoke":
            revoked = InviteStore(database).revoke(args.tenant, args.ref)
            if revoked is None:
                print(text(lang, "people.revoke_unknown", ref=args.ref, tenant=args.tenant), file=sys.stderr)
                return 2
            print(text(lang, "people.revoked", ref=revoked.ref, role=revoked.role, tenant=args.tenant))
            return 0
        if args.action == "import":
            return _import(lang, database, args.file.expanduser(), args.tenant,
                           parse_designations(getattr(args, "designation", []) or []))
        pack = pack_for(args.role, args.pack)
        if pack is None:
            print(text(lang, "people.pack_needed", role=args.role), file=sys.stderr)
            return 2
        if args.action == "add":
            return _add(lang, database, args, pack)
        return _invite(lang, database, settings, args, pack)
    except ValidationError as exc:
        first = exc.errors()[0]
        print(text(lang, "people.invalid", field=".".join(str(p) for p in first["loc"]), reason=clerk_reason(exc)),
              file=sys.stderr)
        return 2
    except (OSError, ValueError, UnicodeDecodeError, zipfile.BadZipFile, csv.Error) as exc:
        print(text(lang, "people.failed", reason=str(exc)), file=sys.stderr)
        return 2


def _import(lang: str, database: Database, path: Path, tenant: str, designations: dict[str, str]) -> int:
    if path.suffix.lower() == ".json":
        print(text(lang, "people.imported", count=import_people_file(database, path, tenant), tenant=tenant))
        return 0
    try:
        report = import_people_table(database, path, tenant, load_people(database), designations)
    except ChannelTaken:
        print(text(lang, "people.channel_taken"), file=sys.stderr)
        return 2
    print(text(lang, "people.imported", count=len(report.written), tenant=tenant))
    for rejected in report.rejected:
        print(text(lang, "people.rejected_row", row=rejected.row, reason=rejected.reason))
    if report.ignored_columns:
        print(text(lang, "people.ignored_columns", columns=", ".join(report.ignored_columns)))
    return 0


def _add(lang: str, database: Database, args: argparse.Namespace, pack: str) -> int:
    # Changing a person (same id, same tenant) keeps what the command does not name: their channels, language,
    # officer id and villages. A role change once dropped their WhatsApp number, and they became a stranger.
    known = load_people(database, args.tenant, [args.user])
    before = known[0] if known else None
    territories = (territory_slugs(args.territories) if args.territories is not None
                   else (before.territories if before else []))
    user = User(user_id=args.user, name=args.name, role=args.role, pack=pack, tenant=args.tenant,  # type: ignore[arg-type]
                lang=args.language or (before.lang if before else "en"),
                officer_id=args.officer_id or (before.officer_id if before else None), territories=territories,
                telegram_ids=args.telegram or (before.telegram_ids if before else []),
                whatsapp_numbers=args.whatsapp or (before.whatsapp_numbers if before else []))
    try:
        add_person(database, user)
    except OtherTenantsId:
        print(text(lang, "people.other_tenant", user=args.user), file=sys.stderr)
        return 2
    except ChannelTaken:
        print(text(lang, "people.channel_taken"), file=sys.stderr)
        return 2
    print(text(lang, "people.added", user=user.user_id, name=user.name, role=user.role, pack=user.pack,
               tenant=user.tenant))
    return 0


def _list(lang: str, database: Database, tenant: str) -> int:
    people = [u for u in load_people(database) if u.tenant == tenant]
    print(text(lang, "people.list_header", tenant=tenant, count=len(people)))
    for user in people:
        channels = [f"telegram {t}" for t in user.telegram_ids] + [f"whatsapp {n}" for n in user.whatsapp_numbers]
        print(text(lang, "people.list_line", user=user.user_id, name=user.name, role=user.role, pack=user.pack,
                   channels=", ".join(channels) or "-", territories=", ".join(user.territories) or "-"))
    invites = InviteStore(database).invites(tenant)
    if invites:
        print(text(lang, "people.invites_header"))
    now = datetime.now(timezone.utc)
    for invite in invites:
        shown = invite.state(now)
        state = (text(lang, "people.invite_used", person=invite.person_id) if shown == "used"
                 else text(lang, f"people.invite_{shown}", until=f"{invite.expires_at:%Y-%m-%d %H:%M} UTC"))
        print(text(lang, "people.invite_line", ref=invite.ref, role=invite.role, pack=invite.pack,
                   name=invite.name or "-", state=state))
    return 0


def _invite(lang: str, database: Database, settings: Settings, args: argparse.Namespace, pack: str) -> int:
    request = InviteRequest(tenant=args.tenant, role=args.role, pack=pack, name=args.name,  # type: ignore[arg-type]
                            lang=args.language or "en", officer_id=args.officer_id,
                            territories=territory_slugs(args.territories or ""), hours=args.hours)
    issued = InviteStore(database).create(request, created_by="cli")
    code = issued.code
    print(text(lang, "people.invite_made", role=request.role, pack=request.pack, tenant=request.tenant,
               until=f"{issued.invite.expires_at:%Y-%m-%d %H:%M} UTC", code=code))
    username = args.bot_username or settings.telegram_bot_username
    if username:
        print(text(lang, "people.invite_telegram", link=telegram_link(username, code)))
    else:
        print(text(lang, "people.invite_telegram_start", code=code))
    if settings.twilio_whatsapp_from:
        print(text(lang, "people.invite_whatsapp_link", link=whatsapp_link(settings.twilio_whatsapp_from, code),
                   code=code))
    else:
        print(text(lang, "people.invite_whatsapp", code=code))
    return 0
