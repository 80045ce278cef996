import { Subject } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  checkKujiFairness,
  OPERATOR_TOKENS,
  replayLoggedPlay,
  type FloorFeedEvent,
  type FloorStation,
  type OperatorApiPort,
  type OperatorFloorFeedPort,
} from '../../../src/application/operator';
import { OperatorFloor } from '../../../src/application/operator/operator-floor.use-case';
import type { Token } from '../../../src/application';
import { crane, deriveTicketOrder, fairnessCommitment, boxTickets, type PlayLogEntry } from '../../../src/domain';
import { SessionStorageOperatorToken } from '../../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { createOperatorContainer } from '../../../src/main/operator-container';
import { SERVER_MESSAGES } from '../../../server/messages';
import { injectFetch } from '../../support/inject-fetch';
import { startTestServer, type TestServer } from '../../support/test-server';

let t: TestServer;
const PASSWORD = 'console-usecase-password';
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  const operators = t.server.services().operators;
  await operators.add('uadmin', '管理', 'admin', PASSWORD);
  await operators.add('ufloor', 'フロア', 'floor', PASSWORD);
  await operators.add('usupport', 'サポート', 'support', PASSWORD);
});
afterAll(async () => t?.close());

const noFeed: OperatorFloorFeedPort = { watch: () => new Subject<FloorFeedEvent>() };

/** The console's real container over the test server, with an in-memory token store. */
function consoleContainer(tokens = new SessionStorageOperatorToken(null)) {
  const container = createOperatorContainer(
    { apiBase: t.apiBase, fetch: injectFetch(t.server.app), realtimeUrl: '' },
    { tokens, feed: noFeed },
  );
  const get = <T>(token: Token<T>): T => container.get<T>(token);
  return { container: { get }, tokens, session: get(OPERATOR_TOKENS.OperatorSession) };
}

describe('OperatorSession against the reference server', () => {
  it('[R10-9] a wrong password leaves it signed out with the server’s words; the right one signs in and keeps the token', async () => {
    const { session, tokens } = consoleContainer();
    await session.restore();
    expect(session.snapshot.status).toBe('signedOut');
    expect(await session.signIn('uadmin', 'wrong-password')).toBe(false);
    expect(session.snapshot).toMatchObject({ status: 'signedOut', error: SERVER_MESSAGES.operatorLoginFailed });
    expect(tokens.read()).toBeNull();
    expect(await session.signIn(' uadmin ', PASSWORD)).toBe(true);
    expect(session.snapshot).toMatchObject({ status: 'signedIn', operator: { login: 'uadmin', role: 'admin' } });
    expect(tokens.read()).toBeTruthy();
    // A reload of the tab: a new page with the kept token is signed in again after operator/me.
    const again = consoleContainer(tokens);
    await again.session.restore();
    expect(again.session.snapshot).toMatchObject({ status: 'signedIn', operator: { login: 'uadmin' } });
  });

  it('[R10-9] a screen outside the role is refused with the server’s words, and the operator stays signed in', async () => {
    const { container, session } = consoleContainer();
    await session.signIn('ufloor', PASSWORD);
    expect(session.can('floor')).toBe(true);
    expect(session.can('audit')).toBe(false);
    const audit = container.get(OPERATOR_TOKENS.OperatorAudit);
    await audit.read();
    expect(audit.snapshot).toMatchObject({ status: 'error', error: SERVER_MESSAGES.operatorRoleRefused });
    await vi.waitFor(() => expect(session.snapshot.status).toBe('signedIn'));
    audit.dispose();
  });

  it('[R10-9] when the server has ended the session, the next refused call returns to sign-in and forgets the token', async () => {
    const { container, session, tokens } = consoleContainer();
    await session.signIn('usupport', PASSWORD);
    // Another tab signs the same session out.
    const other = consoleContainer(tokens);
    await other.session.signOut();
    tokens.write('expired-token-that-the-server-does-not-know');
    const fulfilment = container.get(OPERATOR_TOKENS.OperatorFulfilment);
    await fulfilment.refresh();
    expect(fulfilment.snapshot).toMatchObject({ status: 'error', error: SERVER_MESSAGES.operatorOnly });
    await vi.waitFor(() =>
      expect(session.snapshot).toMatchObject({ status: 'signedOut', error: SERVER_MESSAGES.operatorOnly }),
    );
    expect(tokens.read()).toBeNull();
    fulfilment.dispose();
  });

  it('[R10-9] sign-out ends the session on the server', async () => {
    const { session, tokens } = consoleContainer();
    await session.signIn('uadmin', PASSWORD);
    const token = tokens.read()!;
    await session.signOut();
    expect(session.snapshot.status).toBe('signedOut');
    expect(tokens.read()).toBeNull();
    const stale = consoleContainer(new SessionStorageOperatorToken(null));
    stale.tokens.write(token);
    await stale.session.restore();
    expect(stale.session.snapshot).toMatchObject({ status: 'signedOut', error: SERVER_MESSAGES.operatorOnly });
  });
});

