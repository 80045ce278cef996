import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDeletePreviewResponseSchema, clipResponseSchema, historyResponseSchema } from '../../src/contract';
import { OPERATOR_AUTH_HEADER, operatorStationFeedsResponseSchema } from '../../src/contract/operator.schema';
import { CLIP_RETENTION_MS, MAX_RECORDING_MS, PlayClips } from '../../server/clips/play-clips';
import { ManualServerClock } from '../support/manual-server-clock';
import { PlayDriver } from '../support/play-driver';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/**
 * What happens to clips over time and with their player (docs/clips.md) [R11-5], on a manual clock:
 * real plays on a station nobody films (their clips fail for want of video), then clips made ready
 * in the store with files in the clips folder, as a recording leaves them. The leader's retention
 * removes expired unkept clips and the oldest unkept ones past CLIPS_MAX_BYTES; deleting the
 * account removes the player's clips, rows and files.
 */
const clock = new ManualServerClock(new Date('2026-12-01T12:00:00+09:00'));
const MB = 1024 * 1024;
const OPERATOR_TOKEN = 'operator-token-for-the-clip-retention-0123';
let t: TestServer;
let stationId = 0;

beforeAll(async () => {
  t = await startTestServer({
    inMemory: true,
    clock,
    env: { CLIPS_MAX_BYTES: String(3 * MB), ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN },
  });
  stationId = (await playableStation(t)).station_id;
}, 120_000);
afterAll(async () => t?.close());

const db = () => t.server.store();
const clips = () => t.server.services().clips;

/** `u` with a token issued on the server's clock (which these tests move by weeks). */
const signedIn = async (u: TestUser): Promise<TestUser> => ({
  user_id: u.user_id,
  access_token: (await t.server.services().identity.issueToken(u.user_id)).access_token,
});

/** A real play by `u` (no camera publishes: its clip ends failed); answers its play id. */
async function play(u: TestUser): Promise<number> {
  const driver = new PlayDriver(t, clock, await signedIn(u));
  await driver.reserve(stationId).waitTurn().confirm().waitPlaying().holdRight(200).holdBack(200).waitResult();
  const playId = driver.play!.play_id;
  await driver.finish().waitMachineHome().wait(5_000);
  await clips().settled(playId);
  return playId;
}

async function clipOf(playId: number): Promise<{ clip_id: string; status: string; reason: string | null }> {
  const [row] = await db().query<{ clip_id: string; status: string; reason: string | null }>(
    'SELECT clip_id, status, reason FROM play_clips WHERE play_id = $1',
    [playId],
  );
  return row!;
}

/** Makes a play's clip ready with a front file of `bytes`, as a recording leaves it. */
async function ready(playId: number, bytes: number): Promise<string> {
  const { clip_id } = await clipOf(playId);
  await db().query(
    `UPDATE play_clips SET status = 'ready', reason = NULL, cameras = '{front}', bytes = $2, duration_ms = 9000 WHERE clip_id = $1`,
    [clip_id, bytes],
  );
  mkdirSync(join(clips().dir, clip_id), { recursive: true });
  writeFileSync(join(clips().dir, clip_id, 'front.webm'), Buffer.alloc(bytes, 1));
  return clip_id;
}

/**
 * The leader's retention as it runs `ms` after the server's now: the same service on the same store
 * and folder, on a clock of its own (moving the server's clock by weeks would silence the stations'
 * agent). Its clock moves with `advance`.
 */
function retentionLater(ms: number): { clips: PlayClips; clock: ManualServerClock } {
  const later = new ManualServerClock(new Date(clock.now().getTime() + ms));
  return {
    clock: later,
    clips: new PlayClips({
      store: db(),
      clock: later,
      ffmpeg: null,
      dir: clips().dir,
      maxBytes: 3 * MB,
      apiPrefix: '/api',
      channelOf: () => null,
      log: (message, error) => console.error(message, error),
    }),
  };
}

