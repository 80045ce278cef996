// The page's entry script: small, and the only one the browser fetches and runs before the page's
// first paint. The app (src/main/browser.tsx: React, the container, hydration) is fetched and
// started once the pictures the page leads with are on screen, so that no script competes with
// them for a slow network's first bytes or for the first frames (issue 27, docs/performance.md
// "The lead picture first"). The page holds the app's and its chunks' module preloads in inert
// templates (vite.config.ts `bootEntry`, src/main/server-render.tsx); they are moved into the head
// then, all fetched at once.
import { APP_START_MARK, leadPictureShown, releaseScripts } from './lead-picture';

void leadPictureShown({ document, window }).then(() => {
  const app = releaseScripts(document);
  // Tools and the e2e suite compare it with the page's largest picture (src/main/lead-picture.ts).
  performance.mark(APP_START_MARK);
  return import(/* @vite-ignore */ app);
});
