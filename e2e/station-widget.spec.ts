import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { debugLogin, stationFor } from './support/players';

/**
 * The second UI (issue 47): examples/station-widget, a Web Component built from the packed onkure
 * package alone, on a partner's page served from another origin (the next port; the service allows
 * it through ALLOWED_ORIGINS, playwright.config.ts).
 */
const root = resolve(import.meta.dirname, '..');
const servicePort = Number(process.env.E2E_PORT ?? 4319);
const partnerOrigin = `http://127.0.0.1:${servicePort + 1}`;
const apiBase = `http://127.0.0.1:${servicePort}/api/`;

let folder: string;
let partner: Server;
let bundled: string[] = [];

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript' };

test.beforeAll(async () => {
  // Packing, installing and building take longer than a test's own steps.
  test.setTimeout(240_000);
  const pkgDir = join(root, 'packages/onkure');
  if (!existsSync(join(pkgDir, 'dist/infrastructure.js'))) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'onkure'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`the package's build failed:\n${build.stderr}`);
  }
  // The examples folder as a partner has it, with the package installed from its tarball and
  // nothing else of this repository.
  folder = mkdtempSync(join(tmpdir(), 'onkure-widget-'));
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], {
    cwd: pkgDir,
    encoding: 'utf8',
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  const { filename } = (JSON.parse(packed.stdout) as { filename: string }[])[0]!;
  const examples = join(folder, 'examples');
  cpSync(join(root, 'examples'), examples, {
    recursive: true,
    filter: (src) => !/node_modules|dist|meta\.json/.test(src),
  });
  const install = spawnSync(
    'npm',
    ['install', `../${filename}`, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: examples, encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  const widget = join(examples, 'station-widget');
  const build = spawnSync(process.execPath, ['build.mjs'], { cwd: widget, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the widget's build failed:\n${build.stderr}`);
  const meta = JSON.parse(readFileSync(join(widget, 'meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
  bundled = Object.keys(meta.inputs);
  // No React anywhere: not installed (an optional peer of onkure), so nothing of it can be bundled.
  expect(existsSync(join(examples, 'node_modules/react'))).toBe(false);

  const dist = join(widget, 'dist');
  partner = createServer((request, response) => {
    const path = new URL(request.url ?? '/', partnerOrigin).pathname;
    const name = path === '/' ? 'index.html' : path.slice(1);
    if (!readdirSync(dist).includes(name)) {
      response.writeHead(404).end();
      return;
    }
    let body = readFileSync(join(dist, name));
    // The partner's page names the service it embeds: here, the e2e server.
    if (name === 'index.html') body = Buffer.from(body.toString().replaceAll('http://localhost:8080/api/', apiBase));
    response.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((done) => partner.listen(servicePort + 1, '127.0.0.1', done));
});

test.afterAll(async () => {
  await new Promise<void>((done) => (partner ? partner.close(() => done()) : done()));
  if (folder) rmSync(folder, { recursive: true, force: true });
});

test.describe('the station widget on a partner page, from the packed package (issue 47)', () => {
  test("shows a station's moving picture, its status and its live line length, with a link to play, and no React", async ({
    page,
    request,
  }, testInfo) => {
    testInfo.setTimeout(90_000);
    const project = testInfo.project.name;
    // The seed has 22 such stations and every one is some spec's; this one is play.spec's guest
    // reserve test's (index 7, both projects), which has run when this file runs (alphabetical
    // order). The line is read, not assumed empty; the place taken here is given back at the end.
    const station = await stationFor(request, 7);
    expect(bundled.some((input) => input.includes('node_modules/onkure/dist/'))).toBe(true);
    expect(bundled.filter((input) => /node_modules\/(react|react-dom|react-router)\//.test(input))).toEqual([]);

    await page.goto(`${partnerOrigin}/`);
    // The page shows the station this test owns (the example's page shows stations 1 and 2).
    await page.evaluate(
      ({ id, base }) => {
        for (const shown of document.querySelectorAll('onkure-station')) shown.remove();
        const widget = document.createElement('onkure-station');
        widget.setAttribute('station-id', String(id));
        widget.setAttribute('api-base', base);
        document.querySelector('.stations')!.append(widget);
      },
      { id: station, base: apiBase },
    );
    const widget = page.locator('onkure-station');

    // The status and the line, then the picture: a still from the service, then newer ones.
    await expect(widget.getByRole('status')).toHaveText('営業中');
    await expect(widget.locator('.line')).toHaveText(/^待ち \d+人$/);
    const before = Number(await widget.locator('.line').getAttribute('data-count'));
    const picture = widget.getByRole('img');
    await expect(picture).toHaveAttribute('src', /^blob:/);
    await expect(picture).toHaveAccessibleName(/のライブ映像$/);
    // Moving: the pixels shown change (the idle machine's tick stays 0; its camera keeps painting).
    const pixels = () =>
      picture.evaluate((img: HTMLImageElement) => {
        const canvas = document.createElement('canvas');
        [canvas.width, canvas.height] = [64, 48];
        const context = canvas.getContext('2d')!;
        context.drawImage(img, 0, 0, 64, 48);
        return Array.from(context.getImageData(0, 0, 64, 48).data).join(',');
      });
    const first = await pixels();
    await expect.poll(pixels, { timeout: 15_000 }).not.toBe(first);
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // A player takes a place on the service: the partner's page hears of it, pushed.
    const player = await debugLogin(request, `widget-${project}`);
    try {
      const reserve = await request.post('/api/v2/play/reserve', { data: { ...player, station_id: station } });
      expect(((await reserve.json()) as { error_code: number }).error_code).toBe(200);
      await expect(widget.locator('.line')).toHaveText(`待ち ${before + 1}人`);
      await expect(widget.getByRole('link', { name: 'このステーションで遊ぶ' })).toHaveAttribute(
        'href',
        `http://127.0.0.1:${servicePort}/game/${station}`,
      );

      // No React on the page: nothing of it was bundled, and no React root or global exists.
      expect(
        await page.evaluate(() => ({
          globals: ['React', 'ReactDOM', '__REACT_DEVTOOLS_GLOBAL_HOOK__'].filter((name) => name in window),
          roots: [...document.querySelectorAll('*')].filter((el) =>
            Object.keys(el).some((k) => k.startsWith('__react')),
          ).length,
        })),
      ).toEqual({ globals: [], roots: 0 });

      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `e2e/screenshots/station-widget-${project}.png`, fullPage: true });
    } finally {
      await request.post('/api/v2/play/reserve_cancel', { data: { ...player, station_id: station } });
    }
  });
});
