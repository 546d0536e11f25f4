"""A Server-Sent Events client on plain asyncio sockets, reading a stream as a browser's
EventSource does (HTTP/1.1, chunked), and noting when each message arrived: for the integration
tests of the live streams and bench/stream.py, which holds a thousand of them in one loop."""

import asyncio
import json
import time
from dataclasses import dataclass


@dataclass
class Message:
    id: int | None
    event: str
    data: object
    at: float  # time.monotonic() when it arrived


def parse(block: str, at: float) -> Message | None:
    """One SSE message (None for a comment such as a heartbeat)."""
    fields = dict(line.split(": ", 1) for line in block.splitlines()
                  if line and not line.startswith(":"))
    if not fields:
        return None
    return Message(int(fields["id"]) if "id" in fields else None, fields["event"],
                   json.loads(fields["data"]), at)


class EventStream:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, status: int,
                 headers: dict[str, str]):
        self.reader, self.writer = reader, writer
        self.status, self.headers = status, headers
        self.chunked = headers.get("transfer-encoding") == "chunked"
        self.buffer = ""

    @classmethod
    async def open(cls, port: int, path: str, headers: dict[str, str] | None = None,
                   host: str = "127.0.0.1") -> "EventStream":
        reader, writer = await asyncio.open_connection(host, port)
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream",
                 *(f"{k}: {v}" for k, v in (headers or {}).items())]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = int((await reader.readline()).split()[1])
        found = {}
        while (line := (await reader.readline()).decode().strip()):
            name, value = line.split(":", 1)
            found[name.lower()] = value.strip()
        return cls(reader, writer, status, found)

    async def _read(self) -> str | None:
        """The next piece of the body; None at its end."""
        if not self.chunked:
            data = await self.reader.read(65536)
            return data.decode() if data else None
        size = int((await self.reader.readline()).strip() or b"0", 16)
        if size == 0:
            return None
        data = await self.reader.readexactly(size + 2)
        return data[:-2].decode()

    async def next(self, timeout: float = 30) -> Message | None:
        """The next message (heartbeats skipped); None when the server ended the stream."""
        async with asyncio.timeout(timeout):
            while True:
                while "\n\n" in self.buffer:
                    block, self.buffer = self.buffer.split("\n\n", 1)
                    message = parse(block, time.monotonic())
                    if message is not None:
                        return message
                piece = await self._read()
                if piece is None:
                    return None
                self.buffer += piece

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:
            pass
