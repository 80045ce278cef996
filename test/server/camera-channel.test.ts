import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { CameraChannel, SILENT_MS, type CameraSource, type CameraViewer } from '../../server/live/camera-channel';
import { readVp8Descriptor, startsKeyframe } from '../../server/live/vp8-payload';
import { ManualServerClock } from '../support/manual-server-clock';

/**
 * The camera channel between a publisher and the viewers, on a manual clock: what it forwards to
 * whom, how it numbers the packets, when it goes dark [R11-4].
 */

/** A VP8 packet as a publisher sends it: a 7-bit picture id (Chromium sends 15-bit, OBS 7-bit). */
function vp8(ssrc: number, seq: number, timestamp: number, options: { key?: boolean; start?: boolean; pid?: number }) {
  const start = options.start ?? true;
  const descriptor = Buffer.from([0x80 | (start ? 0x10 : 0), 0x80, (options.pid ?? 5) & 0x7f]);
  const data = Buffer.from([start ? (options.key ? 0x00 : 0x01) : 0xaa, 1, 2, 3]);
  return new RtpPacket(
    new RtpHeader({ payloadType: 100, sequenceNumber: seq, timestamp, ssrc, marker: true }),
    Buffer.concat([descriptor, data]),
  );
}

function recordingViewer() {
  const got: RtpPacket[] = [];
  const live: boolean[] = [];
  const viewer: CameraViewer = {
    write: (rtp: Buffer) => got.push(RtpPacket.deSerialize(rtp)),
    onLive: (on) => live.push(on),
    onFailed: () => undefined,
  };
  return { viewer, got, live };
}

function source(): CameraSource & { asked: number } {
  const made = {
    kind: 'whip' as const,
    codec: 'VP8',
    asked: 0,
    requestKeyframe() {
      made.asked += 1;
    },
  };
  return made;
}

const pictureId = (packet: RtpPacket) => {
  const d = readVp8Descriptor(packet.payload)!;
  return d.pictureId;
};

