import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/*
 * A network partition made for real, at the network level: the agent runs in a network namespace of
 * its own (`ip netns exec`) and reaches this machine through a veth pair on private addresses of
 * this machine only; `partition()` installs nftables rules in the namespace that drop every packet
 * both ways (100 % loss: no FIN, no RST, the sockets on both ends stay open and hear nothing), and
 * `heal()` removes them. Root only; `unavailable()` says why not when it cannot run.
 */

const run = (command: string, args: string[]): string =>
  execFileSync(command, args, { encoding: 'utf8', stdio: 'pipe' });

/** Why the partition cannot be made here (not root, `ip` or `nft` missing, no namespaces), or null. */
export function partitionUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces and nftables need root';
  for (const [tool, args] of [
    ['ip', ['-V']],
    ['nft', ['--version']],
  ] as const) {
    try {
      run(tool, [...args]);
    } catch {
      return `\`${tool}\` is not installed (apt-get install iproute2 nftables)`;
    }
  }
  return null;
}

export class NetnsPartition {
  /** The namespace the agent runs in. */
  readonly netns: string;
  /** This machine's end of the veth pair: the agent dials this address. */
  readonly hostAddress: string;
  /** The namespace's end of the veth pair: what runs inside listens here, reached from this machine. */
  readonly nsAddress: string;
  private readonly hostLink: string;
  private readonly nsLink: string;
  private partitioned = false;
  private impairment: 'netem' | 'nftables' | null = null;

  private constructor(id: number) {
    this.netns = `onk-part-${id}`;
    this.hostLink = `onkh${id}`;
    this.nsLink = `onkn${id}`;
    // A /30 of its own in 10.231.0.0/16 (private, on this machine's veth only).
    const block = (id % 16_000) * 4;
    this.hostAddress = `10.231.${block >> 8}.${(block & 255) + 1}`;
    this.nsAddress = `10.231.${block >> 8}.${(block & 255) + 2}`;
  }

  /** Makes the namespace and the veth pair, the namespace's end addressed and up. */
  static create(): NetnsPartition {
    const p = new NetnsPartition(process.pid % 100_000);
    const nsLink = p.nsLink;
    const nsAddress = p.nsAddress;
    p.destroy(); // a namespace left by an earlier run of this pid
    try {
      run('ip', ['netns', 'add', p.netns]);
      run('ip', ['link', 'add', p.hostLink, 'type', 'veth', 'peer', 'name', nsLink, 'netns', p.netns]);
      run('ip', ['addr', 'add', `${p.hostAddress}/30`, 'dev', p.hostLink]);
      run('ip', ['link', 'set', p.hostLink, 'up']);
      run('ip', ['-n', p.netns, 'addr', 'add', `${nsAddress}/30`, 'dev', nsLink]);
      run('ip', ['-n', p.netns, 'link', 'set', nsLink, 'up']);
      run('ip', ['-n', p.netns, 'link', 'set', 'lo', 'up']);
    } catch (error) {
      p.destroy();
      throw error;
    }
    return p;
  }

  /** From now on every packet in or out of the namespace is dropped. */
  partition(): void {
    run('ip', [
      'netns',
      'exec',
      this.netns,
      'nft',
      [
        'add table inet onkure_partition',
        'add chain inet onkure_partition in { type filter hook input priority 0; policy drop; }',
        'add chain inet onkure_partition out { type filter hook output priority 0; policy drop; }',
      ].join('; '),
    ]);
    this.partitioned = true;
  }

  /** Packets flow again. */
  heal(): void {
    if (!this.partitioned) return;
    run('ip', ['netns', 'exec', this.netns, 'nft', 'delete table inet onkure_partition']);
    this.partitioned = false;
  }

