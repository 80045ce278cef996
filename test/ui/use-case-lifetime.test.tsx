/** @vitest-environment jsdom */
import { StrictMode, useEffect } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { injectable } from 'inversify';
import { Observable, interval, of } from 'rxjs';
import type { RouteObject } from 'react-router';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StateStore, TOKENS, type BrowseCatalogue, type PrizeCatalogPort, type Token } from '../../src/application';
import type { TopPageCatalogue } from '../../src/domain';
import { ContainerProvider, useObservableState, useScopedUseCase } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import { createTestContainer } from '../support/test-container';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A catalogue whose top page never answers, counting the requests still open. */
function pendingCatalogue() {
  const open = { count: 0, asked: 0 };
  const port: Pick<PrizeCatalogPort, 'topPage' | 'characters' | 'lobby'> = {
    characters: () => of([]),
    lobby: () => of([]),
    topPage: () =>
      new Observable<TopPageCatalogue>(() => {
        open.count++;
        open.asked++;
        return () => void open.count--;
      }),
  };
  return { port, open };
}

function renderAt(routeTable: RouteObject[], path: string, container: ReturnType<typeof createTestContainer>) {
  const { router, element: routed } = memoryRouter(routeTable, path);
  render(
    <StrictMode>
      <ContainerProvider container={container}>{routed}</ContainerProvider>
    </StrictMode>,
  );
  return router;
}

describe('use-case lifetime: a page owns its use-cases', () => {
  it('leaving the top page disposes its BrowseCatalogue and cancels the request in flight', async () => {
    const { port, open } = pendingCatalogue();
    const container = createTestContainer([TOKENS.PrizeCatalogPort, port]);
    const created: BrowseCatalogue[] = [];
    container.onActivation<BrowseCatalogue>(
      TOKENS.BrowseCatalogue,
      (_context, instance) => (created.push(instance), instance),
    );

    const router = renderAt(routes, '/', container);
    expect((await screen.findByRole('status')).textContent).toBe('読み込み中…');
    // The request starts in an effect after the first paint: wait for it rather than assume it.
    await waitFor(() => expect(open.count).toBe(1));
    // StrictMode renders twice and drops one instance unused: it opened nothing, so it holds nothing.
    const live = () => created.filter((useCase) => !useCase.disposed && useCase.snapshot.kind !== 'idle');
    expect(live()).toHaveLength(1);
    expect(open.count).toBe(1);

    await act(() => router.navigate('/debug/login'));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('デバッグログイン');
    // An unmounted page's effect cleanups run in React's passive phase, after the commit that shows
    // the next page: the new heading can be seen before the old page's use-case is disposed (a
    // loaded machine made that window visible once), so the disposal is waited for, not assumed.
    await waitFor(() => expect(live()).toHaveLength(0));
    expect(open.count).toBe(0);

    // Coming back starts a new scope with a new use-case (and a new request).
    await act(() => router.navigate('/'));
    await screen.findByRole('status');
    await waitFor(() => expect(open.count).toBe(1));
    expect(live()).toHaveLength(1);
    expect(open.count).toBe(1);
  });

  it('leaving a page closes the timers its use-case opened, and StrictMode leaves exactly one running', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });

    @injectable()
    class Clockwork extends StateStore<number> {
      constructor() {
        super(0);
      }
      start(): void {
        this.own(
          interval(1000)
            .pipe(this.untilDisposed())
            .subscribe(() => this.setState((n) => n + 1)),
        );
      }
    }
    const CLOCKWORK = Symbol('Clockwork') as Token<Clockwork>;
    function ClockworkPage() {
      const clockwork = useScopedUseCase(CLOCKWORK);
      const ticks = useObservableState(clockwork.state$, clockwork.snapshot);
      useEffectOnce(() => clockwork.start(), clockwork);
      return <p role="timer">{ticks}</p>;
    }
    const container = createTestContainer();
    container.bind(CLOCKWORK).to(Clockwork).inTransientScope();
    const router = renderAt(
      [
        { path: '/', element: <ClockworkPage /> },
        { path: '/away', element: <p>away</p> },
      ],
      '/',
      container,
    );

    await screen.findByRole('timer');
    expect(vi.getTimerCount()).toBe(1);
    act(() => void vi.advanceTimersByTime(2000));
    expect(screen.getByRole('timer').textContent).toBe('2');

    await act(() => router.navigate('/away'));
    await screen.findByText('away');
    expect(vi.getTimerCount()).toBe(0);
  });
});

/** Runs `start` once per use-case instance, after mount. */
function useEffectOnce(start: () => void, owner: object) {
  useEffect(start, [owner]);
}
