import type { AnalyticsPort } from '../../application';
import type { AnalyticsPayload } from '../../domain';

/** An analytics adapter with set-up work the composition root may run early (see startAnalytics). */
export interface StartableAnalytics extends AnalyticsPort {
  /** Does the adapter's set-up (idempotent); sending starts it anyway. */
  start(): void;
}

/** Whether `port` has a start() (GtagAnalytics, FanOutAnalytics). */
export function isStartableAnalytics(port: AnalyticsPort): port is StartableAnalytics {
  return typeof (port as Partial<StartableAnalytics>).start === 'function';
}

/** Runs an analytics adapter's set-up when it has one (the browser entry calls it once). */
export function startAnalytics(port: AnalyticsPort): void {
  if (isStartableAnalytics(port)) port.start();
}

type Gtag = (...args: unknown[]) => void;

/** The parts of the page the tag uses: its document and the tag's globals. */
export interface TagPage {
  readonly document: Pick<Document, 'createElement' | 'querySelector'> & {
    readonly head: Pick<HTMLElement, 'appendChild'> | null;
  };
  dataLayer?: unknown[];
  gtag?: Gtag;
}

export interface GtagAnalyticsOptions {
  /**
   * Address of the tag script without its id (VITE_GA_SCRIPT_URL), e.g.
   * https://www.googletagmanager.com/gtag/js; '' loads no script (the page's own tag, if any, reads
   * the data layer).
   */
  readonly scriptUrl: string;
  /** The measurement ids (VITE_GA_MEASUREMENT_ID, VITE_GA_VIRTUAL_CRANE_ID); '' = not configured. */
  readonly ids: { readonly main: string; readonly virtualCrane: string };
  /** The page; default: the global window when there is a document (none in Node or server rendering). */
  readonly page?: () => TagPage | null;
  /** The time given to gtag('js', …). */
  readonly now?: () => Date;
}

/** Marks the script element the adapter adds, so a second instance on the same page adds none. */
export const TAG_SCRIPT_MARKER = 'data-onkure-tag';

function browserPage(): TagPage | null {
  return typeof window !== 'undefined' && typeof document !== 'undefined' ? (window as unknown as TagPage) : null;
}

/**
 * The web analytics tag in the gtag/dataLayer convention [R7-12, R9-15]. Only when at least one
 * measurement id is configured, and only on first use (start() or the first send — never at import
 * time or without a document), it defines `gtag`, loads the tag script once
 * (`<script async src="{scriptUrl}?id={id}">`), and runs `gtag('js', now)` and `gtag('config', id)`
 * for the main and the virtual-crane id. Each event then goes as `gtag('event', name, {send_to, …})`
 * to the id analyticsEvent chose: crane_course to the virtual-crane id, every other event to the
 * main one; an event whose id is not configured is dropped. With no id: no script, no data layer.
 */
export class GtagAnalytics implements StartableAnalytics {
  private readonly ids: readonly string[];
  private gtag: Gtag | null = null;

  constructor(private readonly options: GtagAnalyticsOptions) {
    this.ids = [...new Set([options.ids.main, options.ids.virtualCrane].filter((id) => id !== ''))];
  }

  /** Whether any measurement id is configured (else the adapter never touches the page). */
  get enabled(): boolean {
    return this.ids.length > 0;
  }

  start(): void {
    if (this.gtag || !this.enabled) return;
    const page = (this.options.page ?? browserPage)();
    if (!page) return;
    const dataLayer = (page.dataLayer ??= []);
    // gtag.js reads Arguments objects from the data layer (not arrays), as Google's own snippet pushes.
    page.gtag ??= function gtag() {
      // eslint-disable-next-line prefer-rest-params
      dataLayer.push(arguments);
    };
    this.gtag = page.gtag;
    this.loadScript(page);
    this.gtag('js', (this.options.now ?? (() => new Date()))());
    for (const id of this.ids) this.gtag('config', id);
  }

  send(event: AnalyticsPayload): void {
    if (!event.sendTo || !this.ids.includes(event.sendTo)) return;
    this.start();
    this.gtag?.('event', event.name, { send_to: event.sendTo, ...event.params });
  }

  private loadScript(page: TagPage): void {
    if (!this.options.scriptUrl || page.document.querySelector(`script[${TAG_SCRIPT_MARKER}]`)) return;
    const src = new URL(this.options.scriptUrl, typeof location === 'undefined' ? undefined : location.href);
    src.searchParams.set('id', this.ids[0]!);
    const script = page.document.createElement('script');
    script.async = true;
    script.src = src.toString();
    script.setAttribute(TAG_SCRIPT_MARKER, '');
    page.document.head?.appendChild(script);
  }
}
