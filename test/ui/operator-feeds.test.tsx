/** @vitest-environment jsdom */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATOR_TOKENS,
  type FloorFeedEvent,
  type OperatorFloorFeedPort,
  type OperatorSession,
} from '../../src/application/operator';
import type { JoinAck } from '../../src/contract';
import { SessionStorageOperatorToken } from '../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { createOperatorContainer } from '../../src/main/operator-container';
import { OperatorConsoleApp } from '../../src/ui/operator/operator-app';
import { injectFetch } from '../support/inject-fetch';
import { useNodeUint8Array } from '../support/node-uint8array';
import { playerCaller, playToResult, untilTurn, type PlayerCall } from '../support/moving-play';
import { connectSocket, type TestSocket } from '../support/socket-client';
import { playableStation } from '../support/stations';
import { TestCameras } from '../support/test-cameras';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * The floor's spectators and recordings (issue 44) in jsdom over the real container and the
 * reference server: pages (real socket.io clients) report what they show and the card counts them
 * by kind; a camera publishing ffmpeg's test pattern over WHIP shows what the origin serves; a real
 * play on the station's agent is recorded, the card says so and counts its clip, and the play log
 * shows the clip beside the play's settings. Time is real (the console reads every 2 s): every wait
 * is on what the page shows.
 */

const PASSWORD = 'feed-panel-password';
const SHOWN = { timeout: 15_000 };
const noFeed: OperatorFloorFeedPort = { watch: () => new Subject<FloorFeedEvent>() };

useNodeUint8Array();

let t: TestServer;
let stationId: number;
let cameras: TestCameras;
let alice: TestUser;
const sockets: TestSocket[] = [];
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true });
  await t.server.services().operators.add('feedfloor', '観戦 フロア', 'floor', PASSWORD);
  ({ station_id: stationId } = await playableStation(t));
  cameras = await TestCameras.issue(t, [stationId]);
  alice = await createTestUser(t, {}, { freeTc: 10_000 });
}, 120_000);
afterEach(async () => {
  cleanup();
  for (const socket of sockets.splice(0)) socket.close();
  window.history.replaceState(null, '', '/');
});
afterAll(async () => {
  await cameras?.stopAll();
  await t?.close();
});

async function openFloor() {
  const container = createOperatorContainer(
    { apiBase: t.apiBase, fetch: injectFetch(t.server.app), realtimeUrl: '' },
    { tokens: new SessionStorageOperatorToken(null), feed: noFeed },
  );
  const session = container.get<OperatorSession>(OPERATOR_TOKENS.OperatorSession);
  expect(await session.signIn('feedfloor', PASSWORD), JSON.stringify(session.snapshot)).toBe(true);
  window.history.pushState({}, '', '/operator/floor');
  const user = userEvent.setup();
  render(<OperatorConsoleApp container={container} />);
  const heading = await screen.findByRole('heading', { level: 2, name: new RegExp(`^#${stationId} `) }, SHOWN);
  return { user, card: heading.closest('li')! };
}

const text = (card: HTMLElement, testId: string) => within(card).getByTestId(testId).textContent ?? '';

/** A page on the station (a guest unless `user`) that says it shows `kind`. */
async function page(kind: 'hls' | 'rtc' | 'jpg', user?: TestUser): Promise<TestSocket> {
  const socket = await connectSocket(t.origin, user, sockets);
  await new Promise<JoinAck>((resolve) => socket.emit('join', `station:${stationId}`, resolve));
  const answer = await new Promise<JoinAck>((resolve) =>
    socket.emit('watching', { station_id: stationId, kind }, resolve),
  );
  expect(answer).toEqual({ ok: true });
  return socket;
}

const caller = (u: TestUser): PlayerCall => playerCaller(t.apiBase, u);