  /**
   * Delay and loss on the namespace's traffic to and from `port` of this machine's end (a service
   * it reaches over the veth). `tc qdisc … netem delay <ms> loss <pct>%` on the namespace's link
   * when the kernel has sch_netem; that one takes the whole link, every port. Without it (this
   * machine's kernel: "Specified qdisc kind is unknown") only the loss is made here, by nftables
   * rules dropping that share of the port's packets at random each way, and the delay is the
   * caller's (a DelayProxy in front of the service): the answer says which it was.
   */
  impair(options: { readonly delayMs: number; readonly lossPercent: number; readonly port: number }): {
    readonly mechanism: 'netem' | 'nftables';
    /** Whether the delay is made here (netem); with nftables the caller adds it. */
    readonly delayed: boolean;
  } {
    this.clearImpairment();
    try {
      run('ip', [
        'netns',
        'exec',
        this.netns,
        'tc',
        'qdisc',
        'add',
        'dev',
        this.nsLink,
        'root',
        'netem',
        'delay',
        `${options.delayMs}ms`,
        'loss',
        `${options.lossPercent}%`,
      ]);
      this.impairment = 'netem';
      return { mechanism: 'netem', delayed: true };
    } catch {
      // No sch_netem in this kernel: nftables for the loss.
    }
    const share = Math.round(options.lossPercent * 100); // per 10,000
    run('ip', [
      'netns',
      'exec',
      this.netns,
      'nft',
      [
        'add table inet onkure_impair',
        'add chain inet onkure_impair in { type filter hook input priority 0; policy accept; }',
        'add chain inet onkure_impair out { type filter hook output priority 0; policy accept; }',
        `add rule inet onkure_impair in ip saddr ${this.hostAddress} tcp sport ${options.port} numgen random mod 10000 < ${share} drop`,
        `add rule inet onkure_impair out ip daddr ${this.hostAddress} tcp dport ${options.port} numgen random mod 10000 < ${share} drop`,
      ].join('; '),
    ]);
    this.impairment = 'nftables';
    return { mechanism: 'nftables', delayed: false };
  }

  /** Removes the delay and loss `impair` made; never throws. */
  clearImpairment(): void {
    const was = this.impairment;
    this.impairment = null;
    try {
      if (was === 'netem') run('ip', ['netns', 'exec', this.netns, 'tc', 'qdisc', 'del', 'dev', this.nsLink, 'root']);
      if (was === 'nftables') run('ip', ['netns', 'exec', this.netns, 'nft', 'delete table inet onkure_impair']);
    } catch {
      // gone with the namespace
    }
  }

  /** Removes the namespace (its processes must be gone) and the veth pair; never throws. */
  destroy(): void {
    for (const args of [
      ['netns', 'del', this.netns],
      ['link', 'del', this.hostLink],
    ]) {
      try {
        run('ip', args);
      } catch {
        // not there
      }
    }
  }
}

/**
 * The delay proxy (delay-proxy.ts) run inside the namespace, on its loopback, forwarding to a
 * service of this machine over the veth: what runs in the namespace dials 127.0.0.1:`port`.
 * Ends with `close()` or with this process.
 */
export class NetnsDelayProxy {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly lines: AsyncIterator<string>,
  ) {}

  static async start(netns: string, target: { host: string; port: number }): Promise<NetnsDelayProxy> {
    const child = spawn(
      'ip',
      [
        'netns',
        'exec',
        netns,
        process.execPath,
        '--import',
        'tsx',
        'test/support/delay-proxy-main.ts',
        '127.0.0.1',
        target.host,
        String(target.port),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let errors = '';
    child.stderr!.on('data', (d: Buffer) => (errors += d.toString()));
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = await Promise.race([
      lines.next(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`the namespace's delay proxy did not start: ${errors}`)), 30_000),
      ),
    ]);
    const m = /^port (\d+)$/.exec(String(first.value ?? ''));
    if (!m) {
      child.kill('SIGKILL');
      throw new Error(`the namespace's delay proxy did not start: ${String(first.value)} ${errors}`);
    }
    return new NetnsDelayProxy(child, Number(m[1]), lines);
  }

  /** Every chunk from now on is held `ms` each way (0: none); resolves once the proxy took it. */
  async setDelay(ms: number): Promise<void> {
    this.child.stdin!.write(`delay ${ms}\n`);
    const answer = await this.lines.next();
    if (answer.value !== `delay ${ms}`) throw new Error(`the delay proxy answered ${String(answer.value)}`);
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  }

  /** For an exit handler: ends it at once. */
  killNow(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
