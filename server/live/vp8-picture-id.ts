/**
 * Widens the picture id in each VP8 RTP packet's payload descriptor (RFC 7741) from the 7 bits
 * ffmpeg writes to 15 bits, counting on across ffmpeg's wrap.
 *
 * ffmpeg's VP8 packetizer numbers frames with a 7-bit picture id, which goes from 127 back to 0
 * every 128 frames. Chromium's receiver reads every picture id as a 15-bit number: to it, frame 0
 * after 127 is an older frame than the one it last decoded, so it drops that frame and every delta
 * frame after it until the next keyframe (a keyframe with a newer RTP time clears its buffer).
 * The video froze for up to one keyframe interval (0.5 s) every 128 frames, about every 4–6 s;
 * nothing was lost on the wire (docs/performance.md, issue 10). With 15 bits the id wraps every
 * 32 768 frames, which Chromium unwraps correctly.
 *
 * One per encoder (its picture ids count from 0): every packet the encoder makes goes through it
 * once, in order, before the fan-out.
 */
export class Vp8PictureIds {
  private last7: number | null = null;
  private id = 0;

  /** The payload with a 15-bit picture id; unchanged when it has none or already a 15-bit one. */
  widen(payload: Buffer): Buffer {
    // X: the extended control bits follow; I: a picture id follows them; M: it is 15 bits already.
    if (payload.length < 3 || (payload[0]! & 0x80) === 0 || (payload[1]! & 0x80) === 0 || (payload[2]! & 0x80) !== 0) return payload;
    const id7 = payload[2]! & 0x7f;
    // Packets of one frame share its id; a frame ffmpeg skipped (or a lost packet) moves it on by more than one.
    this.id = this.last7 === null ? id7 : (this.id + ((id7 - this.last7) & 0x7f)) & 0x7fff;
    this.last7 = id7;
    const wide = Buffer.allocUnsafe(payload.length + 1);
    wide[0] = payload[0]!;
    wide[1] = payload[1]!;
    wide[2] = 0x80 | (this.id >> 8);
    wide[3] = this.id & 0xff;
    payload.copy(wide, 4, 3);
    return wide;
  }
}
