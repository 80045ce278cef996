#!/usr/bin/python3
"""onkure GPIO helper: holds a station agent's GPIO lines through libgpiod v2 (python3-libgpiod).

Why a separate process: the agent (Node) cannot call the GPIO character device itself (no ioctl),
and a line released by its holder keeps an undefined value (on many chips its last one), so the
agent's death must not be the end of whoever holds the lines. This helper is small, holds every
line in one request per chip for as long as it lives, and drives every output INACTIVE when:
  - its stdin reaches EOF (the agent died, however: even SIGKILL closes the pipe's write end),
  - it gets SIGTERM, SIGINT or SIGHUP (PR_SET_PDEATHSIG sends SIGTERM when the agent dies),
  - it is told `off` or `exit`, or anything in it fails.
Only then does it exit. Outputs start INACTIVE (requested with that value), so a new helper also
clears whatever an old one left.

Protocol: one JSON object per line. argv[1] is the configuration, argv[2] the agent's pid.
  in:  {"id": n, "set": {"<line id>": 0|1, ...}}   set outputs at once (one ioctl per chip)
       {"id": n, "pulse": "<line id>", "ms": k}      active now, inactive after k ms
       {"id": n, "off": true}                       every output inactive, pulses cancelled
       {"id": n, "exit": true}                      off, then exit 0
  out: {"ready": true, "api": "2.x.y", "inputs": {"<id>": true|false}}   true: active
       {"ack": n} or {"ack": n, "error": "..."};  {"pulse_end": "<id>"}
       {"edge": "<id>", "active": true|false};   {"fatal": "..."} (then exit 2)
Values are logical: the kernel applies each line's active-low setting.
"""

import json
import os
import select
import signal
import sys
import time
from datetime import timedelta


def emit(message):
    try:
        os.write(1, (json.dumps(message) + "\n").encode())
    except OSError:
        pass  # the agent is gone: its pipe is closed; the shutdown path still runs


def fatal(text):
    emit({"fatal": text})
    sys.exit(2)


class Stop(Exception):
    """Raised by a signal handler to leave the loop through the shutdown path."""


def on_signal(signum, _frame):
    raise Stop(signal.Signals(signum).name)


def die_with_parent(parent_pid):
    # PR_SET_PDEATHSIG (1): SIGTERM when the agent's process ends. It survives exec, and it is
    # set before anything is requested; the getppid check closes the race of an agent that died
    # before the call.
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        pass  # stdin EOF still ends the helper when the agent dies
    if parent_pid and os.getppid() != parent_pid:
        fatal("the agent ended before the helper started")


def load_gpiod():
    try:
        import gpiod
    except ImportError:
        fatal(
            "python3-libgpiod is not installed for %s (install it from Debian: "
            "apt-get install -t bookworm-backports python3-libgpiod)" % sys.executable
        )
    api = getattr(gpiod, "api_version", None)
    if not isinstance(api, str) or not hasattr(gpiod, "request_lines"):
        found = getattr(gpiod, "version_string", lambda: "unknown")()
        fatal("libgpiod v2 bindings are needed, found libgpiod %s (v1 API); install python3-libgpiod 2.x" % found)
    if int(api.split(".")[0]) < 2:
        fatal("libgpiod v2 is needed, found %s" % api)
    return gpiod


