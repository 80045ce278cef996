import { describe, expect, it } from 'vitest';
import {
  MACHINE_TIMINGS,
  PLAY_TIMINGS,
  transition,
  type MachineLink,
  type MachineReport,
  type RoomAnswer,
  type RoomEffect,
  type RoomEvent,
  type RoomWrite,
  type RoomSnapshot,
  type StationRoomState,
  restoreRoom,
} from '../../../src/domain';
import type { CraneState } from '../../../src/domain/play/crane-machine';
import { aStation, T0, WAITING } from './station-room.fixtures';
import { crane } from '../../../src/domain';

/*
 * A station driven by its machine's agent (docs/agent-protocol.md): the room keeps the rules and
 * sends commands; the machine reports. Each test walks a room through events as the server's room
 * would feed them, one at a time, and reads the effects it asks for.
 */

const PLAY = 700;
const HOLDER = { userId: 10, reserveId: 100, settingId: 7 };
const idle: MachineReport = { playId: null, phase: 'idle', sensor: 'clear', stopped: false, position: null, sim: null };
const ready: MachineLink = { connected: true, report: idle, fault: null, emergencyStopped: false };
const field = { prizes: crane.layPrizes(7919, 3, 1, 'plush'), nextPrizeId: 4 };

class Walk {
  effects: RoomEffect[] = [];
  answers: RoomAnswer[] = [];
  now = T0;
  constructor(public state: StationRoomState) {}

  on(event: RoomEvent, at = this.now): this {
    this.now = at;
    const step = transition(this.state, event, at);
    this.state = step.state;
    this.effects.push(...step.effects);
    this.answers.push(step.answer);
    return this;
  }

  /** Time passes to `at` (the room hears `clock` there). */
  at(at: number): this {
    return this.on({ type: 'clock' }, at);
  }

  report(phase: MachineReport['phase'], over: Partial<MachineReport> = {}): this {
    return this.on({ type: 'machineReport', report: { ...idle, playId: PLAY, phase, ...over } });
  }

  /** The commands sent to the machine since the last call. */
  commands(): string[] {
    const sent = this.effects
      .filter((e): e is Extract<RoomEffect, { type: 'machineCommand' }> => e.type === 'machineCommand')
      .map((e) => ('button' in e.command ? `${e.command.type} ${e.command.button}` : e.command.type));
    this.effects = this.effects.filter((e) => e.type !== 'machineCommand');
    return sent;
  }

  writes(kind: RoomWrite['kind']): RoomWrite[] {
    return this.effects.flatMap((e) => (e.type === 'commit' ? e.writes : [])).filter((w) => w.kind === kind);
  }

  get phase(): string {
    return this.state.turn.phase;
  }

  get lastAnswer(): RoomAnswer {
    return this.answers.at(-1)!;
  }
}

const room = (machine: MachineLink = ready): StationRoomState => ({
  station: aStation(),
  field,
  line: [],
  turn: { phase: 'idle' },
  machine,
});

/** A room whose holder confirmed and was charged: the play's start goes to the machine. */
function charged(machine: MachineLink, seed: number): Walk {
  return new Walk(room(machine))
    .on({ type: 'joined', ...HOLDER })
    .on({ type: 'confirm', userId: HOLDER.userId })
    .on({
      type: 'playStarted',
      started: {
        playId: PLAY,
        userId: HOLDER.userId,
        currency: 'tc',
        price: 100,
        seed: seed,
        armStrength: 0.5,
        assistLevel: 0,
        gaugeMisses: 0,
        charged: { free: 100, toll: 0 },
      },
    });
}

/** A room whose holder's play has started: the start command sent and taken, the reset window over. */
function playing(machine: MachineLink = ready): Walk {
  const walk = charged(machine, 42);
  expect(walk.commands()).toEqual(['start']);
  walk.on({
    type: 'machineAck',
    command: { type: 'start', playId: PLAY, armStrength: 0.5, sim: { seed: 42, layout: field.prizes } },
    ok: true,
    reason: null,
    tick: null,
  });
  walk.report('ready').at(T0 + PLAY_TIMINGS.resetMs);
  expect(walk.phase).toBe('playing');
  return walk;
}

