"""Keep people's words out of third-party libraries' debug logs, and control characters out of every log line."""

import json
import logging
import os
import re
import sys
from datetime import datetime, timezone


class _DropMessagesStartingWith(logging.Filter):
    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.prefix)


def drop_messages_starting_with(logger_name: str, prefix: str) -> None:
    """Drop every record of `logger_name` whose message starts with `prefix`; calling it again adds nothing."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(f, _DropMessagesStartingWith) and f.prefix == prefix for f in logger.filters):
        logger.addFilter(_DropMessagesStartingWith(prefix))


_UNSAFE_IN_LOGS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escape_for_log(value: str, keep_newlines: bool = False) -> str:
    """Show control characters as escapes (\\x1b, \\n), so a quoted value can neither drive the operator's
    terminal nor forge a log line."""
    def escaped(match: re.Match[str]) -> str:
        char = match.group()
        if keep_newlines and char == "\n":
            return char
        return char.encode("unicode_escape").decode("ascii")
    return _UNSAFE_IN_LOGS.sub(escaped, value)


class EscapingFormatter(logging.Formatter):
    """Escapes control characters in every message, whatever its arguments quote; a traceback keeps its lines.
    The traceback is formatted here each time: another handler may have cached an unescaped one on the record."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802  # logging's name
        return iso_time(record)

    def format(self, record: logging.LogRecord) -> str:
        record.message = escape_for_log(record.getMessage() + _event_text(record))
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        parts = [self.formatMessage(record)]
        if record.exc_info:
            parts.append(escape_for_log(self.formatException(record.exc_info), keep_newlines=True))
        elif record.exc_text:
            parts.append(escape_for_log(record.exc_text, keep_newlines=True))
        if record.stack_info:
            parts.append(escape_for_log(self.formatStack(record.stack_info), keep_newlines=True))
        return "\n".join(parts)


def iso_time(record: logging.LogRecord) -> str:
    """The record's time with its zone: 2026-12-04T18:09:00.123+00:00 (the host's zone)."""
    return datetime.fromtimestamp(record.created, tz=timezone.utc).astimezone().isoformat(timespec="milliseconds")


def _event_text(record: logging.LogRecord) -> str:
    event = getattr(record, "event", None)
    if not isinstance(event, dict):
        return ""
    return "".join(f" {key}={value}" for key, value in event.items())


class JsonFormatter(logging.Formatter):
    """One JSON object per line (SMRITI_LOG_FORMAT=json): time with zone, level, logger, message, the record's
    `event` fields, and the traceback as one string. JSON's own escaping keeps control characters out."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {"ts": iso_time(record), "level": record.levelname, "logger": record.name,
                                   "message": record.getMessage()}
        event = getattr(record, "event", None)
        if isinstance(event, dict):
            line.update(event)
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LIBRARIES = ("alembic", "apscheduler", "httpcore", "hpack", "telegram", "twilio", "urllib3", "uvicorn",
             "multipart", "openpyxl", "PIL", "faster_whisper", "hindsight_client")
"""Third-party loggers kept at WARNING unless SMRITI_LOG_LEVEL=DEBUG."""
MESSAGES_LOGGER = "smriti.messages"
"""One INFO line per message handled (bot.core.metrics): shown at the default level."""


def configure_logging(verbose: bool, env: dict[str, str] | None = None) -> None:
    """Log to stderr (the CLI and every transport it runs): text through the escaping formatter, or JSON with
    SMRITI_LOG_FORMAT=json; SMRITI_LOG_LEVEL sets the level (default WARNING, INFO with -v), and the one line
    per message handled shows unless the level is set above INFO."""
    source = os.environ if env is None else env
    handler = logging.StreamHandler()
    json_lines = source.get("SMRITI_LOG_FORMAT", "").strip().lower() == "json"
    handler.setFormatter(JsonFormatter() if json_lines else EscapingFormatter(LOG_FORMAT))
    named = source.get("SMRITI_LOG_LEVEL", "").strip().upper()
    level = logging.getLevelName(named) if named else (logging.INFO if verbose else logging.WARNING)
    if not isinstance(level, int):
        print(f"SMRITI_LOG_LEVEL={named} is not a level (DEBUG, INFO, WARNING, ERROR); using WARNING",
              file=sys.stderr)
        level, named = logging.WARNING, ""
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger(MESSAGES_LOGGER).setLevel(level if named else min(level, logging.INFO))
    for name in LIBRARIES:
        # At INFO the operator reads the bot's own lines (one per message), not each library's per-request or
        # per-run chatter (11 twilio.http_client lines per reply, alembic's plugins at every command); DEBUG
        # shows them all.
        logging.getLogger(name).setLevel(logging.NOTSET if level <= logging.DEBUG else max(level, logging.WARNING))
    # httpx logs each request's URL at INFO, and a Bot API URL holds the bot's token: never below WARNING.
    logging.getLogger("httpx").setLevel(max(level, logging.WARNING))
