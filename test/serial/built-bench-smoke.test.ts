import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectRan, printRunTimesAfterAll, ROOT, tsx } from '../support/bench-run';

/**
 * The bench scripts that load the built app or Chromium, at their smallest sizes (issue 46,
 * "benchmarks that cannot rot"; test/bench/bench-smoke.test.ts runs the others). npm test runs this
 * folder after its build (`npm run test:serial`), so bench:feed and bench:web use that build
 * (`dist/client`) instead of making one of their own. Each must exit 0 having printed its result
 * lines; bench:web runs with --budgets=report (one Lighthouse run is not a measurement of its
 * Lighthouse budgets: a plain `npm run bench:web`, three runs, is; its initial-JavaScript budget
 * and its throughput answers still fail it).
 */
printRunTimesAfterAll();

describe('the bench scripts that need the build run at their smallest size', () => {
  it('the build is there (npm test builds before this folder)', () => {
    expect(existsSync(join(ROOT, 'dist/client/index.html'))).toBe(true);
  });

  it('bench:feed', async () => {
    const run = await tsx(
      'bench:feed',
      'bench/feed.ts',
      ['1', '--viewers=1', '--warmup=500', '--window=1000'],
      150_000,
    );
    expectRan(run, [
      /live feed — station \d+, \d+ plays and \d+ commands per mode/,
      /rtc\s+shown\s+p50\s+[\d.]+ ms/,
      /jpg\s+shown\s+p50\s+[\d.]+ ms/,
      /rtc join → first keyframe/,
      /drawing one picture: [\d.]+ ms as a 480×360 JPEG/,
    ]);
  }, 160_000);

  it('bench:spectators', async () => {
    const run = await tsx(
      'bench:spectators',
      'bench/spectators.ts',
      ['--clients=2', '--seconds=1', '--latency-seconds=1', '--latency-crowd=2', '--ramp=200'],
      120_000,
    );
    expectRan(run, [
      /spectators — station \d+'s front camera as LL-HLS/,
      /2 players \d+ s: origin requests per part max \d+/,
      /glass to glass in Chromium .*p50 [\d.]+ ms/,
      /the benchmark ran \d+ s/,
    ]);
  }, 130_000);

  it('bench:ingest', async () => {
    const run = await tsx(
      'bench:ingest',
      'bench/ingest.ts',
      ['--viewers=1', '--warmup=300', '--window=1000', '--delay-window=1000', '--hls-idle=0'],
      90_000,
    );
    expectRan(run, [
      /join → first keyframe \(ms\)/,
      /forwarding delay: publisher writes a frame → a viewer receives it/,
      /both cameras published, no spectators: /,
      /the VP8 camera's HLS \(encoded once\)/,
    ]);
  }, 100_000);

  it('bench:web', async () => {
    const run = await tsx(
      'bench:web',
      'bench/web.ts',
      ['1', '--only=top,play screen', '--reuse-build', '--load-ms=500', '--budgets=report'],
      120_000,
    );
    expectRan(run, [
      /Lighthouse, mobile preset \(simulated throttling\), median of 1 runs/,
      /^top\s+\d+\s+\d+\s+[\d.]+\s+\d+/m,
      /^play screen\s+\d+\s+\d+\s+[\d.]+\s+\d+/m,
      /budgets: score ≥ \d+ (ok|MISSED), LCP/,
      /Server throughput, 16 concurrent clients/,
      /server-rendered top page \(GET \/\)\s+\d+ req\/s\s+p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms$/m,
      /JSON top page \(POST \/api\/contents\/top_page_prize\)\s+\d+ req\/s\s+p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms$/m,
    ]);
    expect(run.output).not.toMatch(/throughput answers were not 200/);
  }, 130_000);
});
