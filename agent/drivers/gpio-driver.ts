import { performance } from 'node:perf_hooks';
import type { AgentCommand, StationCapabilities } from '../../src/contract/agent.schema';
import type { CommandOutcome, MachineDriver, MachineEvents, MachineStatus } from '../machine-driver';
import { checkLinesUnique, parseGpioStation, type GpioStationConfig } from './gpio-config';
import { GpioHelper, type GpioHelperConfig, type GpioHelperListener } from './gpio-helper-process';
import { GpioStation, type GpioClock } from './gpio-station';

/*
 * Driver `gpio`: relays on a cabinet's buttons and a chute sensor, on a Linux GPIO chip through
 * libgpiod v2. The lines are held by a helper process (gpio-helper.py) that drives every output
 * inactive when the agent dies, SIGKILL included (docs/agent-wiring.md, "Safety"); this side keeps
 * each station's phase, interlock, debounce, pulses and faults.
 */

export interface GpioDriverOptions {
  log(line: string): void;
  /** Monotonic milliseconds and one-shot timers (tests move time by hand). */
  clock?: GpioClock;
  /** The Python that has python3-libgpiod 2.x: Debian's own, /usr/bin/python3, unless told. */
  python?: string;
  /** The helper's environment (tests put the stand-in binding first on PYTHONPATH). */
  env?: NodeJS.ProcessEnv;
  /** The consumer name the lines show in `gpioinfo`. */
  consumer?: string;
  /** Every raw input level the helper reports, before the driver's debounce (diagnostics). */
  trace?(stationId: number, input: 'chute_sensor' | 'home_switch', active: boolean): void;
  startTimeoutMs?: number;
}

const systemClock: GpioClock = {
  now: () => performance.now(),
  setTimeout(task, delayMs) {
    const handle = setTimeout(task, Math.max(0, delayMs));
    return { cancel: () => clearTimeout(handle) };
  },
};

const OUTPUTS = ['right', 'back', 'drop', 'credit'] as const;
const lineKey = (stationId: number, role: string) => `${stationId}.${role}`;

/** The helper's view of the stations: one request per chip, ids `<station>.<role>`. */
export function helperConfigOf(
  stations: readonly { stationId: number; config: GpioStationConfig }[],
  consumer: string,
): GpioHelperConfig {
  const chips = new Map<
    string,
    {
      path: string;
      outputs: GpioHelperConfig['chips'][number]['outputs'][number][];
      inputs: GpioHelperConfig['chips'][number]['inputs'][number][];
    }
  >();
  const interlock: [string, string][] = [];
  for (const { stationId, config } of stations) {
    const chip = chips.get(config.chip) ?? { path: config.chip, outputs: [], inputs: [] };
    chips.set(config.chip, chip);
    for (const name of OUTPUTS) {
      const output = config.outputs[name];
      if (output)
        chip.outputs.push({ id: lineKey(stationId, name), line: output.line, active_low: output.active === 'low' });
    }
    for (const [role, input] of [
      ['chute_sensor', config.chute_sensor],
      ['home_switch', config.home_switch],
    ] as const) {
      if (input)
        chip.inputs.push({
          id: lineKey(stationId, role),
          line: input.line,
          active_low: input.active === 'low',
          bias: input.bias,
          debounce_ms: input.debounce_ms,
        });
    }
    interlock.push([lineKey(stationId, 'right'), lineKey(stationId, 'back')]);
  }
  return { consumer, interlock, chips: [...chips.values()] };
}

/**
 * Builds the gpio driver for the stations of a machine file. Throws GpioConfigError for a bad
 * `gpio` section; `start` rejects (GpioHelperError) when libgpiod v2 or the chip is missing.
 */
