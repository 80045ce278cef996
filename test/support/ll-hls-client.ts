import { get, type Agent } from 'node:http';
import { readFragment } from '../../server/live/fmp4';
import type { CacheLogLine } from '../../scripts/lib/nginx';

/**
 * A spectator's LL-HLS player as a cache sees it, without the video: the playlist, the init, then
 * a blocking playlist reload (`_HLS_msn`/`_HLS_part`) for the part after the last one listed,
 * each new part fetched in order as a reload lists it, the next reload asked as soon as one
 * arrives — what hls.js does in low-latency mode (it asks no preload hint). It starts at the
 * newest independent part (a keyframe) and checks that the parts it gets follow one another: each
 * one's first decode time is where the one before ended (the fragments' `tfdt` and `trun`).
 */

export interface PartAddress {
  readonly msn: number;
  readonly part: number;
}

interface ListedPart extends PartAddress {
  readonly uri: string;
}

export interface ReceivedPart extends PartAddress {
  readonly epoch: string;
  readonly decodeTime: number;
  readonly duration: number;
  /** When it was received (performance.now()). */
  readonly at: number;
}

interface Playlist {
  readonly init: string;
  /** The encoder run the playlist is of (its URIs' prefix). */
  readonly epoch: string;
  readonly parts: ListedPart[];
}

/** The part addresses of a playlist's `#EXT-X-PART` tags, in order, and its init's URI. */
export function parseLlHlsPlaylist(text: string): Playlist {
  const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1];
  if (!init || !text.startsWith('#EXTM3U')) throw new Error(`not a media playlist: ${text.slice(0, 80)}`);
  const parts = [...text.matchAll(/#EXT-X-PART:[^\n]*URI="([^"]+)"/g)].map((m) => {
    const address = /-(\d+)\.(\d+)\.m4s(?:\?|$)/.exec(m[1]!);
    if (!address) throw new Error(`not a part's URI: ${m[1]}`);
    return { uri: m[1]!, msn: Number(address[1]), part: Number(address[2]) };
  });
  const epoch = /([0-9a-f]{8})-init\.mp4/.exec(init)?.[1] ?? '';
  return { init, epoch, parts };
}

/** A part's place in the stream: comparable as a number (msn × 1000 + part; a segment has fewer than 1000 parts). */
export const partKey = (a: PartAddress) => a.msn * 1000 + a.part;

interface Answer {
  readonly status: number;
  readonly body: Buffer;
}

