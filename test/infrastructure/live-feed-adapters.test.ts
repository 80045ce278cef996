import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_SERVICE_DEFAULTS } from '../../src/domain';
import { FetchStillFrames, SoraRtcVideo, signalingUrl } from '../../src/infrastructure';
import { injectFetch } from '../support/inject-fetch';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';

let t: TestServer;
let cameras: TestCameras;
beforeAll(async () => {
  // Listening: station 1's front camera publishes over WHIP (the stills are made from its video).
  t = await startTestServer({ listen: true });
  cameras = await TestCameras.issue(t, [1]);
});
afterAll(async () => {
  await cameras?.stopAll();
  await t?.close();
});

describe('the still-picture adapter against the reference server', () => {
  it("[R7-9] fetches a station camera's picture as an object URL with the tick it shows, and releases it once", async () => {
    const created: Blob[] = [];
    const revoked: string[] = [];
    const urls = {
      createObjectURL: (blob: Blob) => (created.push(blob), `blob:test/${created.length}`),
      revokeObjectURL: (url: string) => void revoked.push(url),
    };
    const stills = new FetchStillFrames(injectFetch(t.server.app), urls);
    await cameras.publish(1, 'front');
    // The camera's first still (its publisher has just started), then the adapter's fetch.
    await expect
      .poll(async () => (await t.server.app.inject({ url: '/api/stations/1/camera/front.jpg' })).statusCode, {
        timeout: 10_000,
      })
      .toBe(200);
    const frame = await firstValueFrom(
      stills.fetchFrame('http://onkure.invalid/api/stations/1/camera/front.jpg?t=1763870400000'),
    );
    expect(frame).toMatchObject({ url: 'blob:test/1', tick: 0 });
    expect(created[0]!.type).toBe('image/jpeg');
    expect(created[0]!.size).toBeGreaterThan(1000);
    frame.release();
    frame.release();
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('fails (for the feed to retry) on an answer that is not a picture', async () => {
    const stills = new FetchStillFrames(injectFetch(t.server.app), URL);
    await expect(
      firstValueFrom(stills.fetchFrame('http://onkure.invalid/api/stations/999999/camera/front.jpg')),
    ).rejects.toThrow(/HTTP 404/);
  });
});

describe('the sora-js-sdk adapter', () => {
  it('[R7-8] resolves a webrtc_url that is a path against the page origin as ws/wss', () => {
    expect(signalingUrl('/signaling', 'https://onkure.example')).toBe('wss://onkure.example/signaling');
    expect(signalingUrl('/signaling', 'http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/signaling');
    expect(signalingUrl('wss://media.onkure.example:443/signaling', 'https://onkure.example')).toBe(
      'wss://media.onkure.example/signaling',
    );
  });

  it('[R4.2-6] [R9-12] opens one receive-only session per camera: video only, VP8, no audio, with the video service timeouts; a failure is an event', async () => {
    const opened: { url: string; channel: string; options: Record<string, unknown> }[] = [];
    const handlers = new Map<string, (event: unknown) => void>();
    let disconnected = 0;
    const fakeSdk = {
      default: {
        connection: (url: string) => ({
          recvonly: (channel: string, _metadata: unknown, options: Record<string, unknown>) => {
            opened.push({ url, channel, options });
            return {
              on: (kind: string, handler: (event: unknown) => void) => handlers.set(kind, handler),
              connect: async () => {
                throw new Error('signaling failed');
              },
              disconnect: async () => void (disconnected += 1),
              pc: null,
            };
          },
        }),
      },
    };
    const video = new SoraRtcVideo('https://onkure.example', async () => fakeSdk as never);
    const events: unknown[] = [];
    const sub = video
      .connect({ camera: 'front', url: '/signaling', channel: 'station-1-front' })
      .subscribe((e) => events.push(e));
    await expect.poll(() => events).toEqual([{ type: 'failed', reason: 'signaling failed' }]);
    expect(opened).toEqual([
      {
        url: 'wss://onkure.example/signaling',
        channel: 'station-1-front',
        options: {
          audio: false,
          video: true,
          videoCodecType: 'VP8',
          connectionTimeout: VIDEO_SERVICE_DEFAULTS.connectionTimeoutMs,
          disconnectWaitTimeout: 3_000,
          signalingCandidateTimeout: 3_000,
        },
      },
    ]);
    expect(VIDEO_SERVICE_DEFAULTS).toEqual({
      connectionTimeoutMs: 60_000,
      disconnectWaitMs: 3_000,
      signalingCandidateTimeoutMs: 3_000,
      iceDisconnectedTimeoutMs: 10_000,
    });
    sub.unsubscribe();
    expect(disconnected).toBe(1);
  });
});

describe('the packet-loss monitor', () => {
  it('[R9-11] samples the video statistics every 2000 ms and only logs what was lost', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    const logged: string[] = [];
    // Only the loss lines: the adapter also logs each connection's timeouts once.
    const info = vi
      .spyOn(console, 'info')
      .mockImplementation((line: string) => void (line.includes(' lost ') && logged.push(line)));
    let lost = 0;
    const pc = {
      getStats: async () =>
        new Map([['v', { type: 'inbound-rtp', kind: 'video', packetsLost: lost, packetsReceived: 1000 }]]),
    };
    const fakeSdk = {
      default: {
        connection: () => ({
          recvonly: () => ({
            on: () => undefined,
            connect: async () => undefined,
            disconnect: async () => undefined,
            pc,
          }),
        }),
      },
    };
    const video = new SoraRtcVideo('https://onkure.example', async () => fakeSdk as never);
    const events: unknown[] = [];
    const sub = video.connect({ camera: 'side', url: '/signaling', channel: 'c' }).subscribe((e) => events.push(e));
    await vi.advanceTimersByTimeAsync(0);
    lost = 3;
    await vi.advanceTimersByTimeAsync(1999);
    expect(logged).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(logged).toEqual(['onkure: side video lost 3 packets (1000 received)']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(logged).toHaveLength(1); // nothing new lost: nothing logged
    expect(events).toEqual([]); // logging only: the feed is not told
    sub.unsubscribe();
    info.mockRestore();
    vi.useRealTimers();
  });
});