export function createGpioDriver(
  stations: readonly { station_id: number; gpio: unknown }[],
  options: GpioDriverOptions,
): MachineDriver {
  const configs = stations.map((s) => ({ stationId: s.station_id, config: parseGpioStation(s.station_id, s.gpio) }));
  checkLinesUnique(configs);
  const clock = options.clock ?? systemClock;
  const byId = new Map<number, GpioStation>();
  let helper: GpioHelper | null = null;
  let closing = false;

  const capabilities: StationCapabilities[] = configs.map(({ stationId }) => ({
    station_id: stationId,
    position: false,
    phases: false,
    chute_sensor: true,
    arm_strength: false,
  }));

  const linesFor = (stationId: number, config: GpioStationConfig) => {
    const send = (command: Parameters<GpioHelper['send']>[0]) =>
      helper ? helper.send(command) : Promise.reject(new Error('the gpio driver is not started'));
    return {
      set: (values: Partial<Record<'right' | 'back', boolean>>) =>
        send({ set: Object.fromEntries(Object.entries(values).map(([k, v]) => [lineKey(stationId, k), v ? 1 : 0])) }),
      pulse: (output: 'drop' | 'credit', ms: number) => send({ pulse: lineKey(stationId, output), ms }),
      off: () =>
        send({
          set: Object.fromEntries(OUTPUTS.filter((o) => config.outputs[o]).map((o) => [lineKey(stationId, o), 0])),
        }),
    };
  };

  const listenerFor = (events: MachineEvents): GpioHelperListener => ({
    edge(id, active) {
      const [station, role] = id.split('.') as [string, 'chute_sensor' | 'home_switch'];
      options.trace?.(Number(station), role, active);
      byId.get(Number(station))?.sawInput(role, active);
    },
    pulseEnd(id) {
      const [station, output] = id.split('.') as [string, 'drop' | 'credit'];
      byId.get(Number(station))?.pulseEnded(output);
    },
    exited(reason) {
      helper = null;
      if (closing) return;
      options.log(`gpio: ${reason}`);
      for (const [stationId, station] of byId) {
        station.releasedAll();
        events.fault(stationId, 'driver', 'the GPIO helper ended; the station is out of service');
      }
    },
  });

  return {
    name: 'gpio',
    stations: capabilities,
    async start(events) {
      const started = await GpioHelper.start(
        {
          python: options.python ?? '/usr/bin/python3',
          env: options.env ?? process.env,
          config: helperConfigOf(configs, options.consumer ?? 'onkure'),
          startTimeoutMs: options.startTimeoutMs ?? 10_000,
        },
        listenerFor(events),
      );
      helper = started.helper;
      options.log(`gpio: libgpiod ${started.api}, helper pid ${started.helper.pid}, every output inactive`);
      for (const { stationId, config } of configs) {
        const station = new GpioStation(
          config,
          linesFor(stationId, config),
          clock,
          {
            changed: () => events.status(stationId, station.status()),
            prize: (playId) => events.prize(stationId, playId),
            fault: (code, text) => events.fault(stationId, code, text),
          },
          {
            sensorBlocked: started.inputs[lineKey(stationId, 'chute_sensor')] === true,
            atHome: config.home_switch ? started.inputs[lineKey(stationId, 'home_switch')] === true : null,
          },
        );
        byId.set(stationId, station);
        events.status(stationId, station.status());
      }
    },
    status(stationId): MachineStatus {
      const station = byId.get(stationId);
      if (!station) throw new Error(`station ${stationId} is not served by the gpio driver`);
      return station.status();
    },
    carryOut(stationId: number, command: AgentCommand): Promise<CommandOutcome> | CommandOutcome {
      const station = byId.get(stationId);
      if (!station) return { ok: false, reason: 'unknown_station' };
      if (!helper) return { ok: false, reason: 'driver' };
      return station.carryOut(command);
    },
    releaseAll() {
      helper?.offNow().catch(() => undefined);
      for (const station of byId.values()) station.releasedAll();
    },
    release(stationId) {
      byId.get(stationId)?.releaseNow();
    },
    async close() {
      closing = true;
      for (const station of byId.values()) station.close();
      await helper?.close();
      helper = null;
    },
  };
}
