import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/*
 * A TCP proxy that can hold every chunk it forwards for a while, in both directions. It stands in
 * for `tc netem delay`, which this machine's kernel lacks (no sch_netem): the added latency is per
 * chunk as the proxy reads it (not per IP packet as netem's would be), order kept, so a 300 ms
 * delay makes every frame arrive 300 ms late each way.
 */
export class DelayProxy {
  private delayMs = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {}

  /** Listens on `host` (port 0: any) and forwards each connection to `target`. */
  static async start(host: string, target: { host: string; port: number }): Promise<DelayProxy> {
    let proxy: DelayProxy | null = null;
    const server = createServer((client) => proxy!.accept(client, target));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, () => resolve());
    });
    proxy = new DelayProxy(server, host, (server.address() as AddressInfo).port);
    return proxy;
  }

  /** Every chunk from now on is held this long before it is passed on (0: at once). */
  setDelay(ms: number): void {
    this.delayMs = ms;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => this.sockets.delete(socket));
      // Either side failing ends both (as a cut cable would, seen from each end in turn).
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    this.forward(client, upstream);
    this.forward(upstream, client);
  }

  /** Passes `from`'s chunks and its end to `to`, each held the delay of the moment it was read. */
  private forward(from: Socket, to: Socket): void {
    // Chunks leave in the order they came even when the delay changes between them.
    let lastDue = 0;
    const later = (work: () => void) => {
      const due = Math.max(Date.now() + this.delayMs, lastDue);
      lastDue = due;
      if (due <= Date.now()) work();
      else setTimeout(work, due - Date.now());
    };
    from.on('data', (chunk: Buffer) => later(() => !to.destroyed && to.write(chunk)));
    from.on('end', () => later(() => !to.destroyed && to.end()));
    // A clean end was passed on above; a socket that failed takes the other down (after what it sent).
    from.on('close', (hadError) => hadError && later(() => to.destroy()));
  }
}
