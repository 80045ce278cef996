import type { RouteObject } from 'react-router';
import { DefaultLayout } from './layout/default-layout';

/** The route table (§2.1). Every page is its own lazily loaded chunk. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <DefaultLayout />,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./pages/top-page')).TopPage }) },
      // A station's play screen (§2.1): /play/{tag...}/{stationId} (the build target's play path) and /game/{stationId}.
      { path: 'play/*', lazy: async () => ({ Component: (await import('./play/play-page')).PlayPage }) },
      { path: 'debug/login', lazy: async () => ({ Component: (await import('./pages/debug-login-page')).DebugLoginPage }) },
      { path: 'game/:stationId', lazy: async () => ({ Component: (await import('./play/play-page')).PlayPage }) },
      { path: '*', lazy: async () => ({ Component: (await import('./pages/not-found-page')).NotFoundPage }) },
    ],
  },
];
