// The page's entry script: small, and the only one the browser runs before the page's first paint.
// The app (src/main/browser.tsx: React, the container, hydration) starts once the pictures the page
// leads with are on screen, so that no script competes with them for the first frames (issue 27,
// docs/performance.md "The lead picture first"). The build links the app and its chunks in the
// page's head (modulepreload, vite.config.ts `bootEntry`): they are fetched meanwhile, and only
// their running waits.
import { APP_LINK_ATTRIBUTE, APP_START_MARK, leadPictureShown } from './lead-picture';

const app = document.querySelector<HTMLLinkElement>(`link[rel="modulepreload"][${APP_LINK_ATTRIBUTE}]`);
if (!app) throw new Error('the page does not link the app (vite.config.ts bootEntry)');
void leadPictureShown({ document, window }).then(() => {
  // Tools and the e2e suite compare it with the page's largest picture (src/main/lead-picture.ts).
  performance.mark(APP_START_MARK);
  return import(/* @vite-ignore */ app.href);
});
