"""The notes pack plus a few commands that exercise what transports must carry: long text, images, media facts."""

import asyncio
from pathlib import Path

from bot.core.messages import Media, Reply
from bot.core.pack import CommandInfo, Turn
from tests.core.notes_pack import NotesPack


class EchoPack(NotesPack):
    """`/long N` answers N numbered lines; `/picture` answers an image; `/wait` answers once the test opens
    the gate; media is described back."""

    def __init__(self, services: object, image: Path) -> None:
        super().__init__(services)  # type: ignore[arg-type]
        self.image = image
        self.media_seen: list[Media] = []
        self.gate = asyncio.Event()

    def commands(self) -> list[CommandInfo]:
        return [CommandInfo(command="find", description_key="commands.memory")]

    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        if command == "long":
            return [Reply(text="\n".join(f"line {i:04d} of a long answer" for i in range(int(args))))]
        if command == "wait":
            await self.gate.wait()
            return [Reply(text="done waiting")]
        if command == "picture":
            return [Reply(text=f"caption for {turn.user.name}", image=self.image)]
        return await super().on_command(turn, command, args)

    async def on_media(self, turn: Turn, media: Media) -> list[Reply]:
        self.media_seen.append(media)
        return [Reply(text=f"got {media.kind} {media.size_bytes} {media.mime_type} caption={turn.incoming.text}")]
