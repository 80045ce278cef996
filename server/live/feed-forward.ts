import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Clock } from '../clock';
import type { SqlExecutor } from '../store/store';

/**
 * The live feed of a station is drawn by the instance running its room (R10-8). A viewer may land
 * on any instance: that instance forwards the station's stills and its rtc signaling to the owner,
 * found in `station_owners` (docs/deployment.md, "The live feed"). A forwarded request carries
 * FEED_HOP_HEADER; an instance never forwards such a request again, and answers 503 when it does
 * not run the station (a stale row: the owner moved or died), so the client's fallback and
 * reconnect carry the viewer to the station's next owner.
 */
export const FEED_HOP_HEADER = 'x-onkure-feed-hop';

/** How long a looked-up owner is kept: a moved station is found again within this. */
const OWNER_CACHE_MS = 1_000;

export type FeedRoute =
  { readonly kind: 'here' } | { readonly kind: 'forward'; readonly to: URL } | { readonly kind: 'gone' };

export interface FeedOwnership {
  readonly distributed: boolean;
  owns(stationId: number): boolean;
}

export class FeedOwners {
  private readonly cache = new Map<number, { readonly url: string | null; readonly until: number }>();

  constructor(
    private readonly db: SqlExecutor,
    private readonly ownership: FeedOwnership,
    private readonly clock: Clock,
    /** This instance's own address (INSTANCE_URL, or its loopback address once it listens). */
    private readonly self: () => string | null,
  ) {}

  /**
   * Where a request for the station's feed is served: here (the station runs here, or runs
   * nowhere: the stored field is what there is to see), forwarded to the owner, or gone (a
   * forwarded request reaching an instance that does not run the station).
   */
  async route(stationId: number, forwarded: boolean): Promise<FeedRoute> {
    if (!this.ownership.distributed || this.ownership.owns(stationId)) return { kind: 'here' };
    if (forwarded) return { kind: 'gone' };
    const now = this.clock.now().getTime();
    let cached = this.cache.get(stationId);
    if (!cached || cached.until <= now) {
      const [row] = await this.db.query<{ instance_url: string }>(
        'SELECT instance_url FROM station_owners WHERE station_id = $1',
        [stationId],
      );
      cached = { url: row?.instance_url ?? null, until: now + OWNER_CACHE_MS };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(stationId, cached);
    }
    if (cached.url === null || cached.url === this.self()) return { kind: 'here' };
    return { kind: 'forward', to: new URL(cached.url) };
  }

  /** A forward failed (the owner is gone): look the owner up again on the next request. */
  forget(stationId: number): void {
    this.cache.delete(stationId);
  }

  /** This instance took the station's lock: the others forward its feed here from now on. */
  async record(stationId: number): Promise<void> {
    const self = this.self();
    if (!this.ownership.distributed || self === null) return;
    await this.db.query(
      `INSERT INTO station_owners (station_id, instance_url, since) VALUES ($1, $2, now())
         ON CONFLICT (station_id) DO UPDATE SET instance_url = EXCLUDED.instance_url, since = EXCLUDED.since`,
      [stationId, self],
    );
  }
}

/**
 * Forwards a WebSocket upgrade to `target` (the owner's address with the path and query this
 * instance parsed and checked) and then relays bytes both ways (Node's own HTTP client; the headers
 * go as they came, plus the client's address and the hop header).
 * A refusal from the target (403, 429, 503…) reaches the client as it was answered; an unreachable
 * target is answered 502.
 */
export function forwardUpgrade(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: URL,
  clientAddress: string,
  failed: () => void,
): void {
  const upstream = (target.protocol === 'https:' ? https : http).request(target, {
    method: 'GET',
    headers: { ...request.headers, host: target.host, 'x-forwarded-for': clientAddress, [FEED_HOP_HEADER]: '1' },
    timeout: 5_000,
  });
  // The client gone before the owner answered: the owner's side goes too.
  const clientGone = () => upstream.destroy();
  socket.once('close', clientGone);
  const refuse = (status: string) => {
    if (!socket.destroyed) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  upstream.on('timeout', () => upstream.destroy(new Error('forwarded upgrade timed out')));
  upstream.on('error', () => {
    failed();
    refuse('502 Bad Gateway');
  });
  upstream.on('response', (response) => {
    response.resume();
    refuse(`${response.statusCode ?? 502} ${response.statusMessage ?? ''}`.trim());
  });
  upstream.on('upgrade', (response, upstreamSocket, upstreamHead) => {
    socket.off('close', clientGone);
    if (socket.destroyed) return void upstreamSocket.destroy();
    const lines = [`HTTP/1.1 101 ${response.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < response.rawHeaders.length; i += 2)
      lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    if (head.length > 0) upstreamSocket.write(head);
    const end = () => {
      socket.destroy();
      upstreamSocket.destroy();
    };
    socket.on('error', end).on('close', end);
    upstreamSocket.on('error', end).on('close', end);
    upstreamSocket.pipe(socket).pipe(upstreamSocket);
  });
  socket.on('error', () => upstream.destroy());
  upstream.end();
}
