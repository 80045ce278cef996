#!/usr/bin/env python3
"""A WHIP publisher (RFC 9725) this project did not write: GStreamer's webrtcbin (Debian's 1.22,
which has no whipsink) sending its moving test pattern in VP8, driven through GObject
introspection. The WHIP part is the few HTTP calls below.

    python3 gst-whip-publisher.py <whip-endpoint-url> <bearer-key> [max-seconds]

Prints `WHIP 201 <session url>` on stdout once the endpoint took the offer, then sends until
SIGTERM or SIGINT (or its standard input closes, or max-seconds pass), when it DELETEs the session
and exits 0. A refusal prints the endpoint's status and JSON error on stderr and exits 2; missing
GStreamer pieces exit 3; a pipeline error exits 4.
"""

import re
import signal
import sys
import urllib.error
import urllib.parse
import urllib.request

MISSING = 3


def fail(code, message):
    print(f"gst-whip-publisher: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstWebRTC", "1.0")
    gi.require_version("GstSdp", "1.0")
    from gi.repository import GLib, Gst, GstSdp, GstWebRTC
except (ImportError, ValueError) as error:
    fail(
        MISSING,
        f"GStreamer's Python bindings are missing ({error}): install python3-gi gir1.2-gstreamer-1.0 "
        "gir1.2-gst-plugins-base-1.0 gir1.2-gst-plugins-bad-1.0 (Debian) and run Debian's python3",
    )

PIPELINE = (
    "videotestsrc is-live=true pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 "
    "! vp8enc deadline=1 keyframe-max-dist=30 ! rtpvp8pay pt=96 "
    "! application/x-rtp,media=video,encoding-name=VP8,payload=96,clock-rate=90000 "
    "! webrtcbin name=send bundle-policy=max-bundle"
)
# The elements the pipeline needs, and the Debian package each comes in.
ELEMENTS = {
    "videotestsrc": "gstreamer1.0-plugins-base",
    "vp8enc": "gstreamer1.0-plugins-good",
    "rtpvp8pay": "gstreamer1.0-plugins-good",
    "webrtcbin": "gstreamer1.0-plugins-bad",
    "dtlssrtpenc": "gstreamer1.0-plugins-bad",
    "nicesrc": "gstreamer1.0-nice",
    "nicesink": "gstreamer1.0-nice",
}
GATHER_SECONDS = 3


