import type { Flag } from '../catalogue/prize.entity';
import type { SetHideCharacterBody, SetVolumeBody } from '../identity/identity.entity';

/**
 * Coerces a setting to the 1/0 the service expects [R5-1]. true, a non-zero finite number and the
 * strings '1' and 'true' (any case) give 1; everything else — false, 0, NaN, '0', 'false', '',
 * null, undefined — gives 0. Unlike `value ? 1 : 0`, the string '0' stays off.
 */
export function toFlag(value: unknown): Flag {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) && value !== 0 ? 1 : 0;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    return v === '1' || v === 'true' ? 1 : 0;
  }
  return 0;
}

/** Body of POST /user/set_hide_character [R3-18]. */
export function hideCharacterBody(hide: unknown): SetHideCharacterBody {
  return { set_hide_character: { character: toFlag(hide) } };
}

/** Body of POST /user/set_volume [R3-18]. */
export function volumeBody(on: unknown): SetVolumeBody {
  return { set_volume: { volume: toFlag(on) } };
}
