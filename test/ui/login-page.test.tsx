/** @vitest-environment jsdom */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import { anIdentity, FakeSession, ScriptedAuth, ScriptedPrizeCatalog, aTopPage } from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

function open(path: string, session = new FakeSession(null)) {
  const auth = new ScriptedAuth();
  const catalog = new ScriptedPrizeCatalog().always('topPage', aTopPage()).always('characters', []);
  const { router, element: routed } = memoryRouter(routes, path);
  render(
    <ContainerProvider
      container={createTestContainer(
        [TOKENS.AuthPort, auth.port],
        [TOKENS.SessionPort, session],
        [TOKENS.PrizeCatalogPort, catalog.port],
      )}
    >
      {routed}
    </ContainerProvider>,
  );
  return { auth, router, session };
}

describe('the login page (guest-only)', () => {
  it('[R2.2-1] a signed-in visitor is sent to /', async () => {
    const { router } = open('/login', new FakeSession(anIdentity()));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("a refused login shows the server's Japanese text; a good one goes to ?next=", async () => {
    const { auth, router } = open('/login?next=/game/7');
    await screen.findByRole('heading', { name: 'ログイン' });
    auth.answer('logIn', {
      error: Object.assign(new Error('401'), { info: 'メールアドレスまたはパスワードが正しくありません。' }),
    });
    fireEvent.change(screen.getByLabelText('メールアドレス'), { target: { value: 'hanako@example.jp' } });
    fireEvent.change(screen.getByLabelText('パスワード'), { target: { value: 'wrong-pass1' } });
    fireEvent.click(screen.getByRole('button', { name: 'ログインする' }));
    expect((await screen.findByRole('alert')).textContent).toBe('メールアドレスまたはパスワードが正しくありません。');
    auth.answer('logIn', { value: { user_id: 5, access_token: 't'.repeat(43) } as never });
    fireEvent.click(screen.getByRole('button', { name: 'ログインする' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/game/7'));
    expect(auth.callsOf('logIn')).toEqual([
      ['hanako@example.jp', 'wrong-pass1'],
      ['hanako@example.jp', 'wrong-pass1'],
    ]);
  });

  it('refuses to follow a ?next= that leaves the site', async () => {
    const { auth, router } = open('/login?next=//evil.example/x');
    await screen.findByRole('heading', { name: 'ログイン' });
    auth.answer('logIn', { value: { user_id: 5, access_token: 't'.repeat(43) } as never });
    fireEvent.change(screen.getByLabelText('メールアドレス'), { target: { value: 'hanako@example.jp' } });
    fireEvent.change(screen.getByLabelText('パスワード'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'ログインする' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