describe('a camera channel', () => {
  it('[R11-4] a joining viewer gets packets from the next keyframe on (asking the publisher for one), every viewer the same packets, written once', () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'front', clock, () => undefined);
    const publisher = source();
    channel.attach(publisher);
    const a = recordingViewer();
    void channel.join(a.viewer);
    expect(publisher.asked).toBe(1);
    channel.push(publisher, vp8(7, 100, 9000, { key: false }));
    expect(a.got).toHaveLength(0); // a delta frame before any keyframe: nothing a decoder could use
    channel.push(publisher, vp8(7, 101, 12000, { key: true }));
    channel.push(publisher, vp8(7, 102, 15000, { key: false }));
    expect(a.got).toHaveLength(2);
    expect(startsKeyframe(a.got[0]!.payload, readVp8Descriptor(a.got[0]!.payload)!)).toBe(true);
    const b = recordingViewer();
    clock.advance(600);
    void channel.join(b.viewer);
    expect(publisher.asked).toBe(2); // asked again for the new viewer (not more often than every 500 ms)
    channel.push(publisher, vp8(7, 103, 18000, { key: false }));
    channel.push(publisher, vp8(7, 104, 21000, { key: true }));
    expect(a.got).toHaveLength(4);
    expect(b.got).toHaveLength(1);
    expect(b.got[0]!.serialize()).toEqual(a.got[3]!.serialize());
    expect(channel.packets).toBe(4);
  });

  it('[R11-4] a viewer whose media connects after its first keyframe starts again at the next one, asked for at once or when the 500 ms interval ends; asked again every second while it waits (a browser ignores a request within 300 ms of its last keyframe)', () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'front', clock, () => undefined);
    const publisher = source();
    channel.attach(publisher);
    const v = recordingViewer();
    void channel.join(v.viewer);
    channel.push(publisher, vp8(7, 1, 1000, { key: true })); // written before its DTLS was up: lost
    channel.push(publisher, vp8(7, 2, 4000, {}));
    expect(v.got).toHaveLength(2);
    const asked = publisher.asked;
    channel.resync(v.viewer); // its media connected now
    expect(publisher.asked).toBe(asked); // the join's request was under 500 ms ago…
    clock.advance(500);
    expect(publisher.asked).toBe(asked + 1); // …so it is asked when the interval ends, not dropped
    // The publisher ignored it: asked again a second later, and every second while the viewer waits.
    clock.advance(600);
    channel.push(publisher, vp8(7, 2, 5000, {})); // the publisher sends on: the camera is live
    clock.advance(400);
    expect(publisher.asked).toBe(asked + 2);
    channel.push(publisher, vp8(7, 3, 7000, {}));
    expect(v.got).toHaveLength(2); // a delta: waits
    channel.push(publisher, vp8(7, 4, 10000, { key: true }));
    expect(v.got).toHaveLength(3);
    // Synced: no more asking.
    const now = publisher.asked;
    channel.push(publisher, vp8(7, 5, 13000, {}));
    clock.advance(3000);
    expect(publisher.asked).toBe(now);
  });

  it('numbers its output on: one SSRC, sequence numbers and 15-bit picture ids that run on across a change of publisher', () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'front', clock, () => undefined);
    const first = source();
    const v = recordingViewer();
    void channel.join(v.viewer);
    channel.attach(first);
    channel.push(first, vp8(7, 65534, 1000, { key: true, pid: 126 }));
    channel.push(first, vp8(7, 65535, 4000, { pid: 127 }));
    channel.push(first, vp8(7, 0, 7000, { pid: 0 }));
    clock.advance(100);
    const second = source();
    channel.attach(second);
    channel.push(first, vp8(7, 1, 10000, { pid: 1 })); // the replaced publisher's late packet
    channel.push(second, vp8(99, 5000, 555, { pid: 40 })); // not a keyframe: waits
    channel.push(second, vp8(99, 5001, 3555, { key: true, pid: 41 }));
    channel.push(second, vp8(99, 5002, 6555, { pid: 42 }));
    expect(v.got).toHaveLength(5);
    expect(new Set(v.got.map((p) => p.header.ssrc)).size).toBe(1);
    const seqs = v.got.map((p) => p.header.sequenceNumber);
    for (let i = 1; i < seqs.length; i += 1) expect(seqs[i]).toBe((seqs[i - 1]! + 1) & 0xffff);
    const ids = v.got.map(pictureId);
    for (let i = 1; i < ids.length; i += 1) expect(ids[i]).toBe((ids[i - 1]! + 1) & 0x7fff);
    // Each id is written in 15 bits (the M bit set), whatever the publisher wrote.
    for (const packet of v.got) expect(packet.payload[2]! & 0x80).toBe(0x80);
    // Time runs on: the new publisher's first frame comes after the old one's last.
    const ts = v.got.map((p) => p.header.timestamp);
    expect((ts[3]! - ts[2]!) >>> 0).toBe(100 * 90);
    expect((ts[4]! - ts[3]!) >>> 0).toBe(3000);
  });

  it('[R11-4] goes dark when its publisher sends nothing for a second or leaves, and live again (from a keyframe) when packets come', () => {
    const clock = new ManualServerClock();
    const channel = new CameraChannel(1, 'side', clock, () => undefined);
    const publisher = source();
    const v = recordingViewer();
    void channel.join(v.viewer);
    channel.attach(publisher);
    expect(v.live).toEqual([true]);
    channel.push(publisher, vp8(7, 1, 1000, { key: true }));
    clock.advance(SILENT_MS - 250);
    expect(v.live).toEqual([true]);
    clock.advance(500); // the watch that sees a second of silence
    expect(v.live).toEqual([true, false]);
    expect(channel.stats()).toMatchObject({ publishing: false, live: false, source: 'whip' });
    channel.push(publisher, vp8(7, 2, 4000, {}));
    expect(v.live).toEqual([true, false, true]);
    expect(v.got).toHaveLength(1); // the delta after the gap waits for a keyframe
    channel.push(publisher, vp8(7, 3, 7000, { key: true }));
    expect(v.got).toHaveLength(2);
    channel.detach(publisher);
    expect(v.live).toEqual([true, false, true, false]);
    expect(channel.stats()).toMatchObject({ publishing: false, source: null, codec: null });
  });

  it('counts what the console shows: kilobits and frames a second, the last keyframe', () => {
    const clock = new ManualServerClock(new Date('2026-11-29T00:00:00Z'));
    const channel = new CameraChannel(3, 'front', clock, () => undefined);
    const publisher = source();
    channel.attach(publisher);
    const v = recordingViewer();
    void channel.join(v.viewer);
    for (let i = 0; i < 30; i += 1) {
      clock.advance(33);
      channel.push(publisher, vp8(7, i, i * 3000, { key: i % 15 === 0 }));
    }
    clock.advance(250);
    const stats = channel.stats();
    expect(stats.fps).toBeGreaterThanOrEqual(25);
    expect(stats.fps).toBeLessThanOrEqual(31);
    expect(stats.kbps).toBeGreaterThan(0);
    expect(stats.last_keyframe_at).toBe(new Date(Date.parse('2026-11-29T00:00:00Z') + 16 * 33).toISOString());
    expect(stats).toMatchObject({ station_id: 3, camera: 'front', publishing: true, codec: 'VP8', viewers: 1 });
  });

  it('is dropped when it has neither viewers nor a source', () => {
    const clock = new ManualServerClock();
    let idle = 0;
    const channel = new CameraChannel(1, 'front', clock, () => (idle += 1));
    const publisher = source();
    const v = recordingViewer();
    channel.attach(publisher);
    void channel.join(v.viewer);
    channel.leave(v.viewer);
    expect(idle).toBe(0);
    channel.detach(publisher);
    expect(idle).toBe(1);
    expect(clock.pendingTimers).toBe(0);
  });
});
