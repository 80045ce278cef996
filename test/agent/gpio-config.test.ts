import { describe, expect, it } from 'vitest';
import { checkLinesUnique, GpioConfigError, parseGpioStation } from '../../agent/drivers/gpio-config';
import { createGpioDriver, helperConfigOf } from '../../agent/drivers/gpio-driver';
import { STATION_GPIO } from './gpio-support';

/* The machine file's `gpio` section: defaults, and errors that say where and what. */

describe('gpio machine file', () => {
  it('fills the defaults and names the chip by its device path', () => {
    const config = parseGpioStation(1, {
      chip: 'gpiochip0',
      outputs: {
        right: { line: 17, active: 'low' },
        back: { line: 'GPIO27', active: 'low' },
        drop: { line: 22, active: 'low' },
      },
      chute_sensor: { line: 24, active: 'high' },
    });
    expect(config).toMatchObject({
      chip: '/dev/gpiochip0',
      outputs: { drop: { pulse_ms: 150 } },
      chute_sensor: { bias: 'as_is', debounce_ms: 5 },
      cycle_ms: 15_000,
      sensor_stuck_ms: 5_000,
      hold_limit_ms: 21_000,
    });
  });

  it('refuses a station without a gpio section', () => {
    expect(() => parseGpioStation(4, undefined)).toThrow(
      new GpioConfigError('station 4: the gpio driver needs a "gpio" section'),
    );
  });

  it('names the station and the field that is wrong', () => {
    const bad = { ...STATION_GPIO, outputs: { ...STATION_GPIO.outputs, right: { line: 17, active: 'on' } } };
    expect(() => parseGpioStation(2, bad)).toThrow(
      'station 2: gpio.outputs.right.active: Invalid option: expected one of "high"|"low"',
    );
    expect(() => parseGpioStation(2, { ...STATION_GPIO, chip: '/dev/sda' })).toThrow(
      'station 2: gpio.chip: must be a chip such as /dev/gpiochip0',
    );
    expect(() => parseGpioStation(2, { ...STATION_GPIO, chute_sensor: undefined })).toThrow(
      'station 2: gpio.chute_sensor: Invalid input: expected object, received undefined',
    );
    expect(() => parseGpioStation(2, { ...STATION_GPIO, cycle_ms: 5 })).toThrow(
      'station 2: gpio.cycle_ms: Too small: expected number to be >=1000',
    );
    expect(() => parseGpioStation(2, { ...STATION_GPIO, relay: 1 })).toThrow(
      'station 2: gpio: Unrecognized key: "relay"',
    );
  });

  it('refuses a line used twice, within a station or across two', () => {
    const one = parseGpioStation(1, STATION_GPIO);
    const clash = parseGpioStation(1, { ...STATION_GPIO, chute_sensor: { line: 17, active: 'high' } });
    expect(() => checkLinesUnique([{ stationId: 1, config: clash }])).toThrow(
      'line 17 on /dev/gpiochip0 is used twice: station 1 right and station 1 chute_sensor',
    );
    expect(() =>
      checkLinesUnique([
        { stationId: 1, config: one },
        { stationId: 2, config: one },
      ]),
    ).toThrow('line 17 on /dev/gpiochip0 is used twice: station 1 right and station 2 right');
    expect(() =>
      createGpioDriver(
        [
          { station_id: 1, gpio: STATION_GPIO },
          { station_id: 2, gpio: STATION_GPIO },
        ],
        { log: () => undefined },
      ),
    ).toThrow(GpioConfigError);
  });

  it('gives the helper one request per chip with the interlocked pairs', () => {
    const a = parseGpioStation(1, STATION_GPIO);
    const b = parseGpioStation(2, { ...STATION_GPIO, chip: 'gpiochip1' });
    const helper = helperConfigOf(
      [
        { stationId: 1, config: a },
        { stationId: 2, config: b },
      ],
      'onkure',
    );
    expect(helper.interlock).toEqual([
      ['1.right', '1.back'],
      ['2.right', '2.back'],
    ]);
    expect(helper.chips.map((c) => c.path)).toEqual(['/dev/gpiochip0', '/dev/gpiochip1']);
    expect(helper.chips[0]?.outputs).toContainEqual({ id: '1.right', line: 17, active_low: true });
    expect(helper.chips[0]?.inputs).toEqual([
      { id: '1.chute_sensor', line: 24, active_low: false, bias: 'pull_up', debounce_ms: 5 },
    ]);
  });
});
