"""LOG_FORMAT=json: each record as one JSON object on one line, for log collectors."""

import json
import logging
from datetime import UTC, datetime

# LogRecord's own attributes: anything else on a record came from `extra=` and is kept.
STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message",
                                                                            "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(),
                 "level": record.levelname, "logger": record.name,
                 "request_id": getattr(record, "request_id", "-"),
                 "message": record.getMessage()}
        entry.update((k, v) for k, v in vars(record).items()
                     if k not in STANDARD and k not in entry)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