function fetchOver(agent: Agent, url: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

export class LlHlsClient {
  /** The parts received, in the order received. */
  readonly received: ReceivedPart[] = [];
  /** What went wrong: an answer not 200, a part that did not follow, a part gone before it was fetched. */
  readonly failures: string[] = [];
  /** Requests made (playlists, the init, parts). */
  requests = 0;
  /** Called after each part received and each failure (a test awaits a number of parts with it). */
  onProgress: (() => void) | null = null;
  private stopping = false;
  private last: ListedPart | null = null;
  private previous: ReceivedPart | null = null;

  constructor(
    /** The media playlist's address (…/index.m3u8). */
    private readonly playlistUrl: string,
    /** Keeps the client's connections (each player has its own in a browser; here they are pooled). */
    private readonly agent: Agent,
    /** A request not answered in this long fails (above the origin's hold and the cache's lock). */
    private readonly timeoutMs = 15_000,
  ) {}

  /**
   * Plays until `stop()`: then the reload under way is awaited and its parts fetched, and the
   * promise resolves. A failed request is counted and the client starts again from the plain
   * playlist (after `retryMs`).
   */
  async run(retryMs = 250): Promise<void> {
    while (!this.stopping) {
      try {
        await this.play();
      } catch (error) {
        this.fail(error instanceof Error ? error.message : String(error));
        if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  }

  stop(): void {
    this.stopping = true;
  }

  private fail(failure: string): void {
    this.failures.push(failure);
    this.onProgress?.();
  }

  private async fetch(url: string): Promise<Buffer> {
    this.requests += 1;
    const answer = await fetchOver(this.agent, url, this.timeoutMs);
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status} for ${url.replace(/^.*\//, '')}`);
    return answer.body;
  }

  private resolve(uri: string): string {
    return new URL(uri, this.playlistUrl).href;
  }

  private async playlist(next: PartAddress | null): Promise<Playlist> {
    const query = next ? `?_HLS_msn=${next.msn}&_HLS_part=${next.part}` : '';
    return parseLlHlsPlaylist((await this.fetch(`${this.playlistUrl}${query}`)).toString('utf8'));
  }

  private async play(): Promise<void> {
    let playlist = await this.playlist(null);
    if (this.previous && this.previous.epoch !== playlist.epoch) this.restarted(playlist);
    if (this.last === null) {
      await this.fetch(this.resolve(playlist.init));
      // Start at the newest part a decoder can start at.
      const start = playlist.parts.findLast((p) => p.part === 0) ?? playlist.parts.at(-1);
      if (!start) throw new Error('a playlist without parts');
      this.last = { ...start, part: start.part - 1 };
    }
    for (;;) {
      // The next reload asks for the part after the last one listed, and goes out now, while the
      // new parts are fetched (hls.js: the playlist loader and the stream controller run apart).
      const end = playlist.parts.at(-1)!;
      const reload = this.stopping ? null : this.playlist({ msn: end.msn, part: end.part + 1 });
      // A rejection is read below; until then it must not count as unhandled.
      reload?.catch(() => undefined);
      await this.fetchNew(playlist);
      if (!reload) return;
      playlist = await reload;
      if (this.previous && this.previous.epoch !== playlist.epoch) {
        this.restarted(playlist);
        return;
      }
    }
  }

  /**
   * The stream's encoder started again (a new epoch): its parts are numbered anew, so the client
   * starts over from the new run's newest keyframe, as a player does at a discontinuity. Counted as
   * a failure: the test wants one unbroken run.
   */
  private restarted(playlist: Playlist): void {
    this.fail(`the stream restarted: epoch ${this.previous!.epoch} → ${playlist.epoch}`);
    this.last = null;
    this.previous = null;
  }

  /** Where the client is (a test's message when the crowd does not get its parts in time). */
  describe(): string {
    const last = this.previous;
    return `${this.received.length} parts, last ${last ? `${last.epoch}-${last.msn}.${last.part}` : 'none'}, ${this.requests} requests${this.failures.length ? `, failures: ${this.failures.join('; ')}` : ''}`;
  }

  /** Fetches the parts listed after the last one fetched, in order. */
  private async fetchNew(playlist: Playlist): Promise<void> {
    const last = this.last!;
    const fresh = playlist.parts.filter((p) => partKey(p) > partKey(last));
    if (fresh.length === 0) return;
    const first = fresh[0]!;
    const follows =
      first.msn === last.msn ? first.part === last.part + 1 : first.msn === last.msn + 1 && first.part === 0;
    if (!follows && this.previous)
      this.fail(`part ${first.msn}.${first.part} listed after ${last.msn}.${last.part}: the ones between are gone`);
    for (const part of fresh) {
      const bytes = await this.fetch(this.resolve(part.uri));
      const info = bytes.length > 8 ? readFragment(bytes.subarray(0, bytes.readUInt32BE(0))) : null;
      if (!info) throw new Error(`part ${part.msn}.${part.part} is not a fragment`);
      const epoch = /([0-9a-f]{8})-\d+\.\d+\.m4s/.exec(part.uri)?.[1] ?? '';
      const received = { msn: part.msn, part: part.part, epoch, at: performance.now(), ...info };
      const previous = this.previous;
      if (previous && previous.epoch === epoch && previous.decodeTime + previous.duration !== info.decodeTime)
        this.fail(
          `part ${part.msn}.${part.part} starts at ${info.decodeTime}, the part before it ended at ${previous.decodeTime + previous.duration}`,
        );
      this.received.push(received);
      this.previous = received;
      this.last = part;
      this.onProgress?.();
    }
  }
}

/** What the origin was asked, per part, from the cache's log. */
export interface OriginLoad {
  /** Origin requests per part: the part's own, and the blocking playlist reloads that waited for it. */
  readonly perPart: Map<number, number>;
  /** Origin requests in all (the plain playlist, the init and segments too). */
  readonly originRequests: number;
  /** Requests the cache answered in all. */
  readonly clientRequests: number;
  /** The epochs (runs of the stream) the parts were of. */
  readonly epochs: Set<string>;
}

/**
 * Counts the origin requests in the cache's log per part: the requests for the part's URI, and
 * the blocking reloads that were waiting for it (`_HLS_msn=M&_HLS_part=P` waits for part M.P, or,
 * when segment M ended before part P, for the next segment's first part).
 */
export function originLoad(lines: readonly CacheLogLine[]): OriginLoad {
  const partRequests = new Map<number, number>();
  const reloadRequests = new Map<number, number>();
  const parts = new Set<number>();
  const epochs = new Set<string>();
  let originRequests = 0;
  for (const line of lines) {
    originRequests += line.originRequests;
    const part = /\/([0-9a-f]{8})-(\d+)\.(\d+)\.m4s$/.exec(line.uri);
    if (part) {
      const key = partKey({ msn: Number(part[2]), part: Number(part[3]) });
      parts.add(key);
      epochs.add(part[1]!);
      partRequests.set(key, (partRequests.get(key) ?? 0) + line.originRequests);
      continue;
    }
    const reload = /\/index\.m3u8\?_HLS_msn=(\d+)&_HLS_part=(\d+)$/.exec(line.uri);
    if (reload) {
      const key = partKey({ msn: Number(reload[1]), part: Number(reload[2]) });
      reloadRequests.set(key, (reloadRequests.get(key) ?? 0) + line.originRequests);
    }
  }
  const perPart = new Map([...parts].map((key) => [key, partRequests.get(key) ?? 0]));
  for (const [key, count] of reloadRequests) {
    // The part it waited for: the one asked if it exists, else the next segment's first.
    const waitedFor = parts.has(key) ? key : (Math.floor(key / 1000) + 1) * 1000;
    if (perPart.has(waitedFor)) perPart.set(waitedFor, perPart.get(waitedFor)! + count);
  }
  return { perPart, originRequests, clientRequests: lines.length, epochs };
}
