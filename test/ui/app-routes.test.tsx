/** @vitest-environment jsdom */
import { act, cleanup, render, screen } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeIds, useRouteHandles, usePreloaded } from '../../src/ui';
import { memoryRouter } from '../support/memory-router';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function Shell() {
  const handles = useRouteHandles();
  return (
    <div>
      <p data-testid="handles">{JSON.stringify(handles)}</p>
      <Outlet />
    </div>
  );
}

function Snapshot({ name }: { name: string }) {
  const data = usePreloaded<{ text: string }>();
  return (
    <p data-testid="page">
      {name}: {data?.text ?? 'none'}
    </p>
  );
}

describe('the route table in declarative mode (AppRoutes, issue 27)', () => {
  it('gives a route its id by position and the matched handles outermost first', async () => {
    const table: RouteObject[] = [
      {
        path: '/',
        element: <Shell />,
        handle: { layout: 'shell' },
        children: [
          { index: true, element: <Snapshot name="top" /> },
          { path: 'a', element: <Snapshot name="a" />, handle: { quiet: true } },
        ],
      },
    ];
    const ids = routeIds(table);
    expect([...ids.values()]).toEqual(['0', '0-0', '0-1']);
    render(memoryRouter(table, '/a').element);
    expect(screen.getByTestId('handles').textContent).toBe('[{"layout":"shell"},{"quiet":true}]');
  });

  it("[R2.1-1] the server's snapshot reaches the first address's route only, and is spent once the address changes (also when coming back)", async () => {
    const table: RouteObject[] = [
      {
        path: '/',
        element: <Shell />,
        children: [
          { index: true, element: <Snapshot name="top" /> },
          { path: 'a', element: <Snapshot name="a" /> },
        ],
      },
    ];
    const { router, element } = memoryRouter(table, '/', {
      '0-0': { text: 'from the server' },
      '0-1': { text: 'not mine' },
    });
    render(element);
    expect(screen.getByTestId('page').textContent).toBe('top: from the server');
    await act(() => router.navigate('/a'));
    expect(screen.getByTestId('page').textContent).toBe('a: none');
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByTestId('page').textContent).toBe('top: none');
  });

  it("a navigation keeps the page on screen until the next page's code is loaded", async () => {
    const code = deferred<{ Component: () => React.JSX.Element }>();
    const table: RouteObject[] = [
      {
        path: '/',
        element: <Shell />,
        children: [
          { index: true, element: <Snapshot name="top" /> },
          { path: 'later', lazy: () => code.promise },
        ],
      },
    ];
    const { router, element } = memoryRouter(table, '/');
    render(element);
    await act(async () => {
      void router.navigate('/later');
    });
    expect(screen.getByTestId('page').textContent).toBe('top: none');
    await act(async () => code.resolve({ Component: () => <p data-testid="page">later</p> }));
    expect(screen.getByTestId('page').textContent).toBe('later');
  });

  it("[R8-11] a page whose code cannot load shows the route's error element; the next address clears it", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const table: RouteObject[] = [
      {
        path: '/',
        element: <Shell />,
        errorElement: <p data-testid="error">エラー</p>,
        children: [
          { index: true, element: <Snapshot name="top" /> },
          { path: 'broken', lazy: () => Promise.reject(new Error('chunk gone')) },
        ],
      },
    ];
    const { router, element } = memoryRouter(table, '/broken');
    render(element);
    expect(await screen.findByTestId('error')).toBeTruthy();
    await act(() => router.navigate('/'));
    expect(screen.queryByTestId('error')).toBeNull();
    expect(screen.getByTestId('page').textContent).toBe('top: none');
  });
});
