"""Keep people's words out of third-party libraries' debug logs."""

import logging


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
