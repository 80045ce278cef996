import { describe, expect, it } from 'vitest';
import { AgentConnection, type AgentEnd } from '../../agent/agent-connection';
import { AGENT_CLOSE, AGENT_PROTOCOL_VERSION, AGENT_TIMINGS } from '../../src/contract/agent.schema';
import { ManualClock } from '../../src/testing';
import { ScriptedDriver, ScriptedSockets } from './agent-doubles';

const KEY = 'ok_station_key_0123456789abcdef';

function harness(stations = [1, 2]) {
  const clock = new ManualClock(0);
  const sockets = new ScriptedSockets();
  const driver = new ScriptedDriver(stations);
  const lines: string[] = [];
  const connection = new AgentConnection({
    server: 'ws://127.0.0.1:1/agent',
    key: KEY,
    version: '0.1.0',
    driver,
    clock,
    openSocket: sockets.open,
    log: (line) => lines.push(line),
    random: () => 1,
  });
  void driver.start(connection.events);
  let end: AgentEnd | null = null;
  void connection.done.then((e) => (end = e));
  connection.connect();
  /** Accepts the agent's socket and welcomes it. */
  const online = (welcomed = stations) => {
    const socket = sockets.last.accept();
    socket.welcome(welcomed);
    return socket;
  };
  return { clock, sockets, driver, lines, connection, online, end: () => end };
}

