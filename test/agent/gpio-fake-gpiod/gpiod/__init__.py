"""Stand-in for python3-libgpiod 2.x (the device library's last call), for tests on machines
without GPIO. It mirrors the calls the helper makes (request_lines, LineSettings, set_values,
get_value, fd, read_edge_events, release, is_gpiochip_device, api_version) and, instead of the
character device, records every request and every value it would write to $GPIOD_FAKE_LOG, one
JSON object a line, with the physical level the kernel would drive (the logical value through the
line's active-low setting). Inputs: the test writes "<offset> <physical level>" lines into the
FIFO $GPIOD_FAKE_EVENTS; each change of level becomes an edge event, as the kernel reports it.

Environment: GPIOD_FAKE_CHIPS (comma-separated chip paths that exist), GPIOD_FAKE_VERSION
(default 2.1.3; "1.x" looks like the v1 bindings), GPIOD_FAKE_INPUTS (JSON offset -> level),
GPIOD_FAKE_BUSY (comma-separated offsets another consumer holds).
"""

import errno
import json
import os
import time
from dataclasses import dataclass
from datetime import timedelta

from . import line
from .line import Bias, Clock, Direction, Drive, Edge, Value

_VERSION = os.environ.get("GPIOD_FAKE_VERSION", "2.1.3")
__version__ = "2.0.1"

if _VERSION.startswith("1."):
    # libgpiod v1's bindings have neither api_version nor request_lines.
    def version_string():
        return _VERSION

else:
    api_version = _VERSION


def _record(entry):
    entry["t_ns"] = time.monotonic_ns()
    entry["pid"] = os.getpid()
    fd = os.open(os.environ["GPIOD_FAKE_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (json.dumps(entry) + "\n").encode())
    finally:
        os.close(fd)


def _offset(line_id):
    if isinstance(line_id, int):
        return line_id
    if isinstance(line_id, str) and line_id.startswith("GPIO") and line_id[4:].isdigit():
        return int(line_id[4:])
    raise ValueError("line not found: %r" % (line_id,))


def is_gpiochip_device(path):
    return path in os.environ.get("GPIOD_FAKE_CHIPS", "").split(",")


@dataclass
class LineSettings:
    direction: Direction = Direction.AS_IS
    edge_detection: Edge = Edge.NONE
    bias: Bias = Bias.AS_IS
    drive: Drive = Drive.PUSH_PULL
    active_low: bool = False
    debounce_period: timedelta = timedelta()
    event_clock: Clock = Clock.MONOTONIC
    output_value: Value = Value.INACTIVE


@dataclass(frozen=True)
class EdgeEvent:
    class Type:
        RISING_EDGE = "rising"
        FALLING_EDGE = "falling"

    event_type: str
    timestamp_ns: int
    line_offset: int
    global_seqno: int
    line_seqno: int


class LineRequest:
    def __init__(self, chip, settings):
        self.chip = chip
        self.settings = settings
        self.levels = {}
        initial = json.loads(os.environ.get("GPIOD_FAKE_INPUTS", "{}"))
        for offset, s in settings.items():
            if s.direction == Direction.INPUT:
                self.levels[offset] = int(initial.get(str(offset), 0))
        self.seqno = 0
        self._fd = None
        self.released = False
        events = os.environ.get("GPIOD_FAKE_EVENTS")
        if events and self.levels:
            self._fd = os.open(events, os.O_RDONLY | os.O_NONBLOCK)
            # Held open so that the FIFO never reads as closed between the test's writes.
            self._keep = os.open(events, os.O_WRONLY | os.O_NONBLOCK)
        self._pending = b""

    def _physical(self, offset, value):
        return int((value == Value.ACTIVE) != self.settings[offset].active_low)

    def _check(self):
        if self.released:
            raise RuntimeError("request released")

    def set_values(self, values):
        self._check()
        offsets = {_offset(k): v for k, v in values.items()}
        for offset in offsets:
            if self.settings[offset].direction != Direction.OUTPUT:
                raise ValueError("line %d is not an output" % offset)
        _record(
            {
                "call": "set_values",
                "chip": self.chip,
                "values": {str(o): {"value": v.value, "level": self._physical(o, v)} for o, v in offsets.items()},
            }
        )

    def set_value(self, line_id, value):
        self.set_values({line_id: value})

    def get_value(self, line_id):
        self._check()
        offset = _offset(line_id)
        logical = self.levels[offset] != int(self.settings[offset].active_low)
        return Value.ACTIVE if logical else Value.INACTIVE

    @property
    def fd(self):
        if self._fd is None:
            raise RuntimeError("no edge detection requested")
        return self._fd

    def read_edge_events(self, max_events=None):
        self._check()
        try:
            self._pending += os.read(self._fd, 4096)
        except BlockingIOError:
            pass
        events = []
        while b"\n" in self._pending:
            raw, self._pending = self._pending.split(b"\n", 1)
            offset, level = (int(x) for x in raw.split())
            if offset not in self.levels or self.levels[offset] == level:
                continue
            self.levels[offset] = level
            logical_rising = (level == 1) != self.settings[offset].active_low
            self.seqno += 1
            kind = EdgeEvent.Type.RISING_EDGE if logical_rising else EdgeEvent.Type.FALLING_EDGE
            events.append(EdgeEvent(kind, time.monotonic_ns(), offset, self.seqno, self.seqno))
        return events

    def release(self):
        if not self.released:
            self.released = True
            _record({"call": "release", "chip": self.chip})


def request_lines(path, config, consumer=None, event_buffer_size=None, output_values=None):
    if not is_gpiochip_device(path):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory")
    settings = {_offset(k): (v or LineSettings()) for k, v in config.items()}
    busy = [int(x) for x in os.environ.get("GPIOD_FAKE_BUSY", "").split(",") if x]
    if any(o in busy for o in settings):
        raise OSError(errno.EBUSY, "Device or resource busy")
    request = LineRequest(path, settings)
    _record(
        {
            "call": "request",
            "chip": path,
            "consumer": consumer,
            "lines": {
                str(o): {
                    "direction": s.direction.name.lower(),
                    "active_low": s.active_low,
                    "bias": s.bias.name.lower(),
                    "edge": s.edge_detection.name.lower(),
                    "debounce_ms": s.debounce_period / timedelta(milliseconds=1),
                    "value": s.output_value.value if s.direction == Direction.OUTPUT else None,
                    "level": request._physical(o, s.output_value) if s.direction == Direction.OUTPUT else None,
                }
                for o, s in settings.items()
            },
        }
    )
    return request
