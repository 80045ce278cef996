import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RtcViewer } from '../support/rtc-viewer';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A camera publisher this project did not write [R11-4]: GStreamer's webrtcbin (Debian 12's 1.22,
 * which has no whipsink) sends its moving test pattern in VP8 to the WHIP endpoint over a real
 * port, driven by a small Python script (test/support/gst-whip-publisher.py) that only does the
 * WHIP HTTP calls. Its video reaches a werift viewer on the Sora-compatible signaling. Needs
 * GStreamer and python3-gi (.ci/run installs them): without them the test fails, it does not skip.
 */

const SCRIPT = fileURLToPath(new URL('../support/gst-whip-publisher.py', import.meta.url));
/** Debian's python3-gi is for Debian's interpreter, which a pyenv or venv python3 on PATH may hide. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const PACKAGES =
  'gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-nice ' +
  'python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 gir1.2-gst-plugins-bad-1.0';
/** The publisher stops itself after this long whatever happens to the test (a bound, not a wait). */
const PUBLISHER_MAX_SECONDS = 120;

/** The GStreamer publisher's process: its output so far, and its exit. */
class GstWhipPublisher {
  stdout = '';
  stderr = '';
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      });
      child.once('error', (error) => {
        this.stderr += `\nspawn ${PYTHON}: ${error.message}`;
        this.exit ??= { code: null, signal: null };
        resolve();
      });
    });
  }

  /** Starts it (its standard input stays open: the script stops when the test process goes away). */
  static start(endpoint: string, key: string): GstWhipPublisher {
    const child = spawn(PYTHON, [SCRIPT, endpoint, key, String(PUBLISHER_MAX_SECONDS)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new GstWhipPublisher(child);
  }

  /** The session URL once the endpoint answered 201; throws with the script's stderr if it exited first. */
  async session(ms: number): Promise<URL> {
    const started = performance.now();
    for (;;) {
      const line = /^WHIP 201 (\S+)$/m.exec(this.stdout);
      if (line) return new URL(line[1]!);
      if (this.exit) throw new Error(this.failure());
      if (performance.now() - started > ms) throw new Error(`no WHIP 201 in ${ms} ms.\n${this.failure()}`);
      await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
  }

  failure(): string {
    const exit = this.exit ? `exited ${this.exit.code ?? this.exit.signal}` : 'still running';
    const missing =
      this.exit?.code === 3 || /ENOENT|No module named/.test(this.stderr)
        ? `\nGStreamer or python3-gi is missing: apt-get install -y --no-install-recommends ${PACKAGES}`
        : '';
    return `the GStreamer WHIP publisher (${PYTHON} ${SCRIPT}) ${exit}${missing}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`;
  }

  /** SIGTERM (it DELETEs its session and exits), SIGKILL if it has not exited within `ms`. */
  async stop(ms = 8_000): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
    const killed = await Promise.race([this.exited.then(() => false), late]);
    clearTimeout(timer);
    if (killed) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

let t: TestServer;
let signaling: string;
let station = 0;
let key = '';
beforeAll(async () => {
  t = await startTestServer({ listen: true });
  signaling = `${t.origin.replace('http:', 'ws:')}/signaling`;
  const [row] = await t.server
    .store()
    .query<{ station_id: number }>(
      "SELECT station_id FROM stations WHERE station_type = 'normal' AND station_status = 'open' ORDER BY station_id LIMIT 1",
    );
  station = row!.station_id;
  key = (await t.server.services().stationKeys.issue({ name: 'gstreamer', stationIds: [station], by: 'test' })).key;
});
afterAll(async () => t?.close());

const publishers: GstWhipPublisher[] = [];
const viewers: RtcViewer[] = [];
afterEach(async () => {
  await Promise.all(viewers.splice(0).map((v) => v.close()));
  await Promise.all(publishers.splice(0).map((p) => p.stop()));
});

const stats = () =>
  t.server
    .services()
    .rtcFeed.cameraStats()
    .find((s) => s.station_id === station && s.camera === 'front');

describe('[R11-4] cameras from WHIP publishers other than the project’s own', () => {
  it('[R11-4] a publisher this project did not write: GStreamer webrtcbin publishes VP8 over WHIP, a viewer receives its keyframes and frames, SIGTERM DELETEs the session', async () => {
    const publisher = GstWhipPublisher.start(`${t.origin}/whip/${station}/front`, key);
    publishers.push(publisher);
    const resource = await publisher.session(20_000);
    expect(resource.origin).toBe(t.origin);
    expect(resource.pathname).toMatch(new RegExp(`^/whip/${station}/front/[\\w-]{22}$`));
    expect(t.server.services().ingest.count).toBe(1);
    // webrtcbin's offer only sends video (its transceiver set sendonly), in VP8.
    expect(publisher.stdout).toMatch(/^WHIP offer video sendonly VP8$/m);

    // (A failure shows what the publisher printed: webrtcbin's connection states, its errors.)
    await expect
      .poll(() => stats(), { timeout: 15_000, message: 'the camera publishes VP8 at more than 10 fps' })
      .toMatchObject({ publishing: true, codec: 'VP8', source: 'whip', fps: expect.toSatisfy((n) => n > 10) })
      .catch((error: Error) => {
        error.message += `\n${publisher.failure()}`;
        throw error;
      });

    const viewer = await RtcViewer.connect(signaling, `station-${station}-front`);
    viewers.push(viewer);
    await expect
      .poll(() => ({ keyframes: viewer.keyframes, frames: viewer.frames }), {
        timeout: 10_000,
        message: 'the viewer gets a keyframe and more than 30 frames of the publisher’s',
      })
      .toEqual({ keyframes: expect.toSatisfy((n) => n >= 1), frames: expect.toSatisfy((n) => n > 30) });
    // Its first frame is a keyframe: packets written before its media connected are not counted as
    // its start (the channel starts it again at the next keyframe, asked for when it connects).
    expect(viewer.frameLog[0]?.keyframe).toBe(true);
    expect(stats()).toMatchObject({ viewers: 1, live: true });
    expect(stats()!.kbps).toBeGreaterThan(20);

    // SIGTERM: the script DELETEs its session (200) and exits 0; the camera has no publisher left.
    await publisher.stop();
    expect(publisher.exit, publisher.failure()).toEqual({ code: 0, signal: null });
    expect(publisher.stdout).toMatch(/^WHIP DELETE 200$/m);
    expect(t.server.services().ingest.count).toBe(0);
    await expect.poll(() => stats()?.source ?? null, { timeout: 5_000 }).toBeNull();
  }, 60_000);
});
