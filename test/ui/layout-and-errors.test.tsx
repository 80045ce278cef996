/** @vitest-environment jsdom */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NEVER } from 'rxjs';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKENS, type AppConfig } from '../../src/application';
import { ContainerProvider, OnkureApp } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import {
  aLoginInfo,
  anAppConfig,
  anIdentity,
  aTopPage,
  aUserData,
  FakeSession,
  ScriptedAccount,
  ScriptedPrizeCatalog,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const appAt = (
  path: string,
  config: Partial<AppConfig> = {},
  catalog = new ScriptedPrizeCatalog().always('characters', []).always('topPage', aTopPage()),
) =>
  render(
    <OnkureApp
      container={createTestContainer([TOKENS.PrizeCatalogPort, catalog.port], [TOKENS.AppConfig, anAppConfig(config)])}
      initialPath={path}
    />,
  );

describe('the layout, the error page and navigation', () => {
  it('[R2.6-1] [R2.6-2] [R2.6-3] [R2.1-5] an unknown path shows the error page: heading, text, illustration, home link, footer with company logo and copyright, and the full path', async () => {
    appAt('/no/such/page?from=mail');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('ページが見つかりません。');
    expect(
      screen.getByText(
        'お探しのページは一時的にアクセスできない状況にあるか、移動もしくは削除された可能性があります。',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('img', { name: 'アームの下でこまっているマスコット' })).toBeTruthy();
    expect(screen.getByTestId('home-link').getAttribute('href')).toBe('/');
    expect(screen.getByTestId('error-path').textContent).toBe('Page Not Found /no/such/page?from=mail');
    expect(screen.getByRole('button', { name: /^onkure inc\.\s*（運営会社のサイト）$/ })).toBeTruthy();
    expect(screen.getByText('© onkure')).toBeTruthy();
  });

  it("[R2.6-5] the header logo and the home link go to the app state's base address, then /", async () => {
    appAt('/nowhere', { topPageBaseUrl: 'https://www.onkure.example/shop/' });
    await screen.findByTestId('error-page');
    expect(screen.getByTestId('header-logo').getAttribute('href')).toBe('https://www.onkure.example/shop/');
    expect(screen.getByTestId('home-link').getAttribute('href')).toBe('https://www.onkure.example/shop/');
  });

  it('[R2.6-4] [R6-2] the header logo is the VIP variant for a VIP user (vip_level above normal), otherwise the normal logo', async () => {
    const catalog = new ScriptedPrizeCatalog().always('characters', []).always('topPage', aTopPage());
    const appAs = (user: { vip_level: number } | null) => {
      const account = new ScriptedAccount();
      if (user) account.always('userData', aUserData({ login_info: aLoginInfo({ vip_level: user.vip_level }) }));
      const session = new FakeSession(user ? anIdentity({ user_id: 42 }) : null);
      render(
        <OnkureApp
          container={createTestContainer(
            [TOKENS.PrizeCatalogPort, catalog.port],
            [TOKENS.SessionPort, session],
            [TOKENS.AccountPort, account.port],
          )}
          initialPath="/nowhere"
        />,
      );
      return account;
    };

    // A VIP user: the VIP logo image with its Japanese alt text, still linking to the service home [R2.6-5].
    appAs({ vip_level: 2 });
    const vipLogo = await screen.findByAltText('オンクレ VIP');
    expect(vipLogo.tagName).toBe('IMG');
    expect(vipLogo.getAttribute('src')).toBe('/onkure-logo-vip.svg');
    const link = screen.getByTestId('header-logo');
    expect(link.contains(vipLogo)).toBe(true);
    expect(link.getAttribute('data-logo')).toBe('vip');
    expect(link.getAttribute('href')).toBe('/');
    cleanup();

    // A normal user (vip_level 0, normal): the normal logo, no VIP image.
    const normal = appAs({ vip_level: 0 });
    await screen.findByTestId('error-page');
    await waitFor(() => expect(normal.callsOf('userData').length).toBeGreaterThan(0));
    expect(screen.queryByAltText('オンクレ VIP')).toBeNull();
    expect(screen.getByTestId('header-logo').getAttribute('data-logo')).toBe('normal');
    expect(screen.getByTestId('header-logo').textContent).toContain('オンクレ');
    expect(screen.getByTestId('header-logo').getAttribute('href')).toBe('/');
    cleanup();

    // A guest: the normal logo, and nothing is asked.
    const guest = appAs(null);
    await screen.findByTestId('error-page');
    expect(screen.queryByAltText('オンクレ VIP')).toBeNull();
    expect(screen.getByTestId('header-logo').getAttribute('data-logo')).toBe('normal');
    expect(guest.callsOf('userData')).toEqual([]);
  });

  it('[R2.5-3] [R2.5-2] the footer company logo first shows the reserve/warning notice as a registry modal (focus inside, Escape closes it); confirming opens the company site in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    appAt('/nowhere', { corporateUrl: 'https://corp.onkure.example/' });
    await screen.findByTestId('error-page');
    // The dialog is named in the same commit that shows its text: a mutation observer runs before
    // any later task, so it sees the page as a screen reader could between two commits.
    const unnamed: string[] = [];
    const watch = new MutationObserver(() => {
      const text = document.querySelector('[data-testid="reserve-warning"]');
      if (text && !text.closest('dialog')?.hasAttribute('aria-labelledby')) unnamed.push(text.textContent ?? '');
    });
    watch.observe(document.body, { childList: true, subtree: true, attributes: true });
    fireEvent.click(screen.getByTestId('company-logo'));
    expect((await screen.findByTestId('reserve-warning')).textContent).toContain(
      '運営会社のサイトを新しいタブで開きます',
    );
    watch.disconnect();
    expect(unnamed).toEqual([]);
    const dialog = screen.getByRole('alertdialog', { name: /運営会社のサイトを新しいタブで開きます/ });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('reserve-warning')).toBeNull());
    expect(open).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('company-logo'));
    fireEvent.click(await screen.findByRole('button', { name: '開く' }));
    expect(open).toHaveBeenCalledWith('https://corp.onkure.example/', '_blank', 'noopener,noreferrer');
    await waitFor(() => expect(screen.queryByTestId('reserve-warning')).toBeNull());
  });

  it('[R8-11] a fatal error while rendering a page shows the error page inside the default layout', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // An answer that breaks the page while it renders (no sale_list).
    appAt(
      '/',
      {},
      new ScriptedPrizeCatalog()
        .always('characters', [])
        .always('topPage', { ...aTopPage(), sale_list: undefined } as never),
    );
    expect((await screen.findByTestId('error-page')).textContent).toContain('ページが見つかりません。');
    expect(screen.getByTestId('header-logo')).toBeTruthy();
  });

  it('[R2.1-4] pages use the default layout unless they set another: the debug login has no site header', async () => {
    appAt('/debug/login');
    await screen.findByRole('heading', { name: 'デバッグログイン' });
    expect(screen.queryByTestId('header-logo')).toBeNull();
    cleanup();
    appAt('/nowhere');
    await screen.findByTestId('error-page');
    expect(screen.getByTestId('header-logo')).toBeTruthy();
  });

  it('[R2.1-3] each route change scrolls to the top, or to the anchor when the URL has a hash', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const into = vi.fn();
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = into;
    const { router, element: routed } = memoryRouter(routes, '/debug/login');
    render(
      <ContainerProvider
        container={createTestContainer([TOKENS.PrizeCatalogPort, { topPage: () => NEVER, characters: () => NEVER }])}
      >
        {routed}
      </ContainerProvider>,
    );
    await screen.findByRole('heading', { name: 'デバッグログイン' });
    // The lazily loaded page commits outside act(); its layout's scroll is a passive effect React
    // runs a moment after the commit, so the heading can be on the page before the scroll happened.
    await waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 0));
    const calls = scrollTo.mock.calls.length;
    await act(() => router.navigate('/debug/login?again=1#no-such-anchor'));
    // No element with that id: to the top.
    expect(scrollTo.mock.calls.length).toBe(calls + 1);
    const anchor = document.createElement('div');
    anchor.id = 'prizes';
    document.body.appendChild(anchor);
    await act(() => router.navigate('/debug/login?again=2#prizes'));
    expect(into).toHaveBeenCalledTimes(1);
    expect(scrollTo.mock.calls.length).toBe(calls + 1);
    anchor.remove();
    Element.prototype.scrollIntoView = original;
  });

  it('[R2.1-2] every page loads lazily (its own chunk); the error page is part of the shell', () => {
    const pages = routes[0]!.children!;
    for (const route of pages) {
      expect(typeof route.lazy).toBe('function');
      expect(route.Component).toBeUndefined();
    }
    expect(routes[0]!.errorElement).toBeDefined();
  });
});