const control = (button: 'right' | 'back', command: 'press' | 'release'): RoomEvent => ({
  type: 'control',
  userId: HOLDER.userId,
  playId: PLAY,
  button,
  command,
});

describe('a station driven by its machine’s agent', () => {
  it('[R11-2] offers no turn until its agent is connected and reports the claw idle and the chute clear', () => {
    const walk = new Walk(room({ connected: false, report: null, fault: 'agent', emergencyStopped: false }));
    walk.on({ type: 'joined', ...HOLDER });
    expect(walk.phase).toBe('idle');
    walk.on({ type: 'machineConnected' }).report('idle', { playId: null, sensor: 'blocked' });
    expect(walk.phase).toBe('idle');
    walk.report('idle', { playId: null, sensor: 'clear' });
    expect(walk.phase).toBe('turnOffered');
    expect(walk.state.machine?.fault).toBeNull();
  });

  it('[R11-2] an offered turn whose agent goes takes the holder back to the head of the line, in the store too', () => {
    const walk = new Walk(room()).on({ type: 'joined', ...HOLDER });
    expect(walk.phase).toBe('turnOffered');
    walk.on({ type: 'machineGone', reason: 'closed' });
    expect(walk.phase).toBe('idle');
    expect(walk.state.line.map((w) => w.reserveId)).toEqual([HOLDER.reserveId]);
    // The player's record no longer says "your turn" while nobody can take it.
    expect(walk.writes('withdrawTurn')).toEqual([{ kind: 'withdrawTurn', reserveId: HOLDER.reserveId }]);
    expect(walk.writes('refund')).toEqual([]);
    walk.on({ type: 'machineConnected' }).report('idle', { playId: null });
    expect(walk.phase).toBe('turnOffered');
  });

  it('[R11-1] [R11-3] sends each button as a command and records the win the chute sensor reports', () => {
    const walk = playing();
    walk.on(control('right', 'press'), T0 + 3_000);
    expect(walk.lastAnswer).toMatchObject({ kind: 'control', machine: { phase: 'movingRight' } });
    walk.on(control('right', 'release'), T0 + 4_000).on(control('back', 'press'), T0 + 5_000);
    walk.on(control('back', 'release'), T0 + 6_000);
    expect(walk.commands()).toEqual(['press right', 'release right', 'press back', 'release back']);
    walk.report('dropping').report('lifting').report('returning');
    // The sensor, not the claw's path, decides: a prize for another play is not this play's win.
    walk.on({ type: 'machinePrize', playId: PLAY + 1, prizeId: 2 });
    walk.on({ type: 'machinePrize', playId: PLAY, prizeId: 2 });
    walk.report('idle', { playId: null });
    expect(walk.phase).toBe('result');
    const [result] = walk.writes('recordResult');
    expect(result).toMatchObject({ result: 'win', prizeWon: { productName: 'Bear plush' }, userId: HOLDER.userId });
    // Another prize after the result changes no result: it is kept for the operator to settle, as
    // the one named for another play was.
    walk.on({ type: 'machinePrize', playId: PLAY, prizeId: 3 });
    expect(walk.writes('recordResult')).toHaveLength(1);
    expect(walk.writes('strayPrize')).toEqual([
      { kind: 'strayPrize', playId: PLAY + 1, prizeId: 2 },
      { kind: 'strayPrize', playId: PLAY, prizeId: 3 },
    ]);
    expect(walk.effects.filter((e) => e.type === 'floorChanged')).toHaveLength(2);
  });

  it('[R11-3] records a miss when the claw is home and the chute stays clear through the settle window', () => {
    const walk = playing();
    walk.on(control('right', 'press'), T0 + 3_000).on(control('right', 'release'), T0 + 3_500);
    walk.on(control('back', 'press'), T0 + 4_000).on(control('back', 'release'), T0 + 4_500);
    walk.report('dropping').report('idle', { playId: null });
    expect(walk.phase).toBe('playing');
    walk.at(walk.now + MACHINE_TIMINGS.settleMs - 1);
    expect(walk.phase).toBe('playing');
    walk.at(walk.now + 1);
    expect(walk.phase).toBe('result');
    expect(walk.writes('recordResult')).toEqual([expect.objectContaining({ result: 'miss', prizeWon: null })]);
    // [R11-9] The turn counts one more miss in a row (staff assist).
    expect((walk.state.turn as { holder: { runMisses?: number } }).holder.runMisses).toBe(1);
  });

  it('fires a waiting button by itself at the published limit, and lets a held one go at the server’s bound', () => {
    const walk = playing();
    const woke = T0 + PLAY_TIMINGS.resetMs;
    walk.at(woke + PLAY_TIMINGS.buttonLimitMs);
    expect(walk.commands()).toEqual(['press right']);
    walk.at(walk.now + MACHINE_TIMINGS.autoMoveMs);
    expect(walk.commands()).toEqual(['release right']);
    // ↑ held past the server's bound (inside the agent's own 20 s): the server lets go, the claw drops.
    walk.on(control('back', 'press'), walk.now + 1_000);
    walk.at(walk.now + MACHINE_TIMINGS.holdMs);
    expect(walk.commands()).toEqual(['press back', 'release back']);
    expect(walk.state.turn).toMatchObject({ play: { machine: { phase: 'dropping' } } });
    // The auto press and both releases are in the play's log.
    expect(
      walk.state.turn.phase === 'playing' && walk.state.turn.play.inputs.map((i) => `${i.command} ${i.button}`),
    ).toEqual(['press right', 'release right', 'press back', 'release back']);
  });

  it('[R11-2] an agent gone mid-play refunds the play once, ends the holder’s place and offers no turn until it is back and ready', () => {
    const walk = playing();
    walk.state = { ...walk.state, line: [WAITING] };
    walk.on(control('right', 'press'), T0 + 3_000);
    walk.on({ type: 'machineGone', reason: 'silent' });
    walk.on({ type: 'machineGone', reason: 'closed' });
    expect(walk.writes('refund')).toEqual([expect.objectContaining({ playId: PLAY, userId: HOLDER.userId })]);
    expect(walk.effects).toContainEqual({ type: 'reserveCancelled', userId: HOLDER.userId, reason: 'maintenance' });
    expect(walk.phase).toBe('idle');
    walk.at(walk.now + 60_000);
    expect(walk.phase).toBe('idle');
    // Back, but mid-cycle: still no turn; home and clear: the next player's turn.
    walk.on({ type: 'machineConnected' }).report('returning', { playId: PLAY });
    expect(walk.phase).toBe('idle');
    walk.report('idle', { playId: null });
    expect(walk.phase).toBe('turnOffered');
    expect(walk.state.turn.phase === 'turnOffered' && walk.state.turn.holder.userId).toBe(WAITING.userId);
  });

  it('[R11-2] an agent back from a partition with the refunded play still waiting for a button: the room drops it, and the station is ready once the claw is home', () => {
    const walk = playing();
    walk.state = { ...walk.state, line: [WAITING] };
    walk.on(control('right', 'press'), T0 + 3_000);
    walk.commands();
    walk.on({ type: 'machineGone', reason: 'silent' });
    expect(walk.writes('refund')).toHaveLength(1);
    // Its watchdog let → go: the claw waits for ↑ in a play nobody runs any more.
    walk.on({ type: 'machineConnected' }).report('waitBack');
    expect(walk.commands()).toEqual(['drop']);
    expect(walk.phase).toBe('idle');
    walk.report('dropping').report('lifting');
    expect(walk.commands()).toEqual([]);
    walk.report('idle', { playId: null });
    expect(walk.phase).toBe('turnOffered');
    expect(walk.writes('refund')).toHaveLength(1);
    expect(walk.writes('recordResult')).toEqual([]);
  });

  it('refunds a play whose start the machine refuses (the chute sensor blocked)', () => {
    const walk = charged(ready, 1);
    walk.on({
      type: 'machineAck',
      command: { type: 'start', playId: PLAY, armStrength: 0.5, sim: { seed: 1, layout: [] } },
      ok: false,
      reason: 'sensor_blocked',
      tick: null,
    });
    expect(walk.writes('refund')).toHaveLength(1);
    expect(walk.phase).toBe('idle');
    expect(walk.state.machine?.fault).toBe('start_sensor_blocked');
  });

  it('[R11-2] a claw that never comes home after the drop is a fault: the play is refunded', () => {
    const walk = playing();
    walk.on(control('right', 'press'), T0 + 3_000).on(control('right', 'release'), T0 + 3_100);
    walk.on(control('back', 'press'), T0 + 3_200).on(control('back', 'release'), T0 + 3_300);
    walk.at(T0 + 3_300 + MACHINE_TIMINGS.cycleMs);
    expect(walk.writes('refund')).toHaveLength(1);
    expect(walk.state.machine?.fault).toBe('cycle_timeout');
  });

  it('[R11-3] an emergency stop goes out first, refunds the play and keeps the station out of service until resumed', () => {
    const walk = playing();
    walk.state = { ...walk.state, line: [WAITING] };
    walk.effects = [];
    walk.on({ type: 'emergencyStop' });
    expect(walk.effects.find((e) => e.type === 'machineCommand' || e.type === 'commit')).toEqual({
      type: 'machineCommand',
      command: { type: 'stop' },
    });
    expect(walk.lastAnswer).toEqual({ kind: 'operator', refundedPlayId: PLAY });
    expect(walk.writes('refund')).toHaveLength(1);
    walk.report('idle', { playId: null, stopped: true });
    expect(walk.phase).toBe('idle');
    walk.commands();
    walk.on({ type: 'resumeMachine' });
    expect(walk.commands()).toEqual(['resume', 'home']);
    expect(walk.phase).toBe('idle');
    walk.report('idle', { playId: null });
    expect(walk.phase).toBe('turnOffered');
  });

  it('a player gone mid-move has the button let go and the claw wait in the grace window; the drop comes when it lapses', () => {
    const walk = playing();
    walk.on(control('right', 'press'), T0 + 3_000);
    walk.commands();
    walk.on({ type: 'away', userId: HOLDER.userId }, T0 + 3_500);
    expect(walk.commands()).toEqual(['release right']);
    expect(walk.phase).toBe('away');
    walk.at(T0 + 3_500 + PLAY_TIMINGS.graceMs);
    expect(walk.commands()).toEqual(['drop']);
    expect(walk.phase).toBe('playing');
  });

  describe('[R10-1] a restart of the server mid-play: the play goes on when the machine still runs it', () => {
    /** The room as the store holds it when the server died with the play in `phase` on the machine. */
    const restarted = (phase: CraneState['phase'], over: Partial<NonNullable<RoomSnapshot['play']>> = {}) => {
      const at = T0 + 60_000;
      const snapshot: RoomSnapshot = {
        station: aStation(),
        field,
        reservations: [
          { ...HOLDER, status: 'playWaiting', deadline: null },
          { ...WAITING, status: 'reserve', deadline: null },
        ],
        play: {
          playId: PLAY,
          reserveId: HOLDER.reserveId,
          userId: HOLDER.userId,
          currency: 'tc',
          price: 100,
          charged: { free: 100, toll: 0 },
          armStrength: 0.5,
          assistLevel: 0,
          gaugeMisses: 0,
          inputs: [],
          dropAtTick: null,
          phase: 'playing',
          seed: 42,
          layout: field.prizes,
          machine: { ...crane.startPlay(field.prizes, 0.5, 42, true), phase, tick: 80 },
          phaseDeadline: null,
          graceDeadline: null,
          result: null,
          ...over,
        },
      };
      const restored = restoreRoom(snapshot, at);
      const walk = new Walk(restored.state);
      walk.effects.push(...restored.effects);
      walk.on({ type: 'resumed' }, at);
      return walk;
    };

    it('waiting for ↑: nothing is refunded while the agent is away; its report names the play, the player comes back and plays it to its result, charged once', () => {
      const walk = restarted('waitBack');
      expect(walk.phase).toBe('away');
      expect(walk.writes('refund')).toEqual([]);
      expect(walk.commands()).toEqual([]);
      // The player is back before the agent: the play waits for it, and a button is refused, not lost.
      walk.on({ type: 'back', userId: HOLDER.userId });
      expect(walk.phase).toBe('playing');
      walk.on(control('back', 'press'));
      expect(walk.lastAnswer).toEqual({ kind: 'refused', refusal: 'buttonNotReady' });
      expect(walk.commands()).toEqual([]);
      walk.on({ type: 'machineConnected' }).report('waitBack', { playId: PLAY });
      expect(walk.phase).toBe('playing');
      walk.on(control('back', 'press')).on(control('back', 'release'), walk.now + 300);
      expect(walk.commands()).toEqual(['press back', 'release back']);
      walk.report('dropping', { playId: PLAY });
      walk.on({ type: 'machinePrize', playId: PLAY, prizeId: field.prizes[0]!.id });
      walk.report('idle', { playId: null });
      expect(walk.phase).toBe('result');
      expect(walk.writes('refund')).toEqual([]);
      expect(walk.writes('recordResult')).toEqual([expect.objectContaining({ playId: PLAY, result: 'win' })]);
      // [R11-9] A win starts the misses in a row again.
      expect((walk.state.turn as { holder: { runMisses?: number } }).holder.runMisses).toBe(0);
    });

    it('→ held when the server died: the agent let go, so the claw waits for ↑ and the release is in the play’s log', () => {
      const walk = restarted('movingRight');
      expect(walk.phase).toBe('away');
      expect(walk.state.turn.phase === 'away' && walk.state.turn.play.machine.phase).toBe('waitBack');
      expect(walk.state.turn.phase === 'away' && walk.state.turn.play.inputs).toEqual([
        { tick: 80, button: 'right', command: 'release' },
      ]);
      expect(walk.commands()).toEqual([]);
    });

    it('[R10-8] → held when the instance running the room died, its agent connected to one that lived on (no watchdog fired): the room lets go of → itself', () => {
      const walk = restarted('movingRight');
      walk.on({ type: 'machineConnected' }).report('movingRight', { playId: PLAY });
      expect(walk.commands()).toEqual(['release right']);
      expect(walk.state.machine.fault).toBeNull();
      walk.report('waitBack', { playId: PLAY });
      walk.on({ type: 'back', userId: HOLDER.userId }).on(control('back', 'press'));
      expect(walk.commands()).toEqual(['press back']);
      expect(walk.writes('refund')).toEqual([]);
    });

    it('the machine no longer runs it (its agent restarted too): refunded exactly once, and the next turn goes out', () => {
      const walk = restarted('waitBack');
      walk.on({ type: 'machineConnected' }).report('idle', { playId: null });
      expect(walk.writes('refund')).toEqual([expect.objectContaining({ playId: PLAY, userId: HOLDER.userId })]);
      expect(walk.phase).toBe('turnOffered');
      expect(walk.state.turn.phase === 'turnOffered' && walk.state.turn.holder.userId).toBe(WAITING.userId);
      walk.report('idle', { playId: null });
      expect(walk.writes('refund')).toHaveLength(1);
    });

    it('the drop finished while the server was gone and the chute saw the prize: the win is recorded, never refunded', () => {
      const walk = restarted('closing');
      expect(walk.phase).toBe('playing');
      // The agent sends the prize it kept before its first state.
      walk.on({ type: 'machineConnected' }).on({ type: 'machinePrize', playId: PLAY, prizeId: field.prizes[1]!.id });
      walk.report('idle', { playId: null });
      expect(walk.phase).toBe('result');
      expect(walk.writes('refund')).toEqual([]);
      expect(walk.writes('recordResult')).toEqual([expect.objectContaining({ playId: PLAY, result: 'win' })]);
    });

    it('a result recorded before the crash stands: its continue window runs, a continue waits for the agent to report the machine home, then plays', () => {
      const walk = restarted('done', { phase: 'result', result: 'miss', phaseDeadline: T0 + 60_000 + 8_000 });
      expect(walk.phase).toBe('result');
      expect(walk.writes('refund')).toEqual([]);
      walk.on({ type: 'continue', userId: HOLDER.userId, playId: PLAY });
      expect(walk.lastAnswer).toEqual({ kind: 'refused', refusal: 'machineDown' });
      expect(walk.phase).toBe('result');
      walk.on({ type: 'machineConnected' }).report('idle', { playId: null });
      walk.on({ type: 'continue', userId: HOLDER.userId, playId: PLAY });
      expect(walk.phase).toBe('starting');
      expect(walk.writes('endReservations')).toEqual([]);
    });

    const resetting = () =>
      restarted('ready', { phase: 'resetting', machine: null, phaseDeadline: T0 + 59_000, inputs: [] });

    it('still resetting when the server died, the machine took the start: nothing refunded, the buttons wake when its agent names the play', () => {
      const walk = resetting();
      expect(walk.phase).toBe('resetting');
      walk.at(walk.now + MACHINE_TIMINGS.startMs + 1_000);
      expect(walk.phase).toBe('resetting');
      expect(walk.writes('refund')).toEqual([]);
      walk.on({ type: 'machineConnected' }).report('ready', { playId: PLAY });
      // The player's connection went with the old process: the play waits for them in its grace window.
      expect(walk.phase).toBe('away');
      walk.on({ type: 'back', userId: HOLDER.userId });
      expect(walk.phase).toBe('playing');
      expect(walk.commands()).toEqual([]);
      expect(walk.writes('refund')).toEqual([]);
    });

    it('still resetting when the server died, the start never reached the machine: it goes again with the same seed and layout, and the play runs', () => {
      const walk = resetting();
      walk.on({ type: 'machineConnected' }).report('idle', { playId: null });
      const start = walk.effects.find(
        (e): e is Extract<RoomEffect, { type: 'machineCommand' }> =>
          e.type === 'machineCommand' && e.command.type === 'start',
      );
      expect(start?.command).toEqual({
        type: 'start',
        playId: PLAY,
        armStrength: 0.5,
        sim: { seed: 42, layout: field.prizes },
      });
      expect(walk.phase).toBe('resetting');
      walk.on({ type: 'machineAck', command: start!.command, ok: true, reason: null, tick: 0 });
      expect(walk.phase).toBe('away');
      walk.on({ type: 'back', userId: HOLDER.userId });
      expect(walk.phase).toBe('playing');
      expect(walk.writes('refund')).toEqual([]);
    });

    it('still resetting when the server died, its agent never came back: refunded exactly once after the bound', () => {
      const walk = resetting();
      walk.at(walk.now + MACHINE_TIMINGS.reattachMs - 1);
      expect(walk.writes('refund')).toEqual([]);
      walk.at(walk.now + 2).at(walk.now + 1_000);
      expect(walk.writes('refund')).toEqual([expect.objectContaining({ playId: PLAY })]);
    });

    it('still resetting when the server died, the machine is busy with something else: refunded once', () => {
      const walk = resetting();
      walk.on({ type: 'machineConnected' }).report('returning', { playId: 699 });
      expect(walk.writes('refund')).toEqual([expect.objectContaining({ playId: PLAY })]);
      walk.report('idle', { playId: null });
      expect(walk.writes('refund')).toHaveLength(1);
    });
  });
});
