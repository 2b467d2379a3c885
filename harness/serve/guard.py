"""The service's door: every connection counted by its address before uvicorn sees it (beyond a
few at once from one address it is reset at once), and a connection that owes the service a
request head closed when the head is late. uvicorn alone keeps a connection that sends nothing,
or half a head, open for ever, and answers 503 to everyone once 1,000 are open: one anonymous
client holding them would shut every student out.

A request head is owed from the moment the connection is made, and again from the moment each
answer is sent: whatever arrives then (half a head, the rest of a body the answer did not need)
must complete a request head within `head_seconds`, or the connection is closed. A body the
service reads (an upload) has its own deadlines, in `app` (408)."""
import asyncio
import logging
import socket
import struct
from dataclasses import dataclass

log = logging.getLogger("uvicorn.error")

PER_ADDRESS = 50  # connections one address may hold at once: a lab behind one NAT, each browser a few
HEAD_SECONDS = 10.0  # a request line and headers fit in one packet: a client has this long to send them


@dataclass(frozen=True)
class Limits:
    per_address: int = PER_ADDRESS
    head_seconds: float = HEAD_SECONDS
    exempt: frozenset[str] = frozenset()  # addresses not capped: the proxy in front, through which every student comes


class Door:
    """The connections open now, by address; a refusal is logged once while its address stays at the cap."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.open: dict[str, int] = {}
        self.refusing: set[str] = set()

    def admit(self, address: str) -> bool:
        held = self.open.get(address, 0)
        if held >= self.limits.per_address and address not in self.limits.exempt:
            if address not in self.refusing:
                self.refusing.add(address)
                log.warning("%s holds %d connections: more from it are refused until they end", address, held)
            return False
        self.open[address] = held + 1
        return True

    def leave(self, address: str) -> None:
        held = self.open.pop(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.refusing.discard(address)


def _reset(transport: asyncio.BaseTransport) -> None:
    """Refused now: a reset (no FIN handshake to wait for), no uvicorn state, no timer, no slot of
    the service's 1,000."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


def guarded(base: type, limits: Limits) -> type:
    """`base` (uvicorn's HTTP protocol class: H11Protocol or HttpToolsProtocol, which keep the
    request being answered in `cycle`) with the door in front and the head deadline; give it to
    `uvicorn.Config(http=...)`, with `ws="none"` (an upgraded connection would leave the count)."""
    door = Door(limits)

    class Guarded(base):  # type: ignore[valid-type, misc]
        _address: str | None = None  # set once admitted
        _late: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if not door.admit(address):
                _reset(transport)
                return
            self._address = address
            super().connection_made(transport)
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._address is None:  # refused at the door
                return
            self._stop_clock()
            door.leave(self._address)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def _watch(self) -> None:
            """The clock runs while a request head is owed (none received, or the last one answered)."""
            owed = self.cycle is None or self.cycle.response_complete
            if not owed:
                self._stop_clock()
            elif self._late is None and not self.transport.is_closing():
                self._late = self.loop.call_later(limits.head_seconds, self._head_late)

        def _stop_clock(self) -> None:
            if self._late is not None:
                self._late.cancel()
                self._late = None

        def _head_late(self) -> None:
            self._late = None
            if not self.transport.is_closing():
                self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded
