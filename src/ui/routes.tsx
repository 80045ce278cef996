import type { RouteObject } from 'react-router';
import { AppLayout, DefaultLayout } from './layout/default-layout';
import { NotFoundPage } from './pages/not-found-page';
import type { RouteHandle } from './ssr/preload';
import {
  catalogueLeadImages,
  preloadArrivals,
  preloadCatalogue,
  preloadInformationDetail,
  preloadInformationList,
  kujiListLeadImages,
  preloadKujiList,
  preloadSharedClip,
  sharedClipHead,
  preloadStation,
  stationLeadImages,
} from './ssr/route-preloads';

const catalogue: RouteHandle = { preload: preloadCatalogue, leadImages: catalogueLeadImages };
const station: RouteHandle = {
  preload: preloadStation,
  leadImages: stationLeadImages,
  quiet: true,
  features: ['play'],
};
const account: RouteHandle = { features: ['account'] };
const money: RouteHandle = { features: ['money'] };

/**
 * The route table (§2.1). Every page is its own lazily loaded chunk [R2.1-2]; a route's `handle`
 * may name another layout than 'default' [R2.1-4]. A fatal error anywhere shows the error page
 * inside the default layout [R8-11] (the error page is part of the shell: it must show even when
 * a page's chunk cannot load). A `handle.preload` loads what the page shows first when the server
 * renders it (docs/server-rendering.md).
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: (
      <DefaultLayout>
        <NotFoundPage />
      </DefaultLayout>
    ),
    children: [
      {
        index: true,
        handle: { ...catalogue, page: 'src/ui/pages/top-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/top-page')).TopPage }),
      },
      // A station's play screen (§2.1): /play/{tag...}/{stationId} (the build target's play path) and /game/{stationId}.
      {
        path: 'play/*',
        handle: { ...station, page: 'src/ui/play/play-page.tsx' },
        lazy: async () => ({ Component: (await import('./play/play-page')).PlayPage }),
      },
      {
        path: 'login',
        handle: { ...account, page: 'src/ui/pages/login-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/login-page')).LoginPage }),
      },
      {
        path: 'signup',
        handle: { ...account, page: 'src/ui/pages/signup-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/signup-page')).SignUpPage }),
      },
      {
        path: 'password-reset',
        handle: { ...account, page: 'src/ui/pages/password-reset-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/password-reset-page')).PasswordResetPage }),
      },
      {
        path: 'debug/login',
        handle: { layout: 'plain', page: 'src/ui/pages/debug-login-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/debug-login-page')).DebugLoginPage }),
      },
      {
        path: 'game/:stationId',
        handle: { ...station, page: 'src/ui/play/play-page.tsx' },
        lazy: async () => ({ Component: (await import('./play/play-page')).PlayPage }),
      },
      {
        path: 'information',
        handle: { preload: preloadInformationList, page: 'src/ui/pages/information-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/information-page')).InformationListPage }),
      },
      {
        path: 'information/:tag',
        handle: { preload: preloadInformationDetail, page: 'src/ui/pages/information-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/information-page')).InformationDetailPage }),
      },
      {
        path: 'emailvalid',
        handle: { ...account, page: 'src/ui/pages/email-valid-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/email-valid-page')).EmailValidPage }),
      },
      {
        path: 'purchase/:slug',
        handle: { ...money, page: 'src/ui/pages/purchase-pages.tsx' },
        lazy: async () => ({ Component: (await import('./pages/purchase-pages')).AccountPaymentPage }),
      },
      {
        path: 'purchase/:slug/result/:productSettlementId',
        handle: { ...money, page: 'src/ui/pages/purchase-pages.tsx' },
        lazy: async () => ({ Component: (await import('./pages/purchase-pages')).AccountPaymentResultPage }),
      },
      {
        path: 'settlement',
        handle: { ...money, page: 'src/ui/pages/purchase-pages.tsx' },
        lazy: async () => ({ Component: (await import('./pages/purchase-pages')).SettlementPage }),
      },
      {
        path: 'arrival-items',
        handle: { preload: preloadArrivals, page: 'src/ui/pages/arrival-items-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/arrival-items-page')).ArrivalItemsPage }),
      },
      {
        path: 'kuji',
        handle: { preload: preloadKujiList, leadImages: kujiListLeadImages, page: 'src/ui/kuji/kuji-pages.tsx' },
        lazy: async () => ({ Component: (await import('./kuji/kuji-pages')).KujiListPage }),
      },
      {
        path: 'kuji/:kujiId/:boxId',
        handle: { features: ['kuji'], page: 'src/ui/kuji/kuji-pages.tsx' },
        lazy: async () => ({ Component: (await import('./kuji/kuji-pages')).KujiBoxPage }),
      },
      // A shared play video (issue 44): open to anyone, never kept by a cache (unsharing works at once).
      {
        path: 'clip/:clipId',
        handle: {
          preload: preloadSharedClip,
          head: sharedClipHead,
          noStore: true,
          features: ['clips'],
          page: 'src/ui/clips/clip-page.tsx',
        } satisfies RouteHandle,
        lazy: async () => ({ Component: (await import('./clips/clip-page')).ClipPage }),
      },
      // Catalogue paths /{character}/{sub}/{tab}?keyword=… (§2.3); anything else is the 404 page.
      {
        path: '*',
        handle: { ...catalogue, page: 'src/ui/pages/top-page.tsx' },
        lazy: async () => ({ Component: (await import('./pages/top-page')).TopPage }),
      },
    ],
  },
];
