"""Keep people's words out of third-party libraries' debug logs, and control characters out of every log line."""

import logging
import re


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

    def format(self, record: logging.LogRecord) -> str:
        record.message = escape_for_log(record.getMessage())
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


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(verbose: bool) -> None:
    """Log to stderr through the escaping formatter (the CLI and every transport it runs)."""
    handler = logging.StreamHandler()
    handler.setFormatter(EscapingFormatter(LOG_FORMAT))
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, handlers=[handler])
    # httpx logs each request's URL at INFO, and a Bot API URL holds the bot's token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