class Publisher:
    def __init__(self, endpoint, key, max_seconds):
        self.endpoint = endpoint
        self.key = key
        self.location = None
        self.exit_code = 0
        self.offered = False
        self.posted = False
        self.loop = GLib.MainLoop()
        self.pipe = Gst.parse_launch(PIPELINE)
        self.webrtc = self.pipe.get_by_name("send")
        self.webrtc.set_property("stun-server", None)
        # The pipeline linked the payloader to a sink pad, which made a transceiver: it only sends.
        transceiver = self.webrtc.emit("get-transceiver", 0)
        transceiver.set_property("direction", GstWebRTC.WebRTCRTPTransceiverDirection.SENDONLY)
        self.webrtc.connect("on-negotiation-needed", self.on_negotiation_needed)
        self.webrtc.connect("notify::ice-gathering-state", self.on_gathering)
        self.webrtc.connect("notify::connection-state", self.on_state)
        bus = self.pipe.get_bus()
        bus.add_signal_watch()
        bus.connect("message::error", self.on_error)
        for number in (signal.SIGTERM, signal.SIGINT):
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, self.stop, signal.Signals(number).name)
        # The test that started it may die without a signal: its end of our standard input closes.
        GLib.io_add_watch(
            GLib.IOChannel.unix_new(sys.stdin.fileno()),
            GLib.PRIORITY_DEFAULT,
            GLib.IOCondition.HUP | GLib.IOCondition.IN | GLib.IOCondition.ERR,
            self.on_stdin,
        )
        if max_seconds > 0:
            GLib.timeout_add_seconds(max_seconds, self.stop, "max-seconds")

    def run(self):
        if self.pipe.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            fail(4, "the pipeline did not start")
        self.loop.run()
        self.pipe.set_state(Gst.State.NULL)
        return self.exit_code

    # Offer → WHIP POST → answer.

    def on_negotiation_needed(self, _webrtc):
        if self.offered:
            return
        self.offered = True
        promise = Gst.Promise.new_with_change_func(self.on_offer, None)
        self.webrtc.emit("create-offer", None, promise)

    def on_offer(self, promise, _data):
        promise.wait()
        reply = promise.get_reply()  # kept: the offer belongs to it
        offer = reply.get_value("offer")
        if offer is None:
            GLib.idle_add(self.quit, 4, f"webrtcbin made no offer: {reply.to_string()}")
            return
        self.webrtc.emit("set-local-description", offer, Gst.Promise.new())
        # The offer goes once gathering completes (the server, ICE lite, needs no candidate of ours:
        # it learns our address from our checks), or after a bound in any case.
        GLib.timeout_add_seconds(GATHER_SECONDS, self.post_offer)

    def on_gathering(self, webrtc, _spec):
        if webrtc.get_property("ice-gathering-state") == GstWebRTC.WebRTCICEGatheringState.COMPLETE:
            GLib.idle_add(self.post_offer)

    def post_offer(self):
        if self.posted or self.webrtc.get_property("local-description") is None:
            return False
        self.posted = True
        sdp = self.webrtc.get_property("local-description").sdp.as_text()
        for section in sdp.split("\r\nm=")[1:]:
            kind = section.split(" ", 1)[0]
            direction = re.search(r"^a=(sendonly|recvonly|sendrecv|inactive)\r?$", section, re.M)
            codecs = re.findall(r"^a=rtpmap:\d+ ([\w-]+)/", section, re.M)
            print(f"WHIP offer {kind} {direction and direction.group(1)} {' '.join(codecs)}", flush=True)
        request = urllib.request.Request(
            self.endpoint,
            data=sdp.encode(),
            method="POST",
            headers={"Content-Type": "application/sdp", "Authorization": f"Bearer {self.key}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as answer:
                status, body = answer.status, answer.read().decode()
                location = answer.headers.get("Location")
        except urllib.error.HTTPError as error:
            status, body, location = error.code, error.read().decode(errors="replace"), None
        except OSError as error:
            return self.quit(2, f"the WHIP endpoint did not answer: {error}")
        if status != 201 or not location:
            return self.quit(2, f"the WHIP endpoint refused the offer: {status} {body}\n--- offer ---\n{sdp}")
        self.location = urllib.parse.urljoin(self.endpoint, location)
        ok, message = GstSdp.SDPMessage.new_from_text(body)
        if ok != GstSdp.SDPResult.OK:
            return self.quit(2, f"the answer is not SDP:\n{body}")
        answer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.ANSWER, message)
        self.webrtc.emit("set-remote-description", answer, Gst.Promise.new())
        print(f"WHIP {status} {self.location}", flush=True)
        return False

    # State, errors and the end.

    def on_state(self, webrtc, _spec):
        state = webrtc.get_property("connection-state")
        print(f"gst-whip-publisher: connection {state.value_nick}", file=sys.stderr, flush=True)
        if state == GstWebRTC.WebRTCPeerConnectionState.FAILED:
            GLib.idle_add(self.quit, 4, "the media connection failed")

    def on_error(self, _bus, message):
        error, debug = message.parse_error()
        self.quit(4, f"pipeline error: {error.message} ({debug})")

    def on_stdin(self, channel, condition):
        if condition & (GLib.IOCondition.HUP | GLib.IOCondition.ERR) or not channel.read_line()[1]:
            self.stop("stdin closed")
            return False
        return True

    def stop(self, why):
        print(f"gst-whip-publisher: stopping ({why})", file=sys.stderr, flush=True)
        self.delete_session()
        self.loop.quit()
        return False

    def quit(self, code, message):
        print(f"gst-whip-publisher: {message}", file=sys.stderr, flush=True)
        self.exit_code = code
        self.delete_session()
        self.loop.quit()
        return False

    def delete_session(self):
        location, self.location = self.location, None
        if location is None:
            return
        request = urllib.request.Request(
            location, method="DELETE", headers={"Authorization": f"Bearer {self.key}"}
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                print(f"WHIP DELETE {answer.status}", flush=True)
        except urllib.error.HTTPError as error:
            print(f"WHIP DELETE {error.code}", flush=True)
        except OSError as error:
            print(f"gst-whip-publisher: DELETE failed: {error}", file=sys.stderr, flush=True)


def main():
    if len(sys.argv) < 3:
        fail(1, "usage: gst-whip-publisher.py <whip-endpoint-url> <bearer-key> [max-seconds]")
    Gst.init(None)
    missing = sorted({package for name, package in ELEMENTS.items() if Gst.ElementFactory.find(name) is None})
    if missing:
        fail(MISSING, f"GStreamer elements are missing: install {' '.join(missing)} (Debian)")
    max_seconds = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    return Publisher(sys.argv[1], sys.argv[2], max_seconds).run()


if __name__ == "__main__":
    sys.exit(main())
