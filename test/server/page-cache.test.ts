import { describe, expect, it } from 'vitest';
import { RenderedPageCache } from '../../server/http/page-cache';
import { ManualServerClock } from '../support/manual-server-clock';

describe('RenderedPageCache', () => {
  it('keeps a 200 page for its time to live, never a 404, and forgets everything on clear', () => {
    const clock = new ManualServerClock(new Date('2026-11-23T03:00:00Z'));
    const cache = new RenderedPageCache(clock, 10_000, 2);
    cache.keep('/', 200, '<p>top</p>');
    cache.keep('/nothing', 404, '<p>404</p>');
    expect(cache.get('/')?.text).toBe('<p>top</p>');
    expect(cache.get('/nothing')).toBeNull();
    clock.advance(9_999);
    expect(cache.get('/')).not.toBeNull();
    clock.advance(1);
    expect(cache.get('/')).toBeNull();
    cache.keep('/', 200, '<p>top 2</p>');
    cache.clear();
    expect(cache.get('/')).toBeNull();
  });

  it('keeps at most its limit, dropping the oldest address first', () => {
    const cache = new RenderedPageCache(new ManualServerClock(), 10_000, 2);
    for (const address of ['/a', '/b', '/c']) cache.keep(address, 200, address);
    expect(cache.get('/a')).toBeNull();
    expect(cache.get('/b')?.text).toBe('/b');
    expect(cache.get('/c')?.text).toBe('/c');
    expect(cache.stats().pages).toBe(2);
  });
});
