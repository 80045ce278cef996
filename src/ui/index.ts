/** onkure/react: the React app over the use-cases, its container provider and hooks. Never imports an adapter. */
export { OnkureApp, type OnkureAppProps } from './app';
export { ContainerProvider, useContainer, useInjection, useScopedUseCase } from './di/container-context';
export { useObservableState } from './hooks/use-observable-state';
export { MESSAGES } from './messages';
export {
  usePreloaded,
  withFeatures,
  type PreloadContext,
  type RoutePreload,
  type RouteHandle,
  type RenderStatus,
} from './ssr/preload';
export {
  routeOnServer,
  routesLoadedFor,
  readHydrationData,
  hydrationScript,
  HYDRATION_DATA_ID,
  type ServerRouting,
  type HydrationData,
} from './ssr/server-app';
export { routes } from './routes';
export { AppRoutes, useRouteHandles, routeIds, type AppRoutesProps, type PreloadedData } from './router/app-routes';
export { hydrateServerPage } from './ssr/hydrate';
