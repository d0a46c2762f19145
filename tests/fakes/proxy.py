"""A loopback TCP proxy that can be cut and restored: Hindsight 'going down' mid-run, without stopping it."""

import asyncio
import contextlib


class SwitchableProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._server: asyncio.base_events.Server | None = None
        self.port = 0
        self._connections: set[asyncio.StreamWriter] = set()
        self.delay_s = 0.0
        """Hold each chunk sent upstream this long: a server that takes its time over every request."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, slow: bool = False) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while data := await reader.read(65536):
                if slow and self.delay_s:
                    await asyncio.sleep(self.delay_s)
                writer.write(data)
                await writer.drain()
        writer.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        self._connections.update({writer, upstream_writer})
        await asyncio.gather(self._pipe(reader, upstream_writer, slow=True), self._pipe(upstream_reader, writer))

    async def up(self) -> None:
        """Accept connections (on the same port after a cut)."""
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def down(self) -> None:
        """Refuse new connections and cut the open ones, as a stopped server would."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for writer in list(self._connections):
            writer.close()
        self._connections.clear()
