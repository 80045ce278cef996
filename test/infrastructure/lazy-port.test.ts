import { firstValueFrom, of, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { lazyPort } from '../../src/infrastructure';

interface GreetPort {
  greet(name: string): Observable<string>;
  count(): Observable<number>;
}
const METHODS: Record<keyof GreetPort, true> = { greet: true, count: true };

/** A loader the test counts and can make fail. */
function loader(failures = 0) {
  const state = { loads: 0, failures };
  const load = async (): Promise<GreetPort> => {
    state.loads += 1;
    if (state.failures > 0) {
      state.failures -= 1;
      throw new Error('chunk failed');
    }
    return { greet: (name) => of(`こんにちは、${name}`), count: () => of(state.loads) };
  };
  return { state, load };
}

describe('lazyPort: an adapter loaded on its first use (issue 27)', () => {
  it('loads nothing until an answer is subscribed to, then once for every call after', async () => {
    const { state, load } = loader();
    const port = lazyPort<GreetPort>(METHODS, load);
    const pending = port.greet('花子');
    expect(state.loads).toBe(0);
    expect(await firstValueFrom(pending)).toBe('こんにちは、花子');
    expect(await firstValueFrom(port.count())).toBe(1);
    expect(await firstValueFrom(port.greet('太郎'))).toBe('こんにちは、太郎');
    expect(state.loads).toBe(1);
  });

  it('a failed load errors the call that asked, and the next call loads again', async () => {
    const { state, load } = loader(1);
    const port = lazyPort<GreetPort>(METHODS, load);
    await expect(firstValueFrom(port.greet('花子'))).rejects.toThrow('chunk failed');
    expect(await firstValueFrom(port.greet('花子'))).toBe('こんにちは、花子');
    expect(state.loads).toBe(2);
  });

  it('has exactly the methods it is given', () => {
    const port = lazyPort<GreetPort>(METHODS, loader().load);
    expect(Object.keys(port).sort()).toEqual(['count', 'greet']);
    // Not a thenable: a container resolving it as a value does not wait on it.
    expect('then' in port).toBe(false);
  });
});
