import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type { AgentFaultCode } from '../../src/contract/agent.schema';
import type { MachineEvents, MachineStatus } from '../../agent/machine-driver';

/*
 * The GPIO tests' stand-in device: the real helper (agent/drivers/gpio-helper.py) runs with a
 * stand-in for python3-libgpiod first on PYTHONPATH (test/agent/gpio-fake-gpiod), which records
 * every request and every value written, with the physical level, to a file. Nothing of the
 * driver or the helper is replaced; only the library's last call into the character device is.
 */

export const FAKE_GPIOD = fileURLToPath(new URL('./gpio-fake-gpiod', import.meta.url));
/** Debian's python where python3-libgpiod would be; any python3 runs the stand-in. */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export interface FakeRecord {
  call: 'request' | 'set_values' | 'release';
  chip: string;
  pid: number;
  t_ns: number;
  consumer?: string;
  lines?: Record<
    string,
    { direction: string; active_low: boolean; bias: string; edge: string; debounce_ms: number; level: number | null }
  >;
  values?: Record<string, { value: number; level: number }>;
}

export interface FakeDevice {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  records(): FakeRecord[];
  /** The physical level each output line has now (after every recorded write). */
  levels(): Record<string, number>;
  /** Waits (on the recorded file, bounded) until a record matches. */
  waitFor(match: (record: FakeRecord) => boolean, timeoutMs?: number): Promise<FakeRecord>;
  /** Drives an input line to a physical level (the sensor's wire). The helper must be running. */
  setInput(line: number, level: 0 | 1): void;
  remove(): void;
}

export function fakeDevice(extraEnv: Record<string, string> = {}): FakeDevice {
  const dir = mkdtempSync(join(tmpdir(), 'onkure-gpio-'));
  const log = join(dir, 'gpio.jsonl');
  const fifo = join(dir, 'events');
  writeFileSync(log, '');
  execFileSync('mkfifo', [fifo]);
  const records = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as FakeRecord);
  return {
    dir,
    env: {
      ...process.env,
      PYTHONPATH: FAKE_GPIOD,
      GPIOD_FAKE_LOG: log,
      GPIOD_FAKE_EVENTS: fifo,
      GPIOD_FAKE_CHIPS: '/dev/gpiochip0',
      ...extraEnv,
    },
    records,
    levels() {
      const levels: Record<string, number> = {};
      for (const record of records()) {
        if (record.call === 'request')
          for (const [line, s] of Object.entries(record.lines ?? {})) if (s.level !== null) levels[line] = s.level;
        if (record.call === 'set_values')
          for (const [line, v] of Object.entries(record.values ?? {})) levels[line] = v.level;
      }
      return levels;
    },
    waitFor(match, timeoutMs = 5_000) {
      return vi.waitFor(
        () => {
          const found = records().find(match);
          if (!found) throw new Error('no such GPIO record yet');
          return found;
        },
        { timeout: timeoutMs, interval: 2 },
      );
    },
    setInput(line, level) {
      // The stand-in holds the FIFO open for reading while its request lives: this never blocks then.
      writeFileSync(fifo, `${line} ${level}\n`);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A record that sets `line` to a physical `level`. */
export const sets = (line: number, level: number) => (record: FakeRecord) =>
  record.call === 'set_values' && record.values?.[String(line)]?.level === level;

/** What a driver told the connection, in order. */
export class RecordedEvents implements MachineEvents {
  readonly statuses: { stationId: number; status: MachineStatus }[] = [];
  readonly prizes: { stationId: number; playId: number | null }[] = [];
  readonly faults: { stationId: number; code: AgentFaultCode; text: string }[] = [];

  status(stationId: number, status: MachineStatus): void {
    this.statuses.push({ stationId, status });
  }
  prize(stationId: number, playId: number | null): void {
    this.prizes.push({ stationId, playId });
  }
  fault(stationId: number, code: AgentFaultCode, text: string): void {
    this.faults.push({ stationId, code, text });
  }
}

/** One station wired as docs/agent-wiring.md shows: active-low relays, a break-beam sensor. */
export const STATION_GPIO = {
  chip: 'gpiochip0',
  outputs: {
    right: { line: 17, active: 'low' },
    back: { line: 27, active: 'low' },
    drop: { line: 22, active: 'low', pulse_ms: 40 },
    credit: { line: 23, active: 'high', pulse_ms: 30 },
  },
  chute_sensor: { line: 24, active: 'high', bias: 'pull_up', debounce_ms: 5 },
  cycle_ms: 3_000,
  sensor_stuck_ms: 5_000,
};

/** Whether a process is gone (or only a zombie waiting for a parent that is not us). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
