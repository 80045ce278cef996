import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MACHINES_POLL_MS,
  OperatorCallFailed,
  OperatorMachines,
  type MachineAction,
  type OperatorApiPort,
  type StationAgentView,
  type StationChange,
} from '../../../src/application/operator';

/**
 * The machines' use-case on its own, time from vitest's fake timers: the agents are read every
 * 2 s while the page is visible and not while it is hidden; the emergency stop is never held back by
 * another action under way [R11-3]. Its calls against the real server: test/ui/operator-machines.test.tsx.
 */

const anAgent = (stationId: number, msAgo: number): StationAgentView => ({
  station_id: stationId,
  key_id: 'abcdefgh0001',
  key_name: 'cabinet',
  agent_name: 'agent',
  agent_version: '1.0.0',
  driver: 'sim',
  remote: '127.0.0.1',
  connected_at: '2026-11-28T00:00:00.000Z',
  last_heard_at: '2026-11-28T00:00:00.000Z',
  last_heard_ms_ago: msAgo,
  round_trip_ms: 3,
  claw: 'idle',
  sensor: 'clear',
  stopped: false,
  outputs: [],
  play_id: null,
});
const change = (stationId: number): StationChange => ({
  station_id: stationId,
  station_status: 'open',
  stock: 3,
  refunded_play_id: null,
});

/** The operator API as the test scripts it: reads counted, machine calls recorded and held until released. */
function scriptedApi() {
  const reads: number[] = [];
  const calls: Array<[number, MachineAction]> = [];
  const held: Array<() => void> = [];
  let hold = false;
  const api: Pick<OperatorApiPort, 'stationAgents' | 'stationCameras' | 'stationFeeds' | 'stationMachine'> = {
    stationFeeds: async () => [
      {
        station_id: 3,
        spectators: { hls: 12, rtc: 2, jpg: 1 },
        clips: {
          window: 10,
          plays: 4,
          ready: 3,
          failed: 1,
          recording: 0,
          removed: 0,
          none: 0,
          last_failure: { play_id: 9, reason: 'no_video', at: '2026-11-29T00:00:00.000Z' },
        },
      },
    ],
    stationAgents: async () => {
      reads.push(Date.now());
      return [anAgent(3, reads.length)];
    },
    stationCameras: async () => [
      {
        station_id: 3,
        camera: 'side',
        publishing: false,
        source: null,
        codec: null,
        kbps: 0,
        fps: 0,
        last_keyframe_at: null,
        viewers: 1,
        stills: false,
        live: false,
      },
      {
        station_id: 3,
        camera: 'front',
        publishing: true,
        source: 'whip',
        codec: 'VP8',
        kbps: 800,
        fps: 30,
        last_keyframe_at: '2026-11-29T00:00:00.000Z',
        viewers: 2,
        stills: true,
        live: true,
      },
    ],
    stationMachine: async (stationId, action) => {
      calls.push([stationId, action]);
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return change(stationId);
    },
  };
  return {
    api,
    reads,
    calls,
    holdCalls: (on: boolean) => (hold = on),
    release: () => held.splice(0).forEach((r) => r()),
  };
}

const session = { refused: async () => undefined, active: true };
const clock = { now: () => Date.now() };

afterEach(() => vi.useRealTimers());

describe('OperatorMachines', () => {
  it('[R11-4] reads the stations’ cameras with the agents: a station’s cameras front first, publishing or not', async () => {
    const s = scriptedApi();
    const machines = new OperatorMachines(s.api, session, clock);
    await machines.refresh();
    expect(machines.camerasOf(3).map((c) => [c.camera, c.publishing, c.codec])).toEqual([
      ['front', true, 'VP8'],
      ['side', false, null],
    ]);
    expect(machines.camerasOf(4)).toEqual([]);
    // With them, each station's spectators by kind and its last plays' clips.
    expect(machines.feedOf(3)?.spectators).toEqual({ hls: 12, rtc: 2, jpg: 1 });
    expect(machines.feedOf(3)?.clips.last_failure?.reason).toBe('no_video');
    expect(machines.feedOf(4)).toBeNull();
    machines.dispose();
  });

  it('reads the agents at once and every 2 s while visible; nothing while hidden; at once when shown again; nothing after dispose', async () => {
    vi.useFakeTimers();
    const s = scriptedApi();
    const machines = new OperatorMachines(s.api, session, clock);
    machines.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.reads).toHaveLength(1);
    expect(machines.snapshot).toMatchObject({ status: 'ready', data: { readAt: Date.now() } });
    expect(machines.agentOf(3)?.last_heard_ms_ago).toBe(1);
    expect(machines.agentOf(4)).toBeNull();
    await vi.advanceTimersByTimeAsync(MACHINES_POLL_MS * 3);
    expect(s.reads).toHaveLength(4);

    machines.setVisible(false);
    await vi.advanceTimersByTimeAsync(MACHINES_POLL_MS * 5);
    expect(s.reads).toHaveLength(4);
    machines.setVisible(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.reads).toHaveLength(5);

    machines.dispose();
    await vi.advanceTimersByTimeAsync(MACHINES_POLL_MS * 5);
    expect(s.reads).toHaveLength(5);
  });

  it('keeps the last agents shown when a read fails, with the server’s words', async () => {
    vi.useFakeTimers();
    const s = scriptedApi();
    let fail = false;
    const read = s.api.stationAgents;
    s.api.stationAgents = () =>
      fail ? Promise.reject(new OperatorCallFailed('transport', 0, 0, null, 'operator/station_agents')) : read();
    const machines = new OperatorMachines(s.api, session, clock);
    machines.start();
    await vi.advanceTimersByTimeAsync(0);
    fail = true;
    await vi.advanceTimersByTimeAsync(MACHINES_POLL_MS);
    expect(machines.snapshot).toMatchObject({ status: 'error', error: '' });
    expect(machines.agentOf(3)).not.toBeNull();
    fail = false;
    await vi.advanceTimersByTimeAsync(MACHINES_POLL_MS);
    expect(machines.snapshot.status).toBe('ready');
    machines.dispose();
  });

  it('[R11-3] an emergency stop goes out while another machine action is still under way; a second ordinary action waits its turn', async () => {
    const s = scriptedApi();
    const machines = new OperatorMachines(s.api, session, clock);
    s.holdCalls(true);
    const home = machines.home(3);
    expect(await machines.resume(4)).toBeNull();
    const stop = machines.emergencyStop(4);
    expect(s.calls).toEqual([
      [3, 'home'],
      [4, 'emergency_stop'],
    ]);
    expect(machines.snapshot.data.target).toBe(4);
    s.release();
    expect(await stop).toEqual(change(4));
    expect(await home).toEqual(change(3));
    machines.dismissAction();
    expect(machines.snapshot.data.target).toBeNull();
    machines.dispose();
  });
});
