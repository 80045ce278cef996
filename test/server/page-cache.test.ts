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

  it('keeps the most recently read pages when the limit is reached', () => {
    const cache = new RenderedPageCache(new ManualServerClock(), 10_000, 2);
    cache.keep('/a', 200, '/a');
    cache.keep('/b', 200, '/b');
    expect(cache.get('/a')?.text).toBe('/a');
    cache.keep('/c', 200, '/c');
    expect(cache.get('/b')).toBeNull();
    expect(cache.get('/a')?.text).toBe('/a');
    expect(cache.get('/c')?.text).toBe('/c');
  });

  it('keeps a kept page when the same address later answers other than 200, and counts hits and renders', () => {
    const clock = new ManualServerClock(new Date('2026-11-23T03:00:00Z'));
    const cache = new RenderedPageCache(clock, 10_000, 2);
    cache.keep('/a', 200, 'kept');
    clock.advance(5_000);
    expect(cache.keep('/a', 500, 'failed').text).toBe('failed');
    expect(cache.get('/a')?.text).toBe('kept');
    clock.advance(4_999);
    expect(cache.get('/a')?.text).toBe('kept');
    clock.advance(1);
    expect(cache.get('/a')).toBeNull();
    expect(cache.stats()).toEqual({ hits: 2, renders: 2, pages: 0 });
  });
});
