/** @vitest-environment jsdom */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  OPERATOR_TOKENS,
  type FloorFeedEvent,
  type OperatorFloorFeedPort,
  type OperatorRole,
  type OperatorSession,
} from '../../src/application/operator';
import { AGENT_PATH, type AgentCommand, type AgentServerMessage } from '../../src/contract/agent.schema';
import { SessionStorageOperatorToken } from '../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { createOperatorContainer } from '../../src/main/operator-container';
import { OperatorConsoleApp } from '../../src/ui/operator/operator-app';
import { injectFetch } from '../support/inject-fetch';
import { useNodeUint8Array } from '../support/node-uint8array';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { TestPatternPublisher } from '../support/whip-test-publisher';

/**
 * The floor's machine panel (issue 42) in jsdom over the real container and the reference server,
 * with a station driven by an agent that this test plays over a real socket (the protocol of
 * docs/agent-protocol.md: hello, state reports, pongs, acks). Time is real (the server pings every
 * 500 ms, the console reads the agents every 2 s): every wait is on what the page or the agent shows.
 */

const PASSWORD = 'machine-panel-password';
/**
 * The console's reads of the agents come every 2 s; a change shows within two of them, but jsdom
 * redraws the whole floor (every seeded station) slowly on a busy machine: a bound, not a wait.
 */
const SHOWN = { timeout: 10_000 };
const noFeed: OperatorFloorFeedPort = { watch: () => new Subject<FloorFeedEvent>() };

useNodeUint8Array();

let t: TestServer;
let stationId: number;
let key: string;
beforeAll(async () => {
  // The scripted agent shares this process with jsdom, whose first render of the whole floor can
  // hold the event loop past the 3 s silence bound on a busy machine: its pongs would be read late.
  t = await startTestServer({ listen: true, inMemory: true, agentBounds: { silenceMs: 60_000 } });
  const services = t.server.services();
  await services.operators.add('mpadmin', '機械 管理', 'admin', PASSWORD);
  await services.operators.add('mpfloor', '機械 フロア', 'floor', PASSWORD);
  ({ station_id: stationId } = await playableStation(t));
  ({ key } = await services.stationKeys.issue({ name: 'テスト筐体', stationIds: [stationId], by: 'test' }));
}, 120_000);
afterAll(async () => t?.close());

/**
 * A cabinet's agent as this test plays it: it answers pings, acks every command, and reports the
 * machine as a real one would after it (stopped with every output released, resumed, home).
 */
class ScriptedCabinet {
  readonly commands: Array<{ command: AgentCommand }> = [];
  private readonly waiters: Array<() => void> = [];
  private seq = 0;
  private stopped = false;

