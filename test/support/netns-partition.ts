import { execFileSync } from 'node:child_process';

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
  private readonly hostLink: string;
  private partitioned = false;

  private constructor(id: number) {
    this.netns = `onk-part-${id}`;
    this.hostLink = `onkh${id}`;
    // A /30 of its own in 10.231.0.0/16 (private, on this machine's veth only).
    const block = (id % 16_000) * 4;
    this.hostAddress = `10.231.${block >> 8}.${(block & 255) + 1}`;
  }

  /** Makes the namespace and the veth pair, the namespace's end addressed and up. */
  static create(): NetnsPartition {
    const p = new NetnsPartition(process.pid % 100_000);
    const nsLink = `onkn${process.pid % 100_000}`;
    const nsAddress = p.hostAddress.replace(/\d+$/, (last) => String(Number(last) + 1));
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
