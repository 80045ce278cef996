/** @vitest-environment jsdom */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { NEVER } from 'rxjs';
import { memoryRouter } from '../support/memory-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS, type PrizeCatalogPort } from '../../src/application';
import { ContainerProvider } from '../../src/ui';
import { routes } from '../../src/ui/routes';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

describe('document title', () => {
  it('[R7-13] the app titles list pages 景品一覧 and play pages 景品, each followed by the title tag, as the route changes', async () => {
    const catalogue: Pick<
      PrizeCatalogPort,
      'topPage' | 'lookUpPrizes' | 'characters' | 'information' | 'carousels' | 'startNews' | 'newArrivals' | 'lobby'
    > = {
      topPage: () => NEVER,
      lobby: () => NEVER,
      lookUpPrizes: () => NEVER,
      characters: () => NEVER,
      information: () => NEVER,
      carousels: () => NEVER,
      startNews: () => NEVER,
      newArrivals: () => NEVER,
    };
    const { router, element: routed } = memoryRouter(routes, '/');
    render(
      <ContainerProvider container={createTestContainer([TOKENS.PrizeCatalogPort, catalogue])}>
        {routed}
      </ContainerProvider>,
    );
    await screen.findByRole('status');
    await waitFor(() => expect(document.title).toBe('景品一覧 | オンラインクレーンゲーム オンクレ'));

    await act(() => router.navigate('/play/mochiusa/milk/plush/42'));
    await waitFor(() => expect(document.title).toBe('景品 | オンラインクレーンゲーム オンクレ'));

    await act(() => router.navigate('/information'));
    await waitFor(() => expect(document.title).toBe('景品一覧 | オンラインクレーンゲーム オンクレ'));
  });
});
