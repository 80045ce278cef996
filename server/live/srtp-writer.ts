import { createCipheriv, createSecretKey, type KeyObject } from 'node:crypto';
import { Socket as UdpSocket } from 'node:dgram';
import { ntpTime, RtpPacket, type RTCRtpSender } from 'werift';
import { PLAYOUT_DELAY } from './playout-delay';

/** SRTP_AEAD_AES_128_GCM (RFC 7714), the profile Chromium, Firefox and Safari choose. */
const AEAD_AES_128_GCM = 7;
const AUTH_TAG_BYTES = 16;
/** werift's history of sent packets for NACK (RTP_HISTORY_SIZE in its rtpSender). */
const RTP_HISTORY_SIZE = 128;

/** The parts of werift's SRTP context this writer uses (werift 0.24, lib/rtp/src/srtp/context). */
interface SrtpContextInternals {
  readonly profile: number;
  readonly cipher: { readonly srtpSessionKey: Buffer; readonly srtpSessionSalt: Buffer };
  getSrtpSsrcState(ssrc: number): { rolloverCounter: number };
  updateRolloverCount(sequenceNumber: number, state: { rolloverCounter: number }): void;
}

/** The parts of werift's RTCRtpSender this writer reads and keeps up to date (werift 0.24, rtpSender.js `sendRtp`). */
interface SenderInternals {
  readonly ssrc: number;
  readonly codec?: { readonly payloadType: number };
  readonly stopped: boolean;
  readonly headerExtensions: readonly { readonly uri: string }[];
  readonly redRedundantPayloadType?: number;
  readonly seqOffset: number;
  readonly timestampOffset: number;
  readonly rtpCache: (RtpPacket | LazyPacket)[];
  readonly dtlsTransport: {
    readonly state: string;
    readonly srtp?: { readonly localContext: SrtpContextInternals };
    bytesSent: number;
    packetsSent: number;
    readonly iceTransport: { readonly connection: IceConnectionInternals };
  };
  sequenceNumber?: number;
  timestamp?: number;
  ntpTimestamp: bigint;
  rtpTimestamp: number;
  octetCount: number;
  packetCount: number;
  headerBytesSent: number;
  readonly rtcpRunning: boolean;
  runRtcp(): Promise<void>;
}

/** The parts of werift's ICE connection this writer sends through (werift 0.24, lib/ice/src/ice.js `send`). */
interface IceConnectionInternals {
  send(data: Buffer): Promise<void>;
  canSendApplicationData(): boolean;
  readonly nominated?: {
    readonly protocol: { readonly transport?: { readonly socket?: unknown; readonly closed?: boolean } };
    readonly remoteAddr: readonly [string, number];
    packetsSent: number;
    bytesSent: number;
  };
}

/**
 * A sent packet kept for a NACK, parsed only if one asks for it: werift's sender keeps an RtpPacket
 * per packet and reads `header` and `payload` when it retransmits.
 */
class LazyPacket {
  private parsed: RtpPacket | null = null;
  constructor(
    /** The channel's packet (shared by every viewer, never written to). */
    private readonly source: Buffer,
    /** The header's fields as this viewer was sent them. */
    private readonly payloadType: number,
    private readonly sequenceNumber: number,
    private readonly timestamp: number,
    private readonly ssrc: number,
  ) {}
  private get packet(): RtpPacket {
    if (!this.parsed) {
      const plain = Buffer.from(this.source);
      plain[1] = (plain[1]! & 0x80) | this.payloadType;
      plain.writeUInt16BE(this.sequenceNumber, 2);
      plain.writeUInt32BE(this.timestamp, 4);
      plain.writeUInt32BE(this.ssrc, 8);
      this.parsed = RtpPacket.deSerialize(plain);
    }
    return this.parsed;
  }
  get header(): RtpPacket['header'] {
    return this.packet.header;
  }
  get payload(): Buffer {
    return this.packet.payload;
  }
}

/**
 * Writes a camera channel's packets to one viewer's sender with the work a forwarded packet needs
 * and no more (docs/performance.md, "WHIP ingest"): werift's own path (`track.writeRtp` →
 * `sender.sendRtp`) parses the packet again for every viewer, rebuilds its header extensions,
 * computes an NTP time and serializes the header twice; here the channel's bytes are copied, the
 * header's four per-viewer fields patched in a copy of the header, the payload encrypted with
 * AES-GCM (RFC 7714) once, and header, ciphertext and tag handed to the selected pair's UDP socket
 * as one datagram (no copy of the payload). The sender's counters (its RTCP sender reports and
 * stats), its SRTP rollover state and its NACK history are kept as werift keeps them.
 *
 * It takes this path only where it gives the same bytes werift would send (a test compares them):
 * the GCM profile, no header extension werift writes itself (the offer names only the playout
 * delay, which the channel writes), no RED. Otherwise, or before the DTLS connection is up, it
 * hands the packet to werift's path (`fallback`).
 */
export class SrtpWriter {
  /** The SRTP context's key and this sender's rollover state, taken once per context. */
  private key: {
    readonly context: SrtpContextInternals;
    readonly key: KeyObject;
    readonly state: { rolloverCounter: number };
    readonly salt: Buffer;
  } | null = null;
  /** The IV (RFC 7714 §8.1): salt XOR (0, SSRC, ROC, SEQ); all but the sequence number kept between packets. */
  private readonly iv = Buffer.alloc(12);
  private ivFor: { ssrc: number; rolloverCounter: number; salt: Buffer } | null = null;
  private lastTimestamp = -1;
  private fastPath: boolean | null = null;

  constructor(
    sender: RTCRtpSender,
    private readonly fallback: (rtp: Buffer) => void,
  ) {
    this.sender = sender as unknown as SenderInternals;
  }

