import type { MachineDriver } from '../machine-driver';

/*
 * A placeholder: the gpio driver is written on its own branch (i42-gpio), which replaces this file.
 * It keeps agent/main.ts type-checked here and says plainly what is missing when `driver: "gpio"` is asked for.
 */
export function createGpioDriver(
  _stations: { station_id: number; gpio: unknown }[],
  _options: { log: (line: string) => void },
): MachineDriver {
  throw new Error('gpio driver not built');
}
