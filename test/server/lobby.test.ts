import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Socket } from 'socket.io-client';
import {
  CHANNELS,
  lobbyResponseSchema,
  type ClientToServerEvents,
  type JoinAck,
  type RealtimeUpdate,
  type ServerToClientEvents,
} from '../../src/contract';
import { VISIT_STALE_MS } from '../../server/play/visit-sweep';
import { ManualServerClock } from '../support/manual-server-clock';
import { playableStation } from '../support/stations';
import { connectSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';
import { as, expectOk, post } from './user-helpers';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The lobby's numbers (issue 45, docs/fair-play.md "Live lobby numbers"): each station's viewers and
 * line, read at once by `contents/lobby` and pushed on the top channel as they change — one update
 * a station a second at most.
 */
const clock = new ManualServerClock(new Date('2026-11-23T12:00:00+09:00'));
let t: TestServer;
let stationId = 0;
let otherId = 0;
const open: Client[] = [];

beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true, clock });
  stationId = (await playableStation(t)).station_id;
  const [other] = await t.server
    .store()
    .query<{ station_id: number }>(
      "SELECT station_id FROM stations WHERE station_id <> $1 AND station_status = 'open' ORDER BY station_id LIMIT 1",
      [stationId],
    );
  otherId = other!.station_id;
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => t?.close());

const lobbyOf = async (id: number) =>
  lobbyResponseSchema.parse(expectOk(await post(t, 'contents/lobby', {}))).lobby.find((s) => s.station_id === id)!;

async function topListener(): Promise<RealtimeUpdate[]> {
  const s = await connectSocket(t.origin, undefined, open);
  await new Promise<JoinAck>((resolve) => s.emit('join', CHANNELS.top, resolve));
  const updates: RealtimeUpdate[] = [];
  s.on('update', (u) => updates.push(u));
  return updates;
}
const listsOf = (updates: RealtimeUpdate[], id: number) =>
  updates.flatMap((u) => u.list ?? []).filter((s) => s.station_id === id);