  private readonly sender: SenderInternals;

  write(rtp: Buffer): void {
    const sender = this.sender;
    const transport = sender.dtlsTransport;
    const context = transport.state === 'connected' ? transport.srtp?.localContext : undefined;
    if (!context || !sender.codec || sender.stopped || !this.usable(context)) return this.fallback(rtp);
    const headerLength = rtpHeaderLength(rtp);
    if (headerLength === null || (rtp[0]! & 0x20) !== 0) return this.fallback(rtp);

    const sequenceNumber = (rtp.readUInt16BE(2) + sender.seqOffset) & 0xffff;
    const timestamp = (rtp.readUInt32BE(4) + sender.timestampOffset) >>> 0;
    const payloadType = sender.codec.payloadType & 0x7f;
    const ssrc = sender.ssrc;
    const header = Buffer.allocUnsafe(headerLength);
    rtp.copy(header, 0, 0, headerLength);
    header[1] = (rtp[1]! & 0x80) | payloadType;
    header.writeUInt16BE(sequenceNumber, 2);
    header.writeUInt32BE(timestamp, 4);
    header.writeUInt32BE(ssrc, 8);

    const keys = this.keysOf(context, ssrc);
    context.updateRolloverCount(sequenceNumber, keys.state);
    const iv = this.iv;
    const known = this.ivFor;
    if (
      !known ||
      known.ssrc !== ssrc ||
      known.rolloverCounter !== keys.state.rolloverCounter ||
      known.salt !== keys.salt
    ) {
      iv.writeUInt16BE(0, 0);
      iv.writeUInt32BE(ssrc, 2);
      iv.writeUInt32BE(keys.state.rolloverCounter, 6);
      for (let i = 0; i < 10; i += 1) iv[i]! ^= keys.salt[i]!;
      this.ivFor = { ssrc, rolloverCounter: keys.state.rolloverCounter, salt: keys.salt };
    }
    iv[10] = (sequenceNumber >> 8) ^ keys.salt[10]!;
    iv[11] = (sequenceNumber & 0xff) ^ keys.salt[11]!;
    const cipher = createCipheriv('aes-128-gcm', keys.key, iv);
    cipher.setAAD(header);
    const encrypted = cipher.update(rtp.subarray(headerLength));
    cipher.final();
    const datagram = [header, encrypted, cipher.getAuthTag()];
    const size = rtp.length + AUTH_TAG_BYTES;

    // What werift's sendRtp keeps: the SR's clock pair (its NTP time taken once per picture, not
    // per packet: the pair stays one instant), the counters, the NACK history.
    if (timestamp !== this.lastTimestamp) {
      this.lastTimestamp = timestamp;
      sender.ntpTimestamp = ntpTime();
    }
    sender.timestamp = timestamp;
    sender.rtpTimestamp = timestamp;
    sender.sequenceNumber = sequenceNumber;
    sender.octetCount += rtp.length - headerLength;
    sender.headerBytesSent += headerLength;
    sender.packetCount = (sender.packetCount + 1) >>> 0;
    sender.rtpCache[sequenceNumber % RTP_HISTORY_SIZE] = new LazyPacket(
      rtp,
      payloadType,
      sequenceNumber,
      timestamp,
      ssrc,
    );
    transport.bytesSent += size;
    transport.packetsSent += 1;
    send(transport.iceTransport.connection, datagram, size);
    if (!sender.rtcpRunning) void sender.runRtcp();
  }

  /** Whether this sender's packets can take the short path (decided once per SRTP context). */
  private usable(context: SrtpContextInternals): boolean {
    if (this.key?.context === context) return true;
    if (this.fastPath === false) return false;
    const sender = this.sender;
    this.fastPath =
      context.profile === AEAD_AES_128_GCM &&
      sender.redRedundantPayloadType === undefined &&
      sender.headerExtensions.every((extension) => extension.uri === PLAYOUT_DELAY.uri);
    return this.fastPath;
  }

  private keysOf(context: SrtpContextInternals, ssrc: number): NonNullable<SrtpWriter['key']> {
    if (this.key?.context !== context)
      this.key = {
        context,
        key: createSecretKey(context.cipher.srtpSessionKey),
        state: context.getSrtpSsrcState(ssrc),
        salt: context.cipher.srtpSessionSalt,
      };
    return this.key;
  }
}

/**
 * Sends a datagram on the connection's selected pair as werift's `connection.send` does (consent,
 * the pair's counters), straight to its UDP socket: werift's own path is three async layers and an
 * address check per packet. Any other transport (TCP, TURN) goes through werift.
 */
function send(connection: IceConnectionInternals, datagram: Buffer[], size: number): void {
  const pair = connection.nominated;
  const transport = pair?.protocol.transport;
  if (!pair || !(transport?.socket instanceof UdpSocket) || transport.closed) {
    void connection.send(Buffer.concat(datagram, size)).catch(() => undefined);
    return;
  }
  if (!connection.canSendApplicationData()) return;
  try {
    transport.socket.send(datagram, pair.remoteAddr[1], pair.remoteAddr[0]);
  } catch {
    return; // The socket closed under the session: it is ending.
  }
  pair.packetsSent += 1;
  pair.bytesSent += size;
}

/** The length of an RTP packet's header (fixed part, CSRCs, extension), or null when it is not a whole RTP v2 packet. */
export function rtpHeaderLength(rtp: Buffer): number | null {
  if (rtp.length < 12 || rtp[0]! >> 6 !== 2) return null;
  let length = 12 + (rtp[0]! & 0x0f) * 4;
  if (rtp[0]! & 0x10) {
    if (rtp.length < length + 4) return null;
    length += 4 + rtp.readUInt16BE(length + 2) * 4;
  }
  return length <= rtp.length ? length : null;
}