describe('console screens against the reference server', () => {
  it('the audit screen lists what an operator did, filtered by operator', async () => {
    const floor = consoleContainer();
    await floor.session.signIn('ufloor', PASSWORD);
    const api = floor.container.get(OPERATOR_TOKENS.OperatorApiPort);
    await api.restock(3, 5);
    const admin = consoleContainer();
    await admin.session.signIn('uadmin', PASSWORD);
    const audit = admin.container.get(OPERATOR_TOKENS.OperatorAudit);
    await audit.read('ufloor');
    expect(audit.snapshot.status).toBe('ready');
    expect(audit.snapshot.data.login).toBe('ufloor');
    const restock = audit.snapshot.data.rows.find((r) => r.action === 'operator/restock');
    expect(restock).toMatchObject({ operator_login: 'ufloor', after: expect.objectContaining({ stock: 5 }) });
    expect(audit.snapshot.data.rows.every((r) => r.operator_login === 'ufloor')).toBe(true);
    audit.dispose();
  });

  it('[R10-9] once a sign-out has begun no screen reads (it would be refused as the session ends), and the session ends', async () => {
    const { container, session, tokens } = consoleContainer();
    await session.signIn('uadmin', PASSWORD);
    const fulfilment = container.get(OPERATOR_TOKENS.OperatorFulfilment);
    const api = container.get(OPERATOR_TOKENS.OperatorApiPort);
    const reads: string[] = [];
    const deliveries = api.deliveries.bind(api);
    api.deliveries = (status) => {
      reads.push('deliveries');
      return deliveries(status);
    };
    await fulfilment.refresh(null);
    expect(reads).toEqual(['deliveries']);
    expect(session.active).toBe(true);
    const out = session.signOut();
    // The logout call is under way: the token still stands, yet a screen's read is not sent.
    expect(session.active).toBe(false);
    await fulfilment.refresh(null);
    expect(reads).toEqual(['deliveries']);
    await out;
    expect(session.snapshot.status).toBe('signedOut');
    expect(tokens.read()).toBeNull();
    expect(session.active).toBe(false);
    fulfilment.dispose();
  });

  it('an action refused by the server shows its words and leaves the screen usable', async () => {
    const { container, session } = consoleContainer();
    await session.signIn('uadmin', PASSWORD);
    const fulfilment = container.get(OPERATOR_TOKENS.OperatorFulfilment);
    await fulfilment.refresh(null);
    expect(fulfilment.snapshot.status).toBe('ready');
    expect(await fulfilment.ship(999_999, 'TRACK-1234')).toBe(false);
    expect(fulfilment.snapshot.action.status).toBe('failed');
    expect(fulfilment.snapshot.action.error).toMatch(/\S/);
    fulfilment.dismissAction();
    expect(fulfilment.snapshot.action.status).toBe('idle');
    fulfilment.dispose();
  });

  it('[R11-9] the floor reads each station’s assist setting; answering an assist nobody asked shows the server’s words', async () => {
    const { container, session } = consoleContainer();
    await session.signIn('ufloor', PASSWORD);
    const floor = container.get(OPERATOR_TOKENS.OperatorFloor);
    await floor.refresh();
    const [first] = floor.snapshot.data.stations;
    expect(first).toMatchObject({ assist_misses: 10, assist: null });
    expect(await floor.answerAssist(first!.station_id, 999_999, 'done')).toBeNull();
    expect(floor.snapshot.action).toMatchObject({ status: 'failed', error: SERVER_MESSAGES.noAssist });
    floor.dispose();
  });
});

