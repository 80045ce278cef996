/** The attribute that marks the app's script among the page's module preloads (the entry starts it). */
export const APP_LINK_ATTRIBUTE = 'data-onkure-app';

/**
 * The attribute of the inert <template>s that hold the app's module preloads in the page's head
 * (the build's, vite.config.ts `bootEntry`, and a server render's for the page's own chunks).
 */
export const SCRIPTS_TEMPLATE_ATTRIBUTE = 'data-onkure-scripts';

/**
 * Moves the app's module preloads out of their inert templates into the head, where the browser
 * fetches them (all at once, so no chunk waits for the one importing it), and answers the app's
 * address. Until then the page fetches no script but its entry.
 */
export function releaseScripts(document: Pick<Document, 'querySelectorAll' | 'head'>): string {
  for (const template of document.querySelectorAll<HTMLTemplateElement>(`template[${SCRIPTS_TEMPLATE_ATTRIBUTE}]`)) {
    document.head.append(template.content.cloneNode(true));
    template.remove();
  }
  const app = document.head.querySelector<HTMLLinkElement>(`link[rel="modulepreload"][${APP_LINK_ATTRIBUTE}]`);
  if (!app) throw new Error('the page does not link the app (vite.config.ts bootEntry)');
  return app.href;
}

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
  readonly window: Pick<Window, 'requestAnimationFrame' | 'setTimeout' | 'clearTimeout'>;
}

/**
 * The page's lead pictures: the ones it loads first and at once (`fetchpriority="high"`, see
 * src/ui/components/image-loading.ts), which the server also preloads in the page's head. Each is
 * an <img>, alone or in a <picture> whose sources the browser has already chosen among for this
 * screen (its media, density and formats), so waiting on the <img> waits on what this screen shows.
 */
const LEAD_PICTURES = 'img[fetchpriority="high"]';

/**
 * Resolves once the pictures the page leads with are on screen: each lead picture has loaded (or
 * failed) and is decoded, and a frame has gone out after that. A page with no lead picture waits
 * for its first frame. It resolves at once for a page that is not shown (a tab in the background
 * paints no frame until it is), and after LEAD_WAIT_MS whatever the pictures do.
 */
export function leadPictureShown({ document, window }: LeadPictureHost): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  // decode() waits for a picture still loading, and then for it to be decoded (a loaded picture is
  // decoded apart from the page's frames, so one frame may still go out without it).
  const pictures = [...document.querySelectorAll<HTMLImageElement>(LEAD_PICTURES)].filter(
    (img) => typeof img.decode === 'function',
  );
  const shown = Promise.all(pictures.map((img) => img.decode().catch(() => undefined))).then(
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
