import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process';

/** Debian's `prometheus` package (installed by .ci/run with promtool). */
const PROMETHEUS = '/usr/bin/prometheus';

/** One alert as Prometheus' /api/v1/alerts answers it. */
export interface ActiveAlert {
  readonly labels: Readonly<Record<string, string>>;
  readonly state: 'pending' | 'firing';
  readonly value: string;
}

/**
 * An alert's name and its distinguishing labels, as the tests name alerts: `OnkureNoLeader`,
 * `OnkureInstanceDown{instance=127.0.0.1:4012}`. `severity` and `job` are left out (the same on every one).
 */
export function alertKey(alert: { readonly labels: Readonly<Record<string, string>> }): string {
  const { alertname, severity: _severity, job: _job, ...rest } = alert.labels;
  const labels = Object.entries(rest)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  return labels.length > 0 ? `${alertname}{${labels.join(',')}}` : String(alertname);
}

/**
 * The rules of `rulesFile` with every `for:` made `forDuration`: the tests provoke each condition
 * for real and wait seconds, not minutes (the `for` semantics are promtool's unit cases,
 * ops/prometheus/alerts.test.yml). Nothing else of a rule changes; throws if no `for:` was found.
 */
export function rulesWithShortFor(rulesFile: string, forDuration = '1s'): string {
  const text = readFileSync(rulesFile, 'utf8');
  let changed = 0;
  const out = text.replace(/^(\s+for: )\S+$/gm, (_line, head: string) => {
    changed += 1;
    return `${head}${forDuration}`;
  });
  if (changed === 0) throw new Error(`no "for:" in ${rulesFile}`);
  return out;
}

/**
 * A real Prometheus for a test: scrape and rule evaluation every second, the given rules, the
 * `onkure` job over `targets`, on an ephemeral port of 127.0.0.1 with a temporary storage folder.
 * `setTargets` rewrites the configuration and reloads it; `stop` kills it and removes the folder.
 */
export class TestPrometheus {
  private log = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly origin: string,
  ) {
    child.stderr!.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-8000)));
  }

  static async start(rules: string, targets: readonly string[]): Promise<TestPrometheus> {
    const dir = mkdtempSync(join(tmpdir(), 'onkure-prometheus-'));
    writeFileSync(join(dir, 'rules.yml'), rules);
    writeFileSync(join(dir, 'prometheus.yml'), TestPrometheus.config(targets));
    const port = await freePort();
    const child = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--web.enable-lifecycle',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const prometheus = new TestPrometheus(child, dir, `http://127.0.0.1:${port}`);
    try {
      await prometheus.until('Prometheus ready', async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited: ${prometheus.log}`);
        return (await fetch(`${prometheus.origin}/-/ready`).catch(() => null))?.status === 200;
      });
    } catch (error) {
      await prometheus.stop();
      throw error;
    }
    return prometheus;
  }

  private static config(targets: readonly string[]): string {
    return [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      '  evaluation_interval: 1s',
      'rule_files: [rules.yml]',
      'scrape_configs:',
      '  - job_name: onkure',
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
      '',
    ].join('\n');
  }

  /** Scrapes `targets` from now on (the configuration rewritten and reloaded). */
  async setTargets(targets: readonly string[]): Promise<void> {
    writeFileSync(join(this.dir, 'prometheus.yml'), TestPrometheus.config(targets));
    const reload = await fetch(`${this.origin}/-/reload`, { method: 'POST' });
    if (reload.status !== 200) throw new Error(`reload: ${reload.status} ${await reload.text()}`);
  }

  private async api<T>(path: string): Promise<T> {
    const res = await fetch(`${this.origin}/api/v1/${path}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? res.status}`);
    return body.data;
  }

  /** Every alert pending or firing now. */
  async alerts(): Promise<ActiveAlert[]> {
    return (await this.api<{ alerts: ActiveAlert[] }>('alerts')).alerts;
  }

  /** The scrape targets as Prometheus sees them. */
  async targets(): Promise<{ scrapeUrl: string; health: string; lastScrape: string }[]> {
    return (await this.api<{ activeTargets: { scrapeUrl: string; health: string; lastScrape: string }[] }>('targets'))
      .activeTargets;
  }

  /** When the rule group was last evaluated (ms since the epoch), 0 before its first evaluation. */
  async lastEvaluation(): Promise<number> {
    const { groups } = await this.api<{ groups: { lastEvaluation: string }[] }>('rules');
    return Math.min(...groups.map((g) => Date.parse(g.lastEvaluation) || 0));
  }

  /** An instant query's samples. */
  async query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    return (
      await this.api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
        `query?query=${encodeURIComponent(expr)}`,
      )
    ).result;
  }

  /** Polls `check` every 100 ms until it answers true; throws after `timeoutMs` with `what`. */
  async until(
    what: string | (() => Promise<string>),
    check: () => Promise<boolean>,
    timeoutMs = 20_000,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await check()) return;
      if (Date.now() > deadline)
        throw new Error(`${typeof what === 'string' ? what : await what()} (not within ${timeoutMs} ms)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Kills Prometheus (SIGKILL: its data is thrown away) and removes its folder. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