describe('OperatorFloor live re-reads', () => {
  afterEach(() => vi.useRealTimers());

  const station = (stationId: number, viewers: number): FloorStation => ({
    station_id: stationId,
    station_name: `台${stationId}`,
    prize_name: '景品',
    station_status: 'open',
    stock: 3,
    paused: false,
    emergency_stopped: false,
    viewers,
    line: [],
    play: null,
    stray_prizes: [],
    still_url: `/api/station/${stationId}/still`,
  });

  it('reads the floor once per burst of floor_change pushes, and again after a reconnection', async () => {
    vi.useFakeTimers();
    const pushes = new Subject<FloorFeedEvent>();
    const reads: number[] = [];
    const api = {
      floor: async () => {
        reads.push(Date.now());
        return [station(1, reads.length)];
      },
    } as Pick<OperatorApiPort, 'floor'> as OperatorApiPort;
    const session = { refused: async () => undefined, token: () => 'token', active: true };
    const floor = new OperatorFloor(api, { watch: () => pushes }, session, { now: () => Date.now() });
    floor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toHaveLength(1);
    pushes.next({ kind: 'connected' });
    expect(floor.snapshot.data.live).toBe(true);
    await vi.advanceTimersByTimeAsync(400);
    expect(reads).toHaveLength(2);
    for (let i = 0; i < 5; i += 1) pushes.next({ kind: 'change', stationId: 1 });
    await vi.advanceTimersByTimeAsync(400);
    expect(reads).toHaveLength(3);
    expect(floor.snapshot.data.stations[0]?.viewers).toBe(3);
    pushes.next({ kind: 'disconnected' });
    expect(floor.snapshot.data.live).toBe(false);
    floor.dispose();
    pushes.next({ kind: 'change', stationId: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads).toHaveLength(3);
  });
});

describe('in-browser checks', () => {
  it('replays a logged play with the domain machine and agrees with what the machine gives', () => {
    const layout = crane.layPrizes(42, 3);
    const inputs = [
      { tick: 5, button: 'right', command: 'press' },
      { tick: 25, button: 'right', command: 'release' },
      { tick: 30, button: 'back', command: 'press' },
      { tick: 50, button: 'back', command: 'release' },
    ] as const;
    const machine = crane.replayPlay(layout, 0.8, 7, inputs);
    const entry: PlayLogEntry = {
      play_id: 1,
      station_id: 1,
      prize_name: '景品',
      currency: 'tc',
      price: 100,
      base_arm_strength: 0.8,
      assist_level: 0,
      arm_strength: 0.8,
      seed: 7,
      layout,
      inputs,
      drop_at_tick: null,
      result: machine.outcome!.result,
      started_at: '2026-01-01T00:00:00Z',
      ended_at: '2026-01-01T00:00:30Z',
    };
    const replayed = replayLoggedPlay(entry);
    expect(replayed.result).toBe(machine.outcome!.result);
    expect(replayed.matchesLog).toBe(true);
    expect(replayed.path.at(-1)).toEqual({ x: machine.x, z: machine.z, h: machine.h });
    const flipped = replayLoggedPlay({ ...entry, result: machine.outcome!.result === 'win' ? 'miss' : 'win' });
    expect(flipped.matchesLog).toBe(false);
    expect(replayLoggedPlay({ ...entry, result: null }).matchesLog).toBeNull();
  });

  it('verifies a kuji fairness record: its seed, commitment and draws, and catches a wrong one', () => {
    const seed = 'ab'.repeat(32);
    const stock = [
      { rank: 'A賞', quantity: 1 },
      { rank: 'B賞', quantity: 3 },
    ];
    const order = deriveTicketOrder(seed, boxTickets(stock));
    const record = {
      version: '1',
      kuji_id: 1,
      box_id: 9,
      box_status: 'endOfSale' as const,
      commitment: fairnessCommitment(9, seed, order),
      opened_at: '2026-01-01T00:00:00Z',
      stock,
      seed,
      revealed_at: '2026-01-02T00:00:00Z',
      draws: [{ position: 0, rank: order[0]! }],
    };
    expect(checkKujiFairness(record)).toMatchObject({ ok: true });
    expect(checkKujiFairness({ ...record, seed: 'cd'.repeat(32) })).toMatchObject({ ok: false, reason: 'commitment' });
    expect(checkKujiFairness({ ...record, seed: 'not-hex' })).toMatchObject({ ok: false, reason: 'badSeed' });
    const wrongDraw = order[0] === 'A賞' ? 'B賞' : 'A賞';
    expect(checkKujiFairness({ ...record, draws: [{ position: 0, rank: wrongDraw }] })).toMatchObject({
      ok: false,
      reason: 'draw',
    });
    expect(checkKujiFairness({ ...record, seed: null })).toBeNull();
  });
});
