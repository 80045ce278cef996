import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../../server/config';
import {
  asyncContextIsCheap,
  carryLogContext,
  currentLogContext,
  withLogContext,
} from '../../server/logging/log-context';

/**
 * Issue 46, logs: the async context that carries a request's id into what it sets off costs every
 * promise of the process on Node before 24 (async hooks). It is carried only where Node keeps it
 * cheaply, or when LOG_REQUEST_CONTEXT=1 says so, and switched off again when the last server
 * carrying it closes (docs/operations.md "Logs").
 */
describe('the log context (issue 46)', () => {
  it('is cheap on Node 24 and later (AsyncContextFrame), or on Node 22 with the flag; not on Node 20', () => {
    expect(asyncContextIsCheap('20.20.2', [])).toBe(false);
    expect(asyncContextIsCheap('22.12.0', [])).toBe(false);
    expect(asyncContextIsCheap('22.12.0', ['--experimental-async-context-frame'])).toBe(true);
    expect(asyncContextIsCheap('24.1.0', [])).toBe(true);
    expect(asyncContextIsCheap('24.1.0', ['--no-async-context-frame'])).toBe(false);
  });

  it('LOG_REQUEST_CONTEXT turns it on or off; unset, it follows the Node; anything else is refused', () => {
    const config = (value?: string) =>
      readServerConfig({ PORT: '0', DATA_DIR: ':memory:', STATIC_DIR: '', LOG_REQUEST_CONTEXT: value });
    expect(config('1').logRequestContext).toBe(true);
    expect(config('0').logRequestContext).toBe(false);
    expect(config().logRequestContext).toBe(asyncContextIsCheap());
    expect(() => config('yes')).toThrow('LOG_REQUEST_CONTEXT must be 1 or 0 (got "yes").');
  });

  it('a context reaches what its work awaits only while a server carries it, and not after the last one released it', async () => {
    const seen = () =>
      withLogContext({ reqId: 'r-probe' }, async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return currentLogContext();
      });
    expect(await seen()).toEqual({});
    const first = carryLogContext();
    const second = carryLogContext();
    expect(await seen()).toEqual({ reqId: 'r-probe' });
    first();
    first();
    expect(await seen()).toEqual({ reqId: 'r-probe' });
    second();
    expect(await seen()).toEqual({});
  });
});