describe('the lobby numbers (issue 45)', () => {
  it('contents/lobby answers every station with its status, playing flag, viewers and line; a body with other fields is refused in Japanese', async () => {
    const lobby = lobbyResponseSchema.parse(expectOk(await post(t, 'contents/lobby', {}))).lobby;
    const [count] = await t.server.store().query<{ n: number }>('SELECT count(*)::int AS n FROM stations');
    expect(lobby).toHaveLength(count!.n);
    expect(lobby.every((s) => s.visit_count >= 0 && (s.reserve_count ?? 0) >= 0)).toBe(true);
    const bad = await post(t, 'contents/lobby', { station_id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json.error_info).toMatch(/[ぁ-んァ-ヶ一-龠]/);
  });

  it('a viewer arriving, a place taken and a viewer leaving reach the top channel, at most one update a station a second, the last numbers always told', async () => {
    const updates = await topListener();
    const before = await lobbyOf(stationId);
    const [a, b, c] = [
      await createTestUser(t, {}, { freeTc: 10_000 }),
      await createTestUser(t, {}, { freeTc: 10_000 }),
      await createTestUser(t, {}, { freeTc: 10_000 }),
    ];
    // The first change goes out at once.
    expectOk(await post(t, 'v2/play/visit', as(a, { station_id: stationId })));
    await vi.waitFor(() =>
      expect(listsOf(updates, stationId)).toEqual([
        expect.objectContaining({ visit_count: before.visit_count + 1, reserve_count: before.reserve_count }),
      ]),
    );
    // Two more within the second are held: a marker — another station's first change, sent at
    // once on the same connection after them — arrives with nothing before it for this station.
    expectOk(await post(t, 'v2/play/visit', as(b, { station_id: stationId })));
    expectOk(await post(t, 'v2/play/visit', as(c, { station_id: stationId })));
    const marker = await createTestUser(t);
    expectOk(await post(t, 'v2/play/visit', as(marker, { station_id: otherId })));
    await vi.waitFor(() => expect(listsOf(updates, otherId)).toHaveLength(1));
    expect(listsOf(updates, stationId)).toHaveLength(1);
    // At the end of the second, one update with both.
    clock.advance(1_000);
    await vi.waitFor(() => expect(listsOf(updates, stationId)).toHaveLength(2));
    expect(listsOf(updates, stationId)[1]).toMatchObject({ visit_count: before.visit_count + 3 });
    // A place in line, a second later: told at once, with the line.
    clock.advance(1_000);
    expect((await post(t, 'v2/play/reserve', as(b, { station_id: stationId }))).status).toBe(200);
    await vi.waitFor(() => expect(listsOf(updates, stationId)).toHaveLength(3));
    const last = listsOf(updates, stationId).at(-1)!;
    expect(last.reserve_count).toBe((before.reserve_count ?? 0) + 1);
    // The lobby call agrees with what was pushed.
    expect(await lobbyOf(stationId)).toMatchObject({
      visit_count: last.visit_count,
      reserve_count: last.reserve_count,
    });
  });

  it('a signed-in viewer whose last connection closes watches no more: the visit ends and the lobby is told; the page visiting again after its reconnection counts once', async () => {
    const updates = await topListener();
    clock.advance(2_000);
    const before = await lobbyOf(otherId);
    const viewer = await createTestUser(t);
    const first = await connectSocket(t.origin, viewer, open);
    expectOk(await post(t, 'v2/play/visit', as(viewer, { station_id: otherId })));
    expect((await lobbyOf(otherId)).visit_count).toBe(before.visit_count + 1);
    // The tab closes: once no instance holds a connection of theirs, the visit is over.
    first.close();
    await vi.waitFor(() => expect(t.server.services().realtime.isConnected(viewer.user_id)).toBe(false));
    expect((await lobbyOf(otherId)).visit_count).toBe(before.visit_count);
    clock.advance(1_000);
    await vi.waitFor(() => expect(listsOf(updates, otherId).at(-1)?.visit_count).toBe(before.visit_count));
    // A reload: the new page connects and visits again, whether or not the old connection's end
    // was settled first; it counts once.
    const second = await connectSocket(t.origin, viewer, open);
    second.close();
    await connectSocket(t.origin, viewer, open);
    clock.advance(1);
    expectOk(await post(t, 'v2/play/visit', as(viewer, { station_id: otherId })));
    await vi.waitFor(() => expect(t.server.services().realtime.isConnected(viewer.user_id)).toBe(true));
    await vi.waitFor(async () => expect((await lobbyOf(otherId)).visit_count).toBe(before.visit_count + 1));
  });

  it('the visit sweep ends a visit whose player has no connection on any instance (an HTTP-only client, a killed instance) after two minutes unseen, and keeps a connected player’s', async () => {
    const sweep = t.server.services().visitSweep;
    // The earlier tests' visits over HTTP are past their two minutes first.
    clock.advance(VISIT_STALE_MS);
    await sweep.settled();
    const before = await lobbyOf(otherId);
    const [httpOnly, connected] = [await createTestUser(t), await createTestUser(t)];
    await connectSocket(t.origin, connected, open);
    expectOk(await post(t, 'v2/play/visit', as(httpOnly, { station_id: otherId })));
    expectOk(await post(t, 'v2/play/visit', as(connected, { station_id: otherId })));
    expect((await lobbyOf(otherId)).visit_count).toBe(before.visit_count + 2);
    // Not yet two minutes: nothing is looked at.
    clock.advance(VISIT_STALE_MS - 1_000);
    expect(await sweep.runDue()).toBe(0);
    expect((await lobbyOf(otherId)).visit_count).toBe(before.visit_count + 2);
    // Two minutes unseen: the leader's timer ends the one with no connection.
    clock.advance(1_000);
    await sweep.settled();
    await vi.waitFor(async () => expect((await lobbyOf(otherId)).visit_count).toBe(before.visit_count + 1));
    const open_ = await t.server
      .store()
      .query<{ user_id: number; last_seen_at: Date | string }>(
        'SELECT user_id, last_seen_at FROM station_visits WHERE user_id = ANY($1::int[]) AND ended_at IS NULL',
        [[httpOnly.user_id, connected.user_id]],
      );
    expect(open_.map((v) => v.user_id)).toEqual([connected.user_id]);
    // The connected player's visit was seen now: the next look is two minutes on.
    expect(new Date(open_[0]!.last_seen_at).getTime()).toBe(clock.now().getTime());
    expect(await sweep.runDue()).toBe(0);
  });
});
