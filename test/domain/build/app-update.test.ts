import { describe, expect, it } from 'vitest';
import { BUILD_MANIFEST_CHECK_MS, isNewBuild, RELOAD_GUARD_MS, reloadAllowed } from '../../../src/domain';

describe('app updates (domain)', () => {
  it('[R9-13] the build manifest is checked hourly and a reload is not repeated within 10 s', () => {
    expect(BUILD_MANIFEST_CHECK_MS).toBe(3_600_000);
    expect(RELOAD_GUARD_MS).toBe(10_000);
    expect(reloadAllowed(50_000, null)).toBe(true);
    expect(reloadAllowed(50_000, 40_001)).toBe(false);
    expect(reloadAllowed(50_000, 40_000)).toBe(true);
    // A mark from the future (the clock was set back) does not block for ever.
    expect(reloadAllowed(50_000, 90_000)).toBe(true);
  });

  it('[R9-13] only a served build other than the running one is new; an unreadable manifest is not', () => {
    expect(isNewBuild('/assets/index-a.js', '/assets/index-b.js')).toBe(true);
    expect(isNewBuild('/assets/index-a.js', '/assets/index-a.js')).toBe(false);
    expect(isNewBuild('/assets/index-a.js', null)).toBe(false);
    expect(isNewBuild('/assets/index-a.js', '')).toBe(false);
  });
});
