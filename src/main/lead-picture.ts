/** The attribute that marks the app's script among the page's module preloads (the entry starts it). */
export const APP_LINK_ATTRIBUTE = 'data-onkure-app';

/** The performance mark the entry sets when it starts the app (after the lead pictures are shown). */
export const APP_START_MARK = 'onkure:app-start';

/**
 * How long the app waits at most for the page's lead pictures: on a slow network a large picture
 * must not keep the page from going live.
 */
export const LEAD_WAIT_MS = 2_500;

/** The parts of the browser the wait reads (a document and its window; tests pass thin doubles). */
export interface LeadPictureHost {
  readonly document: Pick<Document, 'visibilityState' | 'querySelectorAll'>;
  readonly window: Pick<Window, 'matchMedia' | 'requestAnimationFrame' | 'setTimeout' | 'clearTimeout'> & {
    readonly performance: Pick<Performance, 'getEntriesByName'>;
  };
}

/**
 * Resolves once the pictures the page leads with are on screen: the server's image preloads for
 * this screen's media (`<link rel="preload" as="image">`, src/main/server-render.tsx) have loaded
 * or failed, and a frame has been painted after that. A page with no lead picture waits for its
 * first frame. It resolves at once for a page that is not shown (a tab in the background paints no
 * frame until it is), and after LEAD_WAIT_MS whatever the pictures do.
 */
export function leadPictureShown({ document, window }: LeadPictureHost): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  const leads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].filter(
    (link) => !link.media || window.matchMedia(link.media).matches,
  );
  const shown = Promise.all(leads.map((link) => preloaded(link, window))).then(
    () =>
      // A task queued from a frame's callback runs after that frame has been painted.
      new Promise<void>((resolve) => window.requestAnimationFrame(() => window.setTimeout(resolve, 0))),
  );
  let timer: number | undefined;
  const late = new Promise<void>((resolve) => {
    timer = window.setTimeout(resolve, LEAD_WAIT_MS);
  });
  return Promise.race([shown, late]).finally(() => window.clearTimeout(timer));
}

/** A preload that has finished is in the resource timing buffer; one still loading fires load or error. */
function preloaded(link: HTMLLinkElement, window: LeadPictureHost['window']): Promise<void> {
  const done = window.performance
    .getEntriesByName(link.href)
    .some((entry) => 'responseEnd' in entry && (entry as PerformanceResourceTiming).responseEnd > 0);
  if (done) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
  });
}
