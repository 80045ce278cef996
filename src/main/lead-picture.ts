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
 * or failed, the page's pictures showing them are decoded, and a frame has gone out after that. A
 * page with no lead picture waits for its first frame. It resolves at once for a page that is not
 * shown (a tab in the background paints no frame until it is), and after LEAD_WAIT_MS whatever the
 * pictures do.
 */
export function leadPictureShown({ document, window }: LeadPictureHost): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  const leads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')].filter(
    (link) => !link.media || window.matchMedia(link.media).matches,
  );
  const shown = Promise.all(leads.map((link) => preloaded(link, window)))
    .then(() => decoded(document, new Set(leads.map((link) => link.href))))
    .then(
      () =>
        // The next frame paints the pictures; the one after it starts once that frame has gone out.
        new Promise<void>((resolve) =>
          window.requestAnimationFrame(() => window.requestAnimationFrame(() => window.setTimeout(resolve, 0))),
        ),
    );
  let timer: number | undefined;
  const late = new Promise<void>((resolve) => {
    timer = window.setTimeout(resolve, LEAD_WAIT_MS);
  });
  return Promise.race([shown, late]).finally(() => window.clearTimeout(timer));
}

/**
 * The page's pictures showing a lead picture, decoded (a loaded picture is decoded apart from the
 * page's frames, so one frame may still go out without it); a picture that cannot be is done.
 */
function decoded(document: LeadPictureHost['document'], leads: ReadonlySet<string>): Promise<unknown> {
  const pictures = [...document.querySelectorAll<HTMLImageElement>('img')].filter(
    (img) => leads.has(img.currentSrc || img.src) && typeof img.decode === 'function',
  );
  return Promise.all(pictures.map((img) => img.decode().catch(() => undefined)));
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