const fileOf = (clipId: string) => join(clips().dir, clipId, 'front.webm');
const as =
  (u: TestUser) =>
  async (path: string, body: object = {}): Promise<unknown> =>
    (
      await t.server.app.inject({ method: 'POST', url: `/api/${path}`, payload: { ...(await signedIn(u)), ...body } })
    ).json();

describe('[R11-5] clips over time and with their player', { timeout: 120_000 }, () => {
  let alice: TestUser;
  const plays: number[] = [];

  it('[R11-5] every play gets a clip; on a station no camera films, it fails for want of video and has no file', async () => {
    alice = await createTestUser(t, {}, { freeTc: 10_000 });
    plays.push(await play(alice));
    expect(await clipOf(plays[0]!)).toMatchObject({ status: 'failed', reason: 'no_video' });
    const clip = clipResponseSchema.parse(await as(alice)('v2/clip/get', { play_id: plays[0] })).clip;
    expect(clip).toMatchObject({ status: 'failed', cameras: [], urls: {} });
    expect(existsSync(join(clips().dir, clip.clip_id))).toBe(false);
  });

  it('[R11-5] the console’s recording health counts the station’s last plays’ clips: the failed one, with its reason', async () => {
    const answer = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/station_feeds',
      payload: {},
      headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    const station = operatorStationFeedsResponseSchema
      .parse(answer.json())
      .stations.find((s) => s.station_id === stationId)!;
    expect(station.clips).toMatchObject({
      window: 10,
      plays: 1,
      ready: 0,
      failed: 1,
      recording: 0,
      none: 0,
      last_failure: { play_id: plays[0], reason: 'no_video' },
    });
  });

  it('[R11-5] an unkept clip is removed 30 days after its play, its file too; a kept one stays', async () => {
    plays.push(await play(alice), await play(alice));
    const gone = await ready(plays[1]!, 1000);
    const kept = await ready(plays[2]!, 1000);
    clipResponseSchema.parse(await as(alice)('v2/clip/keep', { clip_id: kept, kept: 1 }));
    await clips().runRetention();
    expect((await clipOf(plays[1]!)).status).toBe('ready');
    // The leader's timer wakes at the earliest expiry by itself.
    const leader = retentionLater(CLIP_RETENTION_MS - 60_000);
    leader.clips.start();
    await leader.clips.retentionSettled();
    expect((await clipOf(plays[1]!)).status).toBe('ready');
    for (let step = 0; step < 4; step += 1) {
      leader.clock.advance(30_000);
      await leader.clips.retentionSettled();
    }
    leader.clips.stop();
    expect(await clipOf(plays[1]!)).toMatchObject({ status: 'removed', reason: 'expired' });
    expect(existsSync(join(clips().dir, gone))).toBe(false);
    expect((await clipOf(plays[2]!)).status).toBe('ready');
    expect(existsSync(fileOf(kept))).toBe(true);
    // The history still says what became of it.
    const history = historyResponseSchema.parse(await as(alice)('v2/play/history')).history.list;
    expect(history.find((p) => p.play_id === plays[1])?.clip).toMatchObject({ clip_id: gone, status: 'removed' });
    // The failed clip without a file expired the same way.
    expect((await clipOf(plays[0]!)).status).toBe('removed');
    // Let go, it goes 30 days after its play, or a day from now if that is later.
    const unkept = clipResponseSchema.parse(await as(alice)('v2/clip/keep', { clip_id: kept, kept: 0 })).clip;
    expect(Date.parse(unkept.expires_at!)).toBe(Date.parse(unkept.created_at) + CLIP_RETENTION_MS);
    await db().query("UPDATE play_clips SET created_at = created_at - interval '40 days' WHERE clip_id = $1", [kept]);
    const late = clipResponseSchema.parse(await as(alice)('v2/clip/keep', { clip_id: kept, kept: 0 })).clip;
    expect(Date.parse(late.expires_at!)).toBe(clock.now().getTime() + 24 * 3600_000);
    clipResponseSchema.parse(await as(alice)('v2/clip/keep', { clip_id: kept, kept: 1 }));
  });

  it('[R11-5] past CLIPS_MAX_BYTES the oldest unkept clips are removed first, until the rest fit; kept ones never', async () => {
    const more = [await play(alice), await play(alice), await play(alice)];
    // Kept (oldest, 1000 bytes) + three of 1.2 MB: 3.6 MB against a 3 MB cap.
    const ids = [];
    for (const playId of more) ids.push(await ready(playId, Math.round(1.2 * MB)));
    await clips().runRetention();
    expect((await clipOf(more[0]!)).status).toBe('removed');
    expect((await clipOf(more[0]!)).reason).toBe('cap');
    expect(existsSync(join(clips().dir, ids[0]!))).toBe(false);
    for (const playId of [more[1]!, more[2]!, plays[2]!]) expect((await clipOf(playId)).status).toBe('ready');
    const [total] = await db().query<{ bytes: string }>(
      "SELECT sum(bytes)::text AS bytes FROM play_clips WHERE status = 'ready'",
    );
    expect(Number(total!.bytes)).toBeLessThanOrEqual(3 * MB);
  });

  it('[R11-5] a recording its instance never finished fails once it can no longer run anywhere; folders no clip names are removed', async () => {
    const playId = await play(alice);
    const { clip_id } = await clipOf(playId);
    await db().query("UPDATE play_clips SET status = 'recording', reason = NULL WHERE clip_id = $1", [clip_id]);
    mkdirSync(join(clips().dir, clip_id), { recursive: true });
    const stray = 'A'.repeat(22);
    mkdirSync(join(clips().dir, stray), { recursive: true });
    const leader = retentionLater(0);
    await leader.clips.runRetention();
    expect((await clipOf(playId)).status).toBe('recording');
    expect(readdirSync(clips().dir)).toContain(stray);
    leader.clock.advance(MAX_RECORDING_MS + 60_000 + 1);
    await leader.clips.runRetention();
    expect(await clipOf(playId)).toMatchObject({ status: 'failed', reason: 'interrupted' });
    expect(readdirSync(clips().dir)).not.toContain(clip_id);
    // The stray folder was first seen unnamed 11 minutes ago (the server's clock): gone.
    expect(readdirSync(clips().dir)).not.toContain(stray);
  });

  it("[R11-5] deleting the account removes the player's clips with it, rows and files; the preview counts them; another player's clip stays", async () => {
    const bob = await createTestUser(t, {}, { freeTc: 10_000 });
    const bobs = await ready(await play(bob), 1000);
    const carol = await createTestUser(t, {}, { freeTc: 10_000 });
    const carols = await ready(await play(carol), 1000);
    const preview = accountDeletePreviewResponseSchema.parse(await as(bob)('account/delete/preview')).preview;
    expect(preview.clips).toBe(1);
    const deleted = (await as(bob)('account/delete', { account_delete: { confirm: 1 } })) as { error_code: number };
    expect(deleted.error_code).toBe(200);
    const [row] = await db().query<{ status: string; reason: string; shared: boolean; kept: boolean }>(
      'SELECT status, reason, shared, kept FROM play_clips WHERE clip_id = $1',
      [bobs],
    );
    expect(row).toEqual({ status: 'removed', reason: 'account', shared: false, kept: false });
    expect(existsSync(join(clips().dir, bobs))).toBe(false);
    expect(existsSync(fileOf(carols))).toBe(true);
    // Its file is 404 to the operators too.
    expect(
      (
        await t.server.app.inject({
          method: 'GET',
          url: `/api/clips/${bobs}/front.webm`,
        })
      ).statusCode,
    ).toBe(404);
  });
});
