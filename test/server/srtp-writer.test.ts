import type { Socket as UdpSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { MediaStreamTrack, RtpHeader, RtpPacket, type RTCPeerConnection, type RTCRtpSender } from 'werift';
import { openFeedPeer } from '../../server/live/signaling-peer';
import { withPlayoutDelay } from '../../server/live/playout-delay';
import { SrtpWriter, rtpHeaderLength } from '../../server/live/srtp-writer';
import { recvonlyPeer } from '../support/rtc-viewer';

/** The sender's datagrams as they leave (its UDP socket's send is wrapped, not replaced: they still go out). */
interface Wire {
  readonly sent: Buffer[];
  /** Sequence numbers (of the viewer's stream) whose first sending is dropped, as a lossy network would. */
  readonly drop: Set<number>;
}

const opened: RTCPeerConnection[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((pc) => pc.close()));
});

/** A feed peer (the server's side, as a viewer's session opens it) connected on loopback to a werift receiver. */
async function connectedPair(): Promise<{
  sender: RTCRtpSender;
  track: MediaStreamTrack;
  received: RtpPacket[];
  wire: Wire;
  fallbacks: Buffer[];
  writer: SrtpWriter;
}> {
  const track = new MediaStreamTrack({ kind: 'video' });
  const { pc, sender } = openFeedPeer(track, 'station-1-front', ['127.0.0.1']);
  const receiver = recvonlyPeer();
  opened.push(pc, receiver);
  const received: RtpPacket[] = [];
  receiver.onTrack.subscribe((remote) => remote.onReceiveRtp.subscribe((rtp) => received.push(rtp)));
  await pc.setLocalDescription(await pc.createOffer());
  await receiver.setRemoteDescription(pc.localDescription!);
  await receiver.setLocalDescription(await receiver.createAnswer());
  await pc.setRemoteDescription(receiver.localDescription!);
  await new Promise<void>((resolve) => {
    if (sender.dtlsTransport.state === 'connected') return resolve();
    sender.dtlsTransport.onStateChange.subscribe((state) => state === 'connected' && resolve());
  });
  const wire: Wire = { sent: [], drop: new Set() };
  // The selected pair's UDP socket: the writer's datagrams and werift's own (its retransmissions) leave through it.
  const connection = sender.dtlsTransport.iceTransport.connection as unknown as {
    nominated: { protocol: { transport: { socket: UdpSocket } } };
  };
  const socket = connection.nominated.protocol.transport.socket;
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  socket.send = ((message: Buffer | Buffer[], ...rest: unknown[]) => {
    // One buffer, or a list sent as one datagram.
    const data = Array.isArray(message) ? Buffer.concat(message) : message;
    // SRTP packets (first byte 128–191, RTP not RTCP: payload type 96 below 200).
    const rtp = data[0]! >> 6 === 2 && (data[1]! & 0x7f) === 96;
    if (rtp) {
      wire.sent.push(Buffer.from(data));
      if (wire.drop.delete(data.readUInt16BE(2))) return;
    }
    send(message, ...rest);
  }) as typeof socket.send;
  const fallbacks: Buffer[] = [];
  const writer = new SrtpWriter(sender, (rtp) => {
    fallbacks.push(rtp);
    track.writeRtp(rtp);
  });
  return { sender, track, received, wire, fallbacks, writer };
}