  /** How the server closed the socket (for a failure's message). */
  closedWith: string | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.heard(JSON.parse(data.toString()) as AgentServerMessage));
    ws.on('close', (code, reason) => (this.closedWith = `${code} ${reason.toString()}`));
  }

  static async connect(): Promise<ScriptedCabinet> {
    const ws = new WebSocket(`${t.origin.replace('http', 'ws')}${AGENT_PATH}`);
    const cabinet = new ScriptedCabinet(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(
      JSON.stringify({
        v: 1,
        type: 'hello',
        key,
        agent: { name: 'cabinet-3f', version: '1.2.3' },
        driver: 'gpio',
        stations: [{ station_id: stationId, position: false, phases: false, chute_sensor: true, arm_strength: false }],
      }),
    );
    return cabinet;
  }

  private send(message: Record<string, unknown>): void {
    this.seq += 1;
    this.ws.send(JSON.stringify({ v: 1, seq: this.seq, station_id: stationId, ...message }));
  }

  report(sensor: 'clear' | 'blocked' = 'clear', outputs: string[] = []): void {
    this.send({ type: 'state', at: 0, play_id: null, claw: 'idle', sensor, stopped: this.stopped, outputs });
  }

  private heard(message: AgentServerMessage): void {
    if (message.type === 'ping') this.ws.send(JSON.stringify({ v: 1, type: 'pong', t: message.t, at: 1 }));
    if (message.type === 'welcome') this.report();
    if (message.type !== 'command') return;
    this.commands.push({ command: message.command });
    this.send({ type: 'ack', command_seq: message.seq, ok: true });
    if (message.command.type === 'stop') this.stopped = true;
    if (message.command.type === 'resume') this.stopped = false;
    this.report();
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once a command of `type` has come. */
  async received(type: AgentCommand['type']): Promise<{ command: AgentCommand }> {
    for (;;) {
      const found = this.commands.find((c) => c.command.type === type);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => this.ws.once('close', () => resolve()));
    this.ws.terminate();
    await closed;
  }
}

const cabinets: ScriptedCabinet[] = [];
afterEach(async () => {
  cleanup();
  for (const c of cabinets.splice(0)) await c.close();
  // Leave the station as found: not stopped.
  await t.server.services().rooms.send('station', stationId, { type: 'resumeMachine' });
  window.history.replaceState(null, '', '/');
});

async function connectCabinet(): Promise<ScriptedCabinet> {
  const cabinet = await ScriptedCabinet.connect();
  cabinets.push(cabinet);
  await waitFor(() => expect(t.server.services().agents.connected(stationId)).toBe(true));
  return cabinet;
}

/** The console signed in as `role` on the floor, over the real server. */
async function openFloor(role: OperatorRole) {
  const tokens = new SessionStorageOperatorToken(null);
  const container = createOperatorContainer(
    { apiBase: t.apiBase, fetch: injectFetch(t.server.app), realtimeUrl: '' },
    { tokens, feed: noFeed },
  );
  const session = container.get<OperatorSession>(OPERATOR_TOKENS.OperatorSession);
  const signedIn = await session.signIn(role === 'admin' ? 'mpadmin' : 'mpfloor', PASSWORD);
  expect(signedIn, JSON.stringify(session.snapshot)).toBe(true);
  window.history.pushState({}, '', '/operator/floor');
  const user = userEvent.setup();
  render(<OperatorConsoleApp container={container} />);
  const card = await cardOf(stationId);
  return { user, card };
}

async function cardOf(id: number): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { level: 2, name: new RegExp(`^#${id} `) }, SHOWN);
  return heading.closest('li')!;
}

const text = (card: HTMLElement, testId: string) => within(card).getByTestId(testId).textContent ?? '';

