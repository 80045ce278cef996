import { describe, expect, it } from 'vitest';
import { hideCharacterBody, toFlag, volumeBody } from '../../../src/domain';

describe('settings flags', () => {
  it('[R5-1] coerces settings to 1 or 0', () => {
    for (const on of [true, 1, 2, -1, '1', 'true', ' TRUE ']) expect(toFlag(on)).toBe(1);
    for (const off of [
      false,
      0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '0',
      'false',
      '',
      'yes',
      null,
      undefined,
      {},
      [],
    ])
      expect(toFlag(off)).toBe(0);
  });

  it('[R3-18] hide-character and volume are sent as 1 or 0 in their bodies', () => {
    expect(hideCharacterBody(true)).toEqual({ set_hide_character: { character: 1 } });
    expect(hideCharacterBody('0')).toEqual({ set_hide_character: { character: 0 } });
    expect(volumeBody(false)).toEqual({ set_volume: { volume: 0 } });
    expect(volumeBody(1)).toEqual({ set_volume: { volume: 1 } });
  });
});