/** A packet as a camera channel writes it: its own SSRC, payload type 96, the playout-delay extension. */
function channelPacket(seq: number, timestamp: number, marker: boolean, size = 1100): Buffer {
  const payload = Buffer.alloc(size, seq & 0xff);
  payload[0] = 0x90;
  return withPlayoutDelay(
    new RtpPacket(new RtpHeader({ payloadType: 96, sequenceNumber: seq, timestamp, ssrc: 0x1234, marker }), payload),
  );
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("a viewer's packets written by the short SRTP path (srtp-writer.ts)", () => {
  it("sends, for every packet, exactly the bytes werift's own sendRtp would: across a sequence-number wrap (rollover counter), with the sender's SSRC and the playout-delay extension", async () => {
    const { sender, wire, fallbacks, writer } = await connectedPair();
    const srtp = (sender.dtlsTransport as unknown as { srtp: { encrypt(p: Buffer, h: RtpHeader): Buffer } }).srtp;
    for (let i = 0; i < 40; i += 1) {
      const seq = (65_520 + i) & 0xffff;
      const rtp = channelPacket(seq, 90_000 + Math.floor(i / 4) * 3000, i % 4 === 3, 200 + i * 25);
      writer.write(rtp);
      // werift's path, on the same packet: parse, the sender's SSRC, encrypt.
      const parsed = RtpPacket.deSerialize(rtp);
      parsed.header.ssrc = sender.ssrc;
      expect(wire.sent.at(-1), `packet ${seq}`).toEqual(srtp.encrypt(parsed.payload, parsed.header));
    }
    expect(wire.sent).toHaveLength(40);
    expect(fallbacks).toHaveLength(0);
  });

  it('the receiver decrypts every packet: payloads, sequence numbers, timestamps and markers as written, the extension kept', async () => {
    const { sender, received, writer } = await connectedPair();
    const written = Array.from({ length: 30 }, (_, i) =>
      channelPacket(1000 + i, 5000 + Math.floor(i / 3) * 3000, i % 3 === 2),
    );
    for (const rtp of written) writer.write(rtp);
    await until(() => received.length >= 30, 'the 30 packets');
    expect(received.map((p) => p.header.sequenceNumber)).toEqual(written.map((_, i) => 1000 + i));
    expect(received.map((p) => [p.header.timestamp, p.header.marker, p.header.ssrc])).toEqual(
      written.map((_, i) => [5000 + Math.floor(i / 3) * 3000, i % 3 === 2, sender.ssrc]),
    );
    for (const [i, packet] of received.entries()) {
      const original = RtpPacket.deSerialize(written[i]!);
      expect(packet.payload).toEqual(original.payload);
      expect(packet.header.extensions.map((e) => e.id)).toEqual([1]);
    }
  });

  it("a packet lost on the way is sent again on the receiver's NACK, from the sender's history, as it was first sent", async () => {
    const { received, wire, writer } = await connectedPair();
    wire.drop.add(2003);
    for (let i = 0; i < 12; i += 1) writer.write(channelPacket(2000 + i, 9000 + i * 3000, true));
    await until(() => received.some((p) => p.header.sequenceNumber === 2003), 'the retransmission of 2003');
    const firstSending = wire.sent.find((d) => d.readUInt16BE(2) === 2003)!;
    const sendings = wire.sent.filter((d) => d.readUInt16BE(2) === 2003);
    expect(sendings.length).toBeGreaterThanOrEqual(2);
    expect(sendings[1]).toEqual(firstSending);
    const again = received.find((p) => p.header.sequenceNumber === 2003)!;
    expect(again.payload).toEqual(RtpPacket.deSerialize(channelPacket(2003, 0, true)).payload);
  });

  it("keeps the sender's statistics as werift does (packets and bytes sent, for its sender reports and getStats)", async () => {
    const { sender, writer } = await connectedPair();
    for (let i = 0; i < 10; i += 1) writer.write(channelPacket(i, i * 3000, true, 500));
    const stats = [...(await sender.getStats()).values()].find((s) => s.type === 'outbound-rtp') as
      { packetsSent: number; bytesSent: number } | undefined;
    expect(stats?.packetsSent).toBe(10);
    expect(stats?.bytesSent).toBe(10 * 500);
  });

  it("hands to werift's own path what it does not shorten: before the DTLS connection is up, and padded packets", async () => {
    const track = new MediaStreamTrack({ kind: 'video' });
    const { pc, sender } = openFeedPeer(track, 'station-1-front', ['127.0.0.1']);
    opened.push(pc);
    const fallbacks: Buffer[] = [];
    const writer = new SrtpWriter(sender, (rtp) => fallbacks.push(rtp));
    const early = channelPacket(1, 0, true);
    writer.write(early);
    expect(fallbacks).toEqual([early]);

    const connected = await connectedPair();
    const padded = channelPacket(7, 0, true);
    padded[0]! |= 0x20;
    connected.writer.write(padded);
    expect(connected.fallbacks).toEqual([padded]);
  });

  it('reads the header length of RTP packets (CSRCs, extension) and refuses what is not a whole one', () => {
    const rtp = channelPacket(1, 0, false);
    expect(rtpHeaderLength(rtp)).toBe(12 + 4 + 4);
    expect(rtpHeaderLength(rtp.subarray(0, 15))).toBeNull();
    expect(rtpHeaderLength(Buffer.from([0x40, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    const withCsrc = Buffer.concat([
      Buffer.from([0x81, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2]),
      Buffer.alloc(4),
    ]);
    expect(rtpHeaderLength(withCsrc)).toBe(16);
    const bigExtension = Buffer.from([0x90, 96, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xbe, 0xde, 0x00, 0x09]);
    expect(rtpHeaderLength(bigExtension)).toBeNull();
  });
});