class Lines:
    """Every requested line: outputs by id (chip request, offset), inputs by the request's fd."""

    def __init__(self, gpiod, config):
        from gpiod.line import Bias, Direction, Edge, Value

        self.Value = Value
        self.requests = []
        self.outputs = {}  # id -> (request, line)
        self.inputs = {}  # id -> (request, line)
        self.by_fd = {}  # fd -> (request, {line: id})
        self.active = set()
        self.interlock = [tuple(pair) for pair in config.get("interlock", [])]
        biases = {"as_is": Bias.AS_IS, "pull_up": Bias.PULL_UP, "pull_down": Bias.PULL_DOWN, "disabled": Bias.DISABLED}
        for chip in config["chips"]:
            if not gpiod.is_gpiochip_device(chip["path"]):
                raise RuntimeError("%s is not a GPIO chip device (check the machine file's chip)" % chip["path"])
            settings = {}
            for out in chip["outputs"]:
                settings[out["line"]] = gpiod.LineSettings(
                    direction=Direction.OUTPUT, active_low=out["active_low"], output_value=Value.INACTIVE
                )
            for inp in chip["inputs"]:
                settings[inp["line"]] = gpiod.LineSettings(
                    direction=Direction.INPUT,
                    edge_detection=Edge.BOTH,
                    active_low=inp["active_low"],
                    bias=biases[inp.get("bias", "as_is")],
                    debounce_period=timedelta(milliseconds=inp["debounce_ms"]),
                )
            request = gpiod.request_lines(chip["path"], consumer=config.get("consumer", "onkure"), config=settings)
            self.requests.append(request)
            for out in chip["outputs"]:
                self.outputs[out["id"]] = (request, out["line"])
            watched = {}
            for inp in chip["inputs"]:
                self.inputs[inp["id"]] = (request, inp["line"])
                watched[inp["line"]] = inp["id"]
            if watched:
                self.by_fd[request.fd] = (request, watched)

    def input_levels(self):
        return {i: req.get_value(line) == self.Value.ACTIVE for i, (req, line) in self.inputs.items()}

    def set(self, values):
        for line_id in values:
            if line_id not in self.outputs:
                raise ValueError("unknown output %s" % line_id)
        after = set(self.active)
        for line_id, value in values.items():
            (after.add if value else after.discard)(line_id)
        for a, b in self.interlock:
            if a in after and b in after:
                raise ValueError("interlock: %s and %s are never active together" % (a, b))
        self._write(values)
        self.active = after

    def off(self):
        self._write({line_id: 0 for line_id in self.outputs})
        self.active = set()

    def _write(self, values):
        per_request = {}
        for line_id, value in values.items():
            request, line = self.outputs[line_id]
            per_request.setdefault(id(request), (request, {}))[1][line] = (
                self.Value.ACTIVE if value else self.Value.INACTIVE
            )
        for request, request_values in per_request.values():
            request.set_values(request_values)

    def edges(self, fd):
        request, watched = self.by_fd[fd]
        for event in request.read_edge_events():
            line_id = watched.get(event.line_offset)
            if line_id is not None:
                yield line_id, event.event_type == event.Type.RISING_EDGE

    def release(self):
        for request in self.requests:
            try:
                request.release()
            except Exception:  # noqa: BLE001 - nothing more can be done on the way out
                pass


def handle(lines, pulses, command):
    if "set" in command:
        lines.set({k: int(v) for k, v in command["set"].items()})
        for line_id, value in command["set"].items():
            if not value:
                pulses.pop(line_id, None)
    elif "pulse" in command:
        line_id = command["pulse"]
        lines.set({line_id: 1})
        pulses[line_id] = time.monotonic() + command["ms"] / 1000.0
    elif "off" in command or "exit" in command:
        pulses.clear()
        lines.off()
        if "exit" in command:
            emit({"ack": command.get("id")})
            raise Stop("exit")
    else:
        raise ValueError("unknown command")


def end_pulses(lines, pulses):
    now = time.monotonic()
    for line_id in [i for i, at in pulses.items() if at <= now]:
        del pulses[line_id]
        lines.set({line_id: 0})
        emit({"pulse_end": line_id})


def serve(lines):
    pulses = {}
    pending = b""
    while True:
        timeout = max(0.0, min(pulses.values()) - time.monotonic()) if pulses else None
        readable, _, _ = select.select([0] + list(lines.by_fd), [], [], timeout)
        end_pulses(lines, pulses)
        for fd in readable:
            if fd != 0:
                for line_id, active in lines.edges(fd):
                    emit({"edge": line_id, "active": active})
                continue
            chunk = os.read(0, 65536)
            if not chunk:
                raise Stop("stdin closed")
            pending += chunk
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                if not raw.strip():
                    continue
                command = {}
                try:
                    command = json.loads(raw)
                    handle(lines, pulses, command)
                    emit({"ack": command.get("id")})
                except (ValueError, KeyError, OSError) as error:
                    emit({"ack": command.get("id"), "error": str(error)})


def main():
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, on_signal)
    config = json.loads(sys.argv[1])
    die_with_parent(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    gpiod = load_gpiod()
    try:
        lines = Lines(gpiod, config)
    except Stop:
        sys.exit(0)
    except Exception as error:  # noqa: BLE001 - any failure to request the lines is fatal
        fatal("cannot request the GPIO lines: %s" % error)
    try:
        emit({"ready": True, "api": gpiod.api_version, "inputs": lines.input_levels()})
        serve(lines)
    except Stop:
        pass
    finally:
        # Whatever ended the loop, every output is driven inactive before the lines are let go;
        # a second signal must not interrupt that.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
        try:
            lines.off()
        finally:
            lines.release()


if __name__ == "__main__":
    main()
