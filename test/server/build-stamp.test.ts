import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the start script (no types)
import { buildEnvOf, buildIsCurrent } from '../../scripts/build-stamp.mjs';

describe("npm start's build stamp", () => {
  it('counts NODE_ENV: a build made under development is built again for production, and back', () => {
    const production = buildEnvOf({ VITE_SHOP_ID: '1', PATH: '/usr/bin' });
    const development = buildEnvOf({ VITE_SHOP_ID: '1', NODE_ENV: 'development' });
    expect(production).toEqual({ NODE_ENV: '', VITE_SHOP_ID: '1' });
    expect(buildIsCurrent({ builtAt: 100, env: development }, production, 50)).toBe(false);
    expect(buildIsCurrent({ builtAt: 100, env: production }, development, 50)).toBe(false);
    expect(buildIsCurrent({ builtAt: 100, env: production }, buildEnvOf({ VITE_SHOP_ID: '1' }), 50)).toBe(true);
  });

  it('builds again when a VITE_ setting or the target changes, or a source is newer than the build', () => {
    const stamp = { builtAt: 100, env: buildEnvOf({ ONKURE_TARGET: 'web' }) };
    expect(buildIsCurrent(stamp, buildEnvOf({ ONKURE_TARGET: 'ios' }), 50)).toBe(false);
    expect(buildIsCurrent(stamp, buildEnvOf({ ONKURE_TARGET: 'web', VITE_FEED_MODE: 'rtc' }), 50)).toBe(false);
    expect(buildIsCurrent(stamp, buildEnvOf({ ONKURE_TARGET: 'web' }), 101)).toBe(false);
    expect(buildIsCurrent(stamp, buildEnvOf({ ONKURE_TARGET: 'web', HOME: '/root' }), 100)).toBe(true);
    expect(buildIsCurrent(null, buildEnvOf({}), 0)).toBe(false);
  });
});