describe('the floor’s machine panel', { timeout: 90_000 }, () => {
  it('[R11-4] shows each camera of the station: publishing over WHIP, its codec, bitrate and frames a second, its last keyframe; silent once it stops', async () => {
    await connectCabinet();
    const { card } = await openFloor('floor');
    // The machines are read apart from the floor (every 2 s): the card may show before them.
    await waitFor(() => expect(text(card, 'op-camera-front')).toBe('視聴なし・配信なし'), SHOWN);
    const publisher = await TestPatternPublisher.start(`${t.origin}/whip/${stationId}/front`, key);
    try {
      await waitFor(
        () =>
          expect(text(card, 'op-camera-front')).toMatch(
            /^配信中 WHIP ・ VP8 ・ [\d,]+ kbps ・ [1-9]\d* fps ・ 最新キーフレーム /,
          ),
        {
          timeout: 15_000,
        },
      );
      expect(text(card, 'op-camera-side')).toBe('視聴なし・配信なし');
      publisher.pause();
      await waitFor(() => expect(text(card, 'op-camera-front')).toMatch(/^映像なし WHIP ・ /), { timeout: 15_000 });
    } finally {
      await publisher.stop();
    }
  });

  it('[R11-3] shows the agent and its sensor view; one click stops the machine (no dialog), 緊急停止中 holds until a confirmed resume', async () => {
    const cabinet = await connectCabinet();
    const { user, card } = await openFloor('floor');

    // The agent as the server knows it: connected, who it is, its key, heartbeat, round trip, the sensor view.
    await waitFor(
      () => expect(text(card, 'op-machine-connection'), String(cabinet.closedWith)).toContain('接続中'),
      SHOWN,
    );
    const facts = text(card, 'op-machine-facts');
    expect(facts).toContain('エージェント（gpio）');
    expect(facts).toContain('cabinet-3f（バージョン 1.2.3）');
    expect(facts).toContain('テスト筐体');
    expect(text(card, 'op-machine-heard')).toMatch(/^\d+\.\d 秒前$/);
    await waitFor(() => expect(text(card, 'op-machine-rtt')).toMatch(/^\d+ ms$/), SHOWN);
    expect(text(card, 'op-machine-claw')).toBe('待機（原点）');
    expect(text(card, 'op-machine-chute')).toBe('空き');
    expect(text(card, 'op-machine-outputs')).toBe('すべて解放');
    // A floor operator does not choose the driver (right machines).
    expect(within(card).queryByRole('button', { name: /で動かす$/ })).toBeNull();
    expect(within(card).queryByRole('button', { name: '緊急停止を解除' })).toBeNull();

    // The emergency stop: one click, no confirmation, and the stop reaches the agent.
    await user.click(within(card).getByRole('button', { name: `緊急停止（ステーション #${stationId}）` }));
    await cabinet.received('stop');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(within(card).getByTestId('op-machine-stopped').textContent).toContain('緊急停止中'));
    expect(within(card).getByTestId('op-outcome').textContent).toContain('緊急停止しました。');
    await waitFor(() => expect(text(card, 'op-machine-outputs')).toContain('機械は停止状態を報告しています'), SHOWN);

    // Stopped it stays: a new read of the floor still says so, until resumed.
    await user.click(screen.getByRole('button', { name: '再読み込み' }));
    await waitFor(() => expect(within(card).getByTestId('op-machine-stopped')).toBeTruthy());
    expect(cabinet.commands.map((c) => c.command.type)).toEqual(['stop']);

    // Resuming asks first; cancelling sends nothing.
    await user.click(within(card).getByRole('button', { name: '緊急停止を解除' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('緊急停止を解除します');
    await user.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    expect(cabinet.commands.map((c) => c.command.type)).toEqual(['stop']);
    await user.click(within(card).getByRole('button', { name: '緊急停止を解除' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: '実行する' }));
    await cabinet.received('home');
    expect(cabinet.commands.map((c) => c.command.type)).toEqual(['stop', 'resume', 'home']);
    await waitFor(() => expect(within(card).queryByTestId('op-machine-stopped')).toBeNull());
    await waitFor(() => expect(text(card, 'op-machine-outputs')).toBe('すべて解放'), SHOWN);
  });

  it('home is confirmed and reaches the agent; "finish this play, then stop" is the pause; a blocked chute shows', async () => {
    const cabinet = await connectCabinet();
    const { user, card } = await openFloor('admin');
    await waitFor(() => expect(text(card, 'op-machine-connection')).toContain('接続中'), SHOWN);

    await user.click(within(card).getByRole('button', { name: '原点に戻す' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '実行する' }));
    await cabinet.received('home');
    await waitFor(() =>
      expect(within(card).getByTestId('op-outcome').textContent).toContain('原点に戻す指示を送りました。'),
    );

    await user.click(within(card).getByRole('button', { name: 'このプレイの後に停止' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('いまのプレイが終わったら停止します');
    await user.click(within(dialog).getByRole('button', { name: '実行する' }));
    await waitFor(() => expect(text(card, 'op-station-status')).toContain('一時停止中'));
    await user.click(within(card).getByRole('button', { name: '停止予約を解除（受付再開）' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '実行する' }));
    await waitFor(() => expect(text(card, 'op-station-status')).not.toContain('一時停止中'));

    cabinet.report('blocked', ['credit']);
    await waitFor(() => expect(text(card, 'op-machine-chute')).toBe('遮断（景品または手）'), SHOWN);
    expect(text(card, 'op-machine-outputs')).toBe('クレジット');
  });

  it('an agent that goes away shows 未接続 at its next read, the station still on its agent (there is no other driver); back when it dials again', async () => {
    const cabinet = await connectCabinet();
    const { card } = await openFloor('admin');
    await waitFor(() => expect(text(card, 'op-machine-connection')).toContain('接続中'), SHOWN);
    await cabinet.close();
    await waitFor(() => expect(text(card, 'op-machine-connection')).toContain('未接続'), SHOWN);
    expect(text(card, 'op-machine-facts')).toContain('エージェント（未接続）');
    expect(within(card).getByRole('button', { name: /緊急停止/ })).toBeTruthy();
    // The server plays no crane itself: no admin can move a station off its machine.
    expect(within(card).queryByRole('button', { name: /シミュレーター/ })).toBeNull();
    await connectCabinet();
    await waitFor(() => expect(text(card, 'op-machine-connection')).toContain('接続中'), SHOWN);
  });
});
