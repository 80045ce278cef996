// The lite build (no Map/Set polyfills), the one inversify itself imports: one copy in the bundle.
import 'reflect-metadata/lite';
import { TOKENS, type AppUpdates } from '../application';
import { readClientConfig } from './client-config';
import { createContainerWith, startAppAnalytics } from './container-core';
import { LAZY_FEATURES } from './features/lazy';
// The core above and the UI below are evaluated in two tasks (issue 27: one was a long task).
import './next-task';
import { useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { OnkureApp, hydrateServerPage, readHydrationData, routes, routesLoadedFor, withFeatures } from '../ui';
import '../ui/styles.css';

/**
 * Marks the page as live (`<html data-ready>`, and the user timing `onkure:ready`) once its first
 * render has committed: e2e and tools wait for it, and bench:web counts the scripts fetched before it.
 */
function Ready({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.setAttribute('data-ready', '');
    performance.mark('onkure:ready');
  }, []);
  return children;
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The browsing core is bound now; each feature (play, kuji, money…) when a page or modal first needs it.
const { container, features } = createContainerWith(LAZY_FEATURES, readClientConfig());
const routeTable = withFeatures(routes, features);
// A page the server rendered (docs/server-rendering.md) is hydrated with the data it was rendered
// from, once its page's code is loaded; the shell alone (no server render) is rendered here.
const hydrationData = readHydrationData(document);
if (hydrationData && root.firstChild) {
  // Not a top-level await: the page's chunk imports from the chunk this module is bundled in, which
  // would then wait for itself (vite.config.ts groups the entry's modules into one chunk).
  void routesLoadedFor(window.location.pathname, routeTable).then((loaded) =>
    hydrateServerPage(
      root,
      <Ready>
        <OnkureApp container={container} hydrationData={hydrationData} routeTable={loaded} />
      </Ready>,
      {
        onRecoverableError: (error) => console.error('onkure: hydration', error),
      },
    ),
  );
} else {
  createRoot(root).render(
    <Ready>
      <OnkureApp container={container} routeTable={routeTable} />
    </Ready>,
  );
}
// The build this page runs is its entry script's address; the hourly check compares the served
// build manifest's with it, and a code chunk that cannot load (deployed away) reloads the page [R9-13].
const updates = container.get<AppUpdates>(TOKENS.AppUpdates);
updates.start(new URL(import.meta.url).pathname);
// Marks the page (`<html data-new-build>`) once it knows of a newer build: support and e2e can see
// that its next navigation will load the page from the server.
updates.state$.subscribe((s) => document.documentElement.toggleAttribute('data-new-build', s.newBuild));
window.addEventListener('vite:preloadError', (event) => {
  if (updates.chunkFailed()) event.preventDefault();
});
// The analytics tag loads now (only when an id is configured), not at import time.
startAppAnalytics(container);