/** Lets promise callbacks run (a deferred driver's outcomes). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('agent connection', () => {
  it('says hello first, then sends one state per welcomed station and answers each ping at once', () => {
    const h = harness();
    const socket = h.sockets.last.accept();
    expect(socket.url).toBe('ws://127.0.0.1:1/agent');
    expect(socket.sent).toEqual([
      {
        v: AGENT_PROTOCOL_VERSION,
        type: 'hello',
        key: KEY,
        agent: { name: 'onkure-agent', version: '0.1.0' },
        driver: 'scripted',
        stations: h.driver.stations,
      },
    ]);
    socket.welcome([1, 2]);
    expect(h.connection.bounds?.watchdog_ms).toBe(1_000);
    expect(socket.sent.slice(1).map((m) => [m.type, 'seq' in m && m.seq, 'station_id' in m && m.station_id])).toEqual([
      ['state', 1, 1],
      ['state', 2, 2],
    ]);
    h.clock.advance(120);
    socket.ping(4_242);
    expect(socket.sent.at(-1)).toEqual({ v: 1, type: 'pong', t: 4_242, at: 120 });
    expect(h.lines).toContain('connected: key key-1, stations 1, 2');
  });

  it('[R11-1] a replayed or out-of-order sequence number is acked stale and nothing is carried out', () => {
    const h = harness();
    const socket = h.online();
    socket.command(5, 1, { type: 'press', play_id: 7, button: 'right' });
    socket.command(5, 1, { type: 'press', play_id: 7, button: 'right' });
    socket.command(4, 1, { type: 'release', play_id: 7, button: 'right' });
    socket.command(6, 1, { type: 'release', play_id: 7, button: 'right' });
    expect(h.driver.calls).toEqual(['press right @1', 'release right @1']);
    expect(socket.of('ack').map((a) => [a.command_seq, a.ok, a.reason])).toEqual([
      [5, true, undefined],
      [5, false, 'stale'],
      [4, false, 'stale'],
      [6, true, undefined],
    ]);
    const seqs = socket.sent.flatMap((m) => ('seq' in m ? [m.seq] : []));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it('interlocks the directions: a press of one while the other is held is refused', () => {
    const h = harness();
    const socket = h.online();
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    socket.command(2, 1, { type: 'press', play_id: 7, button: 'back' });
    socket.command(3, 2, { type: 'press', play_id: 7, button: 'back' });
    expect(h.driver.calls).toEqual(['press right @1', 'press back @2']);
    expect(socket.of('ack').map((a) => [a.command_seq, a.reason])).toEqual([
      [1, undefined],
      [2, 'interlock'],
      [3, undefined],
    ]);
  });

  it('refuses a command for a station this connection does not drive', () => {
    const h = harness();
    const socket = h.online([1]);
    socket.command(1, 2, { type: 'press', play_id: 7, button: 'right' });
    expect(h.driver.calls).toEqual([]);
    expect(socket.of('ack')).toMatchObject([{ command_seq: 1, ok: false, reason: 'unknown_station' }]);
    expect(socket.of('state').map((s) => s.station_id)).toEqual([1]);
  });

  it('[R11-2] its watchdog releases every output 1 s after the last ping, whatever the socket says; the station with a press cut short reports a fault', () => {
    const h = harness();
    const socket = h.online();
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    for (let t = 500; t <= 5_000; t += 500) {
      h.clock.advance(500);
      socket.ping(t);
    }
    expect(h.driver.calls).not.toContain('releaseAll');
    h.clock.advance(999);
    expect(h.driver.calls).not.toContain('releaseAll');
    h.clock.advance(1);
    expect(h.driver.calls).toContain('releaseAll');
    expect(h.driver.outputs.get(1)).toEqual([]);
    // Station 2 had nothing energised: releasing changed nothing there, so it is not a fault.
    expect(socket.of('fault').map((f) => [f.station_id, f.code])).toEqual([[1, 'watchdog']]);
    expect(h.lines).toContain('no ping for 1000 ms: every output released (stations 1 in fault)');
    // A late server is not a dead one: the socket stays until the link's own bound (silence_ms, 3 s).
    expect(socket.closedWith).toBeNull();
    h.clock.advance(3_000 - 1_000 - 1);
    expect(socket.closedWith).toBeNull();
    h.clock.advance(1);
    expect(socket.closedWith?.code).toBe(AGENT_CLOSE.timeout);
    h.clock.advance(500);
    expect(h.sockets.all).toHaveLength(2);
  });

  it('[R11-2] a ping late by more than the watchdog but within the link bound: outputs off, the same socket carries on', () => {
    const h = harness();
    const socket = h.online();
    h.clock.advance(1_500);
    expect(h.driver.calls).toContain('releaseAll');
    expect(socket.of('fault')).toEqual([]);
    socket.ping(1_500);
    h.clock.advance(2_999);
    socket.ping(4_499);
    h.clock.advance(2_999);
    expect(socket.closedWith).toBeNull();
    expect(h.sockets.all).toHaveLength(1);
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    expect(h.driver.outputs.get(1)).toEqual(['right']);
  });

  it('waits the hello bound (5 s) for the welcome, not the 1 s watchdog: a slow key check is not a dead server', () => {
    const h = harness();
    const socket = h.sockets.last.accept();
    h.clock.advance(AGENT_TIMINGS.watchdogMs * 2);
    // A ping before the welcome (the server sends none) is answered but does not shorten the bound.
    socket.ping(2_000);
    expect(socket.sent.map((m) => m.type)).toEqual(['hello', 'pong']);
    h.clock.advance(AGENT_TIMINGS.helloMs - AGENT_TIMINGS.watchdogMs * 2 - 1);
    expect(socket.closedWith).toBeNull();
    // Nothing was driven: the driver has not been asked anything before a welcome.
    expect(h.driver.calls).toEqual([]);
    h.clock.advance(1);
    expect(socket.closedWith?.code).toBe(AGENT_CLOSE.timeout);
    expect(h.lines).toContain('no welcome for 5000 ms: every output released, reconnecting');
    expect(socket.of('fault')).toEqual([]);
    h.clock.advance(500);
    expect(h.sockets.all).toHaveLength(2);
  });

  it('[R11-2] a welcome late in the hello bound starts the 1 s watchdog from the welcome', () => {
    const h = harness();
    const socket = h.sockets.last.accept();
    h.clock.advance(AGENT_TIMINGS.helloMs - 1);
    socket.welcome([1, 2]);
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    // The hello bound ended with the welcome: only the watchdog counts now.
    h.clock.advance(AGENT_TIMINGS.watchdogMs - 1);
    expect(socket.closedWith).toBeNull();
    expect(h.driver.outputs.get(1)).toEqual(['right']);
    h.clock.advance(1);
    expect(h.driver.outputs.get(1)).toEqual([]);
    expect(h.lines).toContain('no ping for 1000 ms: every output released (stations 1 in fault)');
    expect(socket.of('fault').map((f) => [f.station_id, f.code])).toEqual([[1, 'watchdog']]);
    // The link's bound counts from the welcome too.
    h.clock.advance(3_000 - AGENT_TIMINGS.watchdogMs);
    expect(socket.closedWith?.code).toBe(AGENT_CLOSE.timeout);
  });

  it('[R11-3] stop releases every output synchronously before anything else, queued commands included', async () => {
    const h = harness();
    const socket = h.online();
    h.driver.deferred = [];
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    socket.command(2, 1, { type: 'release', play_id: 7, button: 'right' });
    socket.command(3, 2, { type: 'press', play_id: 7, button: 'back' });
    socket.command(4, 1, { type: 'stop' });
    // The press is still with the driver; the release behind it is refused, the stop goes next.
    expect(h.driver.calls).toEqual(['press right @1', 'release @1']);
    expect(socket.of('ack').map((a) => [a.command_seq, a.reason])).toEqual([[2, 'stopped']]);
    h.driver.deferred[0]!.settle();
    await settle();
    h.driver.deferred[1]!.settle();
    await settle();
    expect(h.driver.calls).toEqual(['press right @1', 'release @1', 'stop @1', 'press back @2']);
    expect(h.driver.outputs.get(1)).toEqual([]);
  });

  it('[R11-3] an emergency stop of one station leaves the other stations of the agent alone', () => {
    const h = harness();
    const socket = h.online();
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    socket.command(2, 2, { type: 'press', play_id: 8, button: 'back' });
    socket.command(3, 1, { type: 'stop' });
    expect(h.driver.calls).not.toContain('releaseAll');
    expect(h.driver.outputs.get(1)).toEqual([]);
    expect(h.driver.outputs.get(2)).toEqual(['back']);
  });

  it('releases a button held past the machine limit (20 s) and reports a hold_limit fault', () => {
    const h = harness();
    const socket = h.online();
    const keepAlive = (ms: number) => {
      for (let t = 0; t < ms; t += 500) {
        h.clock.advance(500);
        socket.ping(h.clock.now());
      }
    };
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'back' });
    keepAlive(AGENT_TIMINGS.holdLimitMs - 500);
    expect(h.driver.outputs.get(1)).toEqual(['back']);
    keepAlive(500);
    expect(h.driver.outputs.get(1)).toEqual([]);
    expect(h.driver.calls).toEqual(['press back @1', 'release back @1']);
    expect(socket.of('fault')).toMatchObject([{ station_id: 1, code: 'hold_limit' }]);
    // A release in time needs no limit.
    socket.command(2, 1, { type: 'press', play_id: 7, button: 'right' });
    keepAlive(1_000);
    socket.command(3, 1, { type: 'release', play_id: 7, button: 'right' });
    keepAlive(AGENT_TIMINGS.holdLimitMs);
    expect(socket.of('fault')).toHaveLength(1);
  });

  it('[R11-3] keeps a prize the sensor saw while disconnected and sends it first after the next welcome', () => {
    const h = harness();
    const first = h.online();
    first.closeFromServer(1006);
    h.driver.emitPrize(1, 7, 3);
    h.driver.emitPrize(1, 7, 4);
    h.driver.emitPrize(2, null);
    h.clock.advance(500);
    const second = h.sockets.last.accept();
    expect(second).not.toBe(first);
    expect(second.sent.map((m) => m.type)).toEqual(['hello']);
    second.welcome([1, 2]);
    expect(second.sent.slice(1).map((m) => [m.type, 'seq' in m && m.seq, 'station_id' in m && m.station_id])).toEqual([
      ['prize', 1, 1],
      ['prize', 2, 2],
      ['state', 3, 1],
      ['state', 4, 2],
    ]);
    expect(second.of('prize')).toMatchObject([{ play_id: 7, prize_id: 4 }, { play_id: null }]);
    expect(second.of('prize')[1]).not.toHaveProperty('prize_id');
    // Once sent, a prize is not sent again.
    second.closeFromServer(4503);
    h.clock.advance(500);
    h.sockets.last.accept().welcome([1, 2]);
    expect(h.sockets.last.of('prize')).toEqual([]);
  });

  it('drops frames other than prizes while disconnected, and releases every output when the socket goes', () => {
    const h = harness();
    const socket = h.online();
    socket.command(1, 1, { type: 'press', play_id: 7, button: 'right' });
    const sent = socket.sent.length;
    socket.closeFromServer(1006);
    expect(h.driver.calls).toEqual(['press right @1', 'releaseAll']);
    expect(socket.sent).toHaveLength(sent);
  });

  it.each([AGENT_CLOSE.badKey, AGENT_CLOSE.forbiddenStation, AGENT_CLOSE.replaced, AGENT_CLOSE.unsupportedVersion])(
    'does not dial again after close %i, and says why',
    async (code) => {
      const h = harness();
      h.online().closeFromServer(code, 'refused');
      h.clock.advance(60_000);
      expect(h.sockets.all).toHaveLength(1);
      await Promise.resolve();
      expect(h.end()).toEqual({ kind: 'refused', code, reason: 'refused' });
      expect(h.lines.at(-1)).toMatch(new RegExp(`closed by the server: ${code} refused; .+; not reconnecting`));
    },
  );

  it.each([AGENT_CLOSE.timeout, AGENT_CLOSE.flood, AGENT_CLOSE.goingAway, 1006, 1001])(
    'dials again after close %i',
    (code) => {
      const h = harness();
      h.online().closeFromServer(code);
      h.clock.advance(10_000);
      expect(h.sockets.all).toHaveLength(2);
      expect(h.end()).toBeNull();
    },
  );

  it('backs off exponentially from 0.5 s to 10 s, and starts again from 0.5 s after a welcome', () => {
    const h = harness();
    const waits: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      h.sockets.last.closeFromServer(1006);
      const at = h.clock.now();
      const count = h.sockets.all.length;
      while (h.sockets.all.length === count) h.clock.advance(10);
      waits.push(h.clock.now() - at);
    }
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    h.online().closeFromServer(1006);
    h.clock.advance(499);
    expect(h.sockets.all).toHaveLength(8);
    h.clock.advance(1);
    expect(h.sockets.all).toHaveLength(9);
  });

  it.each([
    ['not JSON', '{"v":1,'],
    ['not a message', { v: 1, type: 'ping' }],
    ['a binary frame', null],
    ['a command before the welcome', { v: 1, type: 'command', seq: 1, station_id: 1, command: { type: 'stop' } }],
  ])('closes 4400 on %s and dials again', (_what, frame) => {
    const h = harness();
    const socket = h.sockets.last.accept();
    socket.deliver(frame);
    expect(socket.closedWith?.code).toBe(AGENT_CLOSE.badMessage);
    expect(h.lines.some((l) => l.startsWith('bad frame from the server'))).toBe(true);
    h.clock.advance(500);
    expect(h.sockets.all).toHaveLength(2);
  });

  it('stop() closes 1000 and ends without dialing again', async () => {
    const h = harness();
    const socket = h.online();
    const stopped = h.connection.stop();
    expect(socket.closedWith).toEqual({ code: AGENT_CLOSE.normal, reason: 'agent stopping' });
    socket.closeFromServer(1000);
    await stopped;
    await Promise.resolve();
    expect(h.end()).toEqual({ kind: 'stopped' });
    h.clock.advance(60_000);
    expect(h.sockets.all).toHaveLength(1);
  });
});
