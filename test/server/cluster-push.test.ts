import { type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type ClientToServerEvents, type JoinAck, type ServerToClientEvents } from '../../src/contract';
import { IdentityService } from '../../server/auth/identity';
import { systemClock } from '../../server/clock';
import { usePostgresCluster } from '../support/postgres-cluster';
import { connectSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';

/** Issue 25: two instances on one PostgreSQL database share their pushes through socket.io's PostgreSQL adapter. */
type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const postgres = usePostgresCluster();
let a: TestServer;
let b: TestServer;
const open: Client[] = [];

beforeAll(async () => {
  const url = await postgres.cluster.seededDatabase();
  a = await startTestServer({ listen: true, databaseUrl: url });
  b = await startTestServer({ listen: true, databaseUrl: url, standby: true });
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const connect = (server: TestServer, user?: TestUser) => connectSocket(server.origin, user, open);

const join = (socket: Client, channel: string) =>
  new Promise<JoinAck>((resolve) => socket.emit('join', channel, (ack: JoinAck) => resolve(ack)));

/**
 * The next `event` on `socket` that `matches` (the test's own timeout bounds the wait). A station's
 * line change also sends a `list` update on the top channel a moment later (after a store read):
 * a wait for another update must not take that one.
 */
const next = <E extends keyof ServerToClientEvents>(
  socket: Client,
  event: E,
  matches: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean = () => true,
) =>
  new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve) => {
    const listener = (payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!matches(payload)) return;
      socket.off(event as never, listener as never);
      resolve(payload);
    };
    socket.on(event as never, listener as never);
  });

/** Both instances know each other (the adapter's heartbeat) before pushes are counted on: B answers A's ping. */
async function bothAlive(): Promise<void> {
  b.server.io.on('ping' as never, ((ack: (v: number) => void) => ack(1)) as never);
  await expect
    .poll(() => a.server.io.serverSideEmitWithAck('ping' as never).then((r: unknown[]) => r.length), {
      timeout: 15_000,
    })
    .toBe(1);
}

describe('pushes across two instances', () => {
  it('a push to a user, a station, a kuji box and the top channel, sent by one instance, reaches subscribers on both', async () => {
    await bothAlive();
    const user = await createTestUser(a);
    const onA = await connect(a, user);
    const onB = await connect(b, user);
    for (const socket of [onA, onB]) {
      for (const channel of [CHANNELS.user(user.user_id), CHANNELS.station(3), CHANNELS.kujiBox(1, 2), CHANNELS.top])
        expect(await join(socket, channel)).toEqual({ ok: true });
    }
    const pushes = [next(onA, 'push'), next(onB, 'push')];
    a.server.services().realtime.push(user.user_id, { kind: 'notice', title: 'お知らせ', message: '二台目へ' });
    for (const got of await Promise.all(pushes))
      expect(got).toEqual({ kind: 'notice', title: 'お知らせ', message: '二台目へ' });

    const lines = [next(onA, 'reserve_change'), next(onB, 'reserve_change')];
    a.server.services().realtime.lineChanged(3);
    for (const got of await Promise.all(lines)) expect(got).toEqual({ station_id: 3, reserve_change: 1 });

    const kuji = [next(onA, 'kuji_reserve_change'), next(onB, 'kuji_reserve_change')];
    b.server.services().realtime.kujiLineChanged(1, 2);
    for (const got of await Promise.all(kuji)) expect(got).toEqual({ kuji_id: 1, box_id: 2, reserve_change: 1 });

    const isWinner = (u: { get?: unknown }) => u.get !== undefined;
    const updates = [next(onA, 'update', isWinner), next(onB, 'update', isWinner)];
    b.server.services().realtime.winner({ station_id: 3, prize_name: 'ぬいぐるみ', message: 'おめでとう' });
    for (const got of await Promise.all(updates))
      expect(got).toMatchObject({ channel: CHANNELS.top, get: { station_id: 3, prize_name: 'ぬいぐるみ' } });
  });

  it("a push over NOTIFY's 8000-byte limit travels through the attachment table and arrives whole", async () => {
    const user = await createTestUser(a);
    const onB = await connect(b, user);
    expect(await join(onB, CHANNELS.user(user.user_id))).toEqual({ ok: true });
    const message = 'お知らせ'.repeat(3000);
    const got = next(onB, 'push');
    a.server.services().realtime.push(user.user_id, { kind: 'notice', title: '長いお知らせ', message });
    expect((await got).message).toBe(message);
  });

  it("ending a user's sessions on one instance closes their sockets on the other; with a kept token, only the others", async () => {
    const user = await createTestUser(a);
    const other = await createTestUser(a);
    const second = {
      user_id: user.user_id,
      ...(await new IdentityService(a.server.store(), systemClock).issueToken(user.user_id)),
    };
    const first = await connect(b, user);
    const bystander = await connect(b, other);
    const closed = new Promise<string>((resolve) => first.once('disconnect', resolve));
    a.server.services().realtime.endSessions(user.user_id);
    expect(await closed).toBe('io server disconnect');
    expect(bystander.connected).toBe(true);

    const keep = await connect(b, user);
    const end = await connect(b, second);
    const ended = new Promise<string>((resolve) => end.once('disconnect', resolve));
    // A password change on instance A keeps the session that made it (its token) and ends the rest.
    a.server.services().realtime.endSessions(user.user_id, user.access_token);
    expect(await ended).toBe('io server disconnect');
    expect(keep.connected).toBe(true);
    expect(bystander.connected).toBe(true);
  });
});
