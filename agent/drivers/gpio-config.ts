import { z } from 'zod/mini';
import { AGENT_TIMINGS } from '../../src/contract/agent.schema';

/*
 * A station's `gpio` section of the machine file (docs/agent-wiring.md): which chip, which line
 * each control and sensor is on, the level that means "on" for each, pulse widths and debounce.
 * Validated here once, with errors that name the station and the field.
 */

/** A line: its offset on the chip (17) or its name as the chip reports it ("GPIO17"). */
const lineId = z.union([z.int().check(z.nonnegative(), z.lte(511)), z.string().check(z.minLength(1), z.maxLength(64))]);
/** The electrical level that means energised (outputs), blocked (sensor) or at home (switch). */
const activeLevel = z.enum(['high', 'low']);
const bias = z.enum(['as_is', 'pull_up', 'pull_down', 'disabled']);

const heldOutput = z.strictObject({ line: lineId, active: activeLevel });
const pulseOutput = z.strictObject({
  line: lineId,
  active: activeLevel,
  /** How long one press lasts (a coin mechanism or a drop button wants 50…500 ms). */
  pulse_ms: z._default(z.int().check(z.gte(10), z.lte(2_000)), 150),
});
const input = (defaultDebounceMs: number) =>
  z.strictObject({
    line: lineId,
    active: activeLevel,
    bias: z._default(bias, 'as_is'),
    /** A level must hold this long before it counts (the kernel's debounce and the driver's own). */
    debounce_ms: z._default(z.int().check(z.gte(0), z.lte(1_000)), defaultDebounceMs),
  });

export const gpioStationSchema = z.strictObject({
  /** The GPIO character device: "/dev/gpiochip0" or "gpiochip0". */
  chip: z.string().check(z.regex(/^(\/dev\/)?gpiochip\d+$/, 'must be a chip such as /dev/gpiochip0')),
  outputs: z.strictObject({
    right: heldOutput,
    back: heldOutput,
    drop: z.optional(pulseOutput),
    credit: z.optional(pulseOutput),
  }),
  chute_sensor: input(5),
  home_switch: z.optional(input(20)),
  /** From the drop to the claw home again, when no home switch tells (the cabinet's own cycle). */
  cycle_ms: z._default(z.int().check(z.gte(1_000), z.lte(120_000)), 15_000),
  /** A chute sensor blocked longer than this is a fault (a hand, a jammed prize, a failed sensor). */
  sensor_stuck_ms: z._default(z.int().check(z.gte(500), z.lte(60_000)), 5_000),
  /**
   * A button held longer than this is released by the driver itself: a backstop one second behind
   * the agent's own limit (AGENT_TIMINGS.holdLimitMs), which acts first and reports the fault.
   */
  hold_limit_ms: z._default(z.int().check(z.gte(1_000), z.lte(120_000)), AGENT_TIMINGS.holdLimitMs + 1_000),
});
export type GpioStationConfig = z.infer<typeof gpioStationSchema>;
export type GpioInputConfig = GpioStationConfig['chute_sensor'];
export type GpioOutputName = keyof GpioStationConfig['outputs'];

/** Thrown for a machine file the driver cannot use; the message says where and what. */
export class GpioConfigError extends Error {
  override readonly name = 'GpioConfigError';
  readonly code = 'gpio_config';
}

/** English messages for this parse only (zod/mini carries no locale unless one is given). */
const english = z.locales.en().localeError;

export const isGpioConfigError = (error: unknown): error is GpioConfigError =>
  error instanceof Error && error.name === 'GpioConfigError';

function describe(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${['gpio', ...issue.path.map(String)].join('.')}: ${issue.message}`).join('; ');
}

/** Validates one station's `gpio` section; throws GpioConfigError naming the station and field. */
export function parseGpioStation(stationId: number, raw: unknown): GpioStationConfig {
  if (raw === undefined) throw new GpioConfigError(`station ${stationId}: the gpio driver needs a "gpio" section`);
  const parsed = gpioStationSchema.safeParse(raw, { error: english });
  if (!parsed.success) throw new GpioConfigError(`station ${stationId}: ${describe(parsed.error.issues)}`);
  const config = parsed.data;
  return { ...config, chip: config.chip.startsWith('/dev/') ? config.chip : `/dev/${config.chip}` };
}

/** Every line a station uses, with what it is for. */
export function linesOf(config: GpioStationConfig): { role: string; line: number | string }[] {
  const roles: { role: string; line: number | string }[] = [];
  for (const [name, output] of Object.entries(config.outputs))
    if (output) roles.push({ role: name, line: output.line });
  roles.push({ role: 'chute_sensor', line: config.chute_sensor.line });
  if (config.home_switch) roles.push({ role: 'home_switch', line: config.home_switch.line });
  return roles;
}

/** Refuses a line used twice on one chip, within a station or across stations. */
export function checkLinesUnique(stations: readonly { stationId: number; config: GpioStationConfig }[]): void {
  const seen = new Map<string, string>();
  for (const { stationId, config } of stations) {
    for (const { role, line } of linesOf(config)) {
      const key = `${config.chip}:${String(line)}`;
      const user = `station ${stationId} ${role}`;
      const earlier = seen.get(key);
      if (earlier)
        throw new GpioConfigError(`line ${String(line)} on ${config.chip} is used twice: ${earlier} and ${user}`);
      seen.set(key, user);
    }
  }
}
