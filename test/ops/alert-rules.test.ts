import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerMetrics } from '../../server/metrics/server-metrics';
import { startTestServer } from '../support/test-server';

/**
 * Issue 46: the alert rules and the dashboard in ops/ are checked by promtool (Debian's
 * `prometheus` package, installed by .ci/run) and name only series the server exports.
 */
const RULES = 'ops/prometheus/alerts.yml';
const CASES = 'ops/prometheus/alerts.test.yml';
const DASHBOARD = 'ops/grafana/onkure-dashboard.json';
const PROMTOOL = '/usr/bin/promtool';

const promtool = (...args: string[]) => spawnSync(PROMTOOL, args, { encoding: 'utf8', cwd: process.cwd() });

/** The metric names a PromQL expression reads (identifiers followed by a selector or range, not functions). */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  const functions =
    /\b(sum|max|min|count|rate|increase|histogram_quantile|clamp_min|vector|by|on|and|or|unless|without|changes|avg)\b/;
  return [
    ...withoutStrings.matchAll(
      /\b([a-z_][a-z0-9_]*)\b(?=\s*(\{|\[|\)|\s*[<>=!]|\s*$|\s*\*|\s*\/|\s*unless|\s*and|\s*or))/g,
    ),
  ]
    .map((m) => m[1]!)
    .filter(
      (name) =>
        !functions.test(name) &&
        /_/.test(name) &&
        !/^(le|station_id|instance_id|kind|status|hop|route|event|outcome|state|currency|result|camera)$/.test(name),
    );
}

describe('alert rules and dashboard (issue 46)', () => {
  it('promtool checks the rules and every alert fires on its case and stays quiet on the healthy ones', () => {
    const check = promtool('check', 'rules', RULES);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const cases = promtool('test', 'rules', CASES);
    expect(cases.status, cases.stdout + cases.stderr).toBe(0);
    // Each alert has a case that expects it to fire.
    const alerts = [...readFileSync(RULES, 'utf8').matchAll(/- alert: (\w+)/g)].map((m) => m[1]!);
    const tested = readFileSync(CASES, 'utf8');
    for (const alert of alerts)
      expect(tested, alert).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels`));
  });

  it('the check fails on a broken rule and on an alert that does not fire as its case says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'onkure-rules-'));
    try {
      writeFileSync(
        join(dir, 'bad.yml'),
        'groups:\n  - name: x\n    rules:\n      - alert: Bad\n        expr: sum(rate(x[5m]) > \n',
      );
      expect(promtool('check', 'rules', join(dir, 'bad.yml')).status).not.toBe(0);
      // The real rules with a case whose healthy series would have to fire: promtool says no.
      writeFileSync(join(dir, 'alerts.yml'), readFileSync(RULES));
      writeFileSync(
        join(dir, 'cases.yml'),
        [
          'rule_files: [alerts.yml]',
          'tests:',
          '  - interval: 1m',
          '    input_series:',
          '      - series: \'onkure_leader{instance_id="a"}\'',
          "        values: '1 1 1 1 1'",
          '    alert_rule_test:',
          '      - eval_time: 4m',
          '        alertname: OnkureNoLeader',
          '        exp_alerts:',
          '          - exp_labels: { severity: page }',
        ].join('\n'),
      );
      const run = spawnSync(PROMTOOL, ['test', 'rules', 'cases.yml'], { encoding: 'utf8', cwd: dir });
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/FAILED/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the rules and the dashboard read only series the server exports', async () => {
    const t = await startTestServer({ env: { METRICS_TOKEN: 'metrics-token-for-tests-0123456789' } });
    let exported: Set<string>;
    try {
      const text = (
        await t.server.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: 'Bearer metrics-token-for-tests-0123456789' },
        })
      ).body;
      // Every family, with the series a histogram or summary adds.
      const families = [...text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((m) => [m[1]!, m[2]!] as const);
      exported = new Set(
        families.flatMap(([name, type]) =>
          type === 'histogram' ? [name, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
        ),
      );
    } finally {
      await t.close();
    }
    expect(exported.has('onkure_http_requests_total')).toBe(true);
    const rules = readFileSync(RULES, 'utf8');
    const ruleExprs = [...rules.matchAll(/expr: (?:\|\n((?:\s{10,}.*\n)+)|(.*))/g)].map((m) => m[1] ?? m[2] ?? '');
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const dashboardExprs = dashboard.panels.flatMap((p) => p.targets.map((target) => target.expr));
    expect(dashboard.panels.length).toBeGreaterThan(10);
    const unknown = [...ruleExprs, ...dashboardExprs]
      .flatMap(metricNames)
      .filter((name) => name !== 'up' && !exported.has(name));
    expect([...new Set(unknown)]).toEqual([]);
    // A name the server does not export is caught.
    expect(metricNames('sum(rate(onkure_no_such_total[5m]))').filter((n) => !exported.has(n))).toEqual([
      'onkure_no_such_total',
    ]);
    // The metrics class names what the rules read.
    expect(new ServerMetrics('x').registry.getSingleMetric('onkure_station_plays_total')).toBeDefined();
  });
});