describe('the floor’s spectators and recordings', { timeout: 120_000 }, () => {
  it('shows the station’s spectators by kind (観戦(HLS) / リアルタイム(rtc) / 静止画(jpg)) as pages come and go, and what the origin serves of each camera', async () => {
    const { card } = await openFloor();
    await waitFor(
      () => expect(text(card, 'op-spectators')).toBe('観戦(HLS) 0 ・ リアルタイム(rtc) 0 ・ 静止画(jpg) 0 （計 0）'),
      SHOWN,
    );
    const leaving = await page('hls');
    await page('hls');
    await page('rtc', alice);
    await page('jpg');
    await waitFor(
      () => expect(text(card, 'op-spectators')).toBe('観戦(HLS) 2 ・ リアルタイム(rtc) 1 ・ 静止画(jpg) 1 （計 4）'),
      SHOWN,
    );
    leaving.close();
    await waitFor(() => expect(text(card, 'op-spectators')).toContain('観戦(HLS) 1 ・'), SHOWN);

    // The origin: the camera publishes, a spectator's player asks for its HLS, a jpg page for stills.
    await cameras.publish(stationId, 'front');
    await waitFor(() => expect(text(card, 'op-origin-front')).toMatch(/^rtc 0 接続 ・ HLS 停止中 ・ /), SHOWN);
    // A spectator's player asks again on a 503, as HLS clients do: on a loaded machine ffmpeg's first
    // part can come after the held request's end (CI saw one 503 here).
    await expect
      .poll(async () => {
        const playlist = await fetch(`${t.origin}/api/stations/${stationId}/hls/front/index.m3u8`);
        await playlist.arrayBuffer();
        return playlist.status;
      }, SHOWN)
      .toBe(200);
    await waitFor(() => expect(text(card, 'op-origin-front')).toMatch(/HLS 変換中 [\d.]+ 件\/秒/), SHOWN);
    expect(text(card, 'op-origin-side')).toBe('視聴なし・配信なし');
    await cameras.stopAll();
  });

  it('[R11-5] a play is shown recording, then its clip counted ready; the play log shows that clip’s videos beside the play’s settings', async () => {
    await cameras.publish(stationId, 'front', { size: '640x360', kbps: 800 });
    await cameras.publish(stationId, 'side', { size: '640x360', kbps: 800 });
    const feed = t.server.services().rtcFeed;
    await expect
      .poll(() => ['front', 'side'].every((c) => feed.existing(stationId, c as 'front')?.hasVideo), SHOWN)
      .toBe(true);
    const { user, card } = await openFloor();
    await waitFor(() => expect(text(card, 'op-recording')).toBe('録画していません'), SHOWN);

    const a = caller(alice);
    expect((await a('v2/play/reserve', { station_id: stationId })).error_code).toBe(200);
    await untilTurn(a, stationId);
    const { playId } = await playToResult(a, stationId, () =>
      waitFor(() => expect(text(card, 'op-recording')).toBe('録画中（正面カメラ・側面カメラ）'), SHOWN),
    );
    await waitFor(
      () => expect(text(card, 'op-clips')).toMatch(/^直近\d+プレイ：完成 [1-9]\d* ・ 失敗 0 ・ 録画中 0/),
      SHOWN,
    );
    await waitFor(() => expect(text(card, 'op-recording')).toBe('録画していません'), SHOWN);

    // The play log: the play's row offers its clip; the clip shows both cameras beside the settings.
    await user.click(within(card).getByRole('button', { name: 'プレイログ' }));
    const log = await screen.findByTestId('op-playlog', {}, SHOWN);
    const open = await within(log).findByRole('button', { name: `プレイ #${playId} の動画` }, SHOWN);
    await user.click(open);
    const pane = await within(log).findByTestId('op-playlog-clip-pane');
    expect(within(pane).getByRole('heading', { name: `プレイ #${playId} の動画と設定` })).toBeTruthy();
    const front = (await within(pane).findByLabelText(
      `プレイ #${playId} の正面カメラの映像`,
      {},
      SHOWN,
    )) as HTMLVideoElement;
    const side = within(pane).getByLabelText(`プレイ #${playId} の側面カメラの映像`) as HTMLVideoElement;
    expect(front.tagName).toBe('VIDEO');
    expect(front.controls).toBe(true);
    const settings = within(pane).getByTestId('op-clip-settings').textContent ?? '';
    const [entry] = await t.server
      .store()
      .query<{ seed: number; arm_strength: number }>('SELECT seed, arm_strength FROM plays WHERE play_id = $1', [
        playId,
      ]);
    expect(settings).toContain(String(entry!.seed));
    expect(settings).toContain(Number(entry!.arm_strength).toFixed(2));
    expect(settings).toContain(`#${alice.user_id}`);
    // The videos' addresses are the server's signed ones: each answers its WebM to anyone holding it.
    for (const video of [front, side]) {
      const src = video.getAttribute('src')!;
      expect(src).toMatch(/^\/api\/clips\/[A-Za-z0-9_-]{22}\/(front|side)\.webm\?e=\d+&k=/);
      const res = await fetch(`${t.origin}${src}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/webm');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    await user.click(within(pane).getByRole('button', { name: '動画を閉じる' }));
    expect(within(log).queryByTestId('op-playlog-clip-pane')).toBeNull();
    await cameras.stopAll();
  });
});
