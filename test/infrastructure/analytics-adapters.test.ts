/** @vitest-environment jsdom */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, type AnalyticsPort } from '../../src/application';
import {
  ANALYTICS_EVENT_NAMES,
  analyticsEvent,
  type AnalyticsEventName,
  type AnalyticsPayload,
} from '../../src/domain';
import {
  ANALYTICS_ENDPOINTS,
  analyticsCollectBody,
  analyticsEventsResponseSchema,
  type CollectedAnalyticsEvent,
} from '../../src/contract';
import {
  CollectorAnalytics,
  FanOutAnalytics,
  GtagAnalytics,
  TAG_SCRIPT_MARKER,
  type TagPage,
} from '../../src/infrastructure';
import { createAnalytics, createAppContainer, startAppAnalytics } from '../../src/main/container';
import { readClientConfig, type ClientConfig } from '../../src/main/client-config';
import { injectFetch } from '../support/inject-fetch';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';
import { ANALYTICS_FIELDS } from '../support/analytics-fields';

const IDS = { main: 'G-MAIN0001', virtualCrane: 'G-CRANE0001' };
const NO_IDS = { main: '', virtualCrane: '' };
const SCRIPT_URL = 'https://tag.example.test/gtag/js';
const STARTED_AT = new Date('2025-05-01T09:00:00+09:00');

const FIELDS = ANALYTICS_FIELDS;

const event = <N extends AnalyticsEventName>(name: N, ids = IDS): AnalyticsPayload =>
  analyticsEvent(name, FIELDS[name], { user_id: 42, shop_id: 1, measurementIds: ids });

/** A fresh page for each test: its own jsdom document and tag globals. */
function freshPage(): TagPage & { readonly document: Document } {
  return { document: document.implementation.createHTMLDocument('t') };
}
const scripts = (page: { document: Document }) => [...page.document.querySelectorAll('script')];
/** The gtag commands in the data layer, as arrays (gtag.js reads Arguments objects). */
const commands = (page: TagPage) => (page.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
const eventsIn = (page: TagPage) =>
  commands(page).filter((c) => c[0] === 'event') as ['event', string, Record<string, unknown>][];

function tag(page: TagPage, ids = IDS, scriptUrl = SCRIPT_URL) {
  return new GtagAnalytics({ scriptUrl, ids, page: () => page, now: () => STARTED_AT });
}

describe('GtagAnalytics: the tag loads only when an id is configured [R7-12]', () => {
  afterEach(() => {
    delete (window as Partial<TagPage>).dataLayer;
    delete (window as Partial<TagPage>).gtag;
    document.head.innerHTML = '';
  });

  it('[R7-12] no id configured: no script, no data layer, no gtag — whatever is sent', () => {
    const page = freshPage();
    const adapter = tag(page, NO_IDS);
    adapter.start();
    for (const name of ANALYTICS_EVENT_NAMES) adapter.send(event(name, NO_IDS));
    // An event addressed to an id the adapter was not configured with goes nowhere either.
    adapter.send(event('buy_tc'));
    expect(adapter.enabled).toBe(false);
    expect(scripts(page)).toEqual([]);
    expect(page.dataLayer).toBeUndefined();
    expect(page.gtag).toBeUndefined();
  });

  it("[R7-12] the app's own binding with no id leaves the real page untouched too", () => {
    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, analyticsScriptUrl: SCRIPT_URL });
    startAppAnalytics(container);
    container.get<AnalyticsPort>(TOKENS.AnalyticsPort).send(event('conversion', NO_IDS));
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect((window as Partial<TagPage>).dataLayer).toBeUndefined();
    expect((window as Partial<TagPage>).gtag).toBeUndefined();
  });

  it('[R7-12] nothing happens when the adapter is built (import or composition): only start() or a send loads the tag', () => {
    const page = freshPage();
    const adapter = tag(page);
    expect(scripts(page)).toEqual([]);
    expect(page.dataLayer).toBeUndefined();
    adapter.send(event('conversion'));
    expect(scripts(page)).toHaveLength(1);
  });

  it('[R7-12] with ids: one async script from the configured URL with the main id, however often it starts', () => {
    const page = freshPage();
    const adapter = tag(page);
    adapter.start();
    adapter.start();
    adapter.send(event('conversion'));
    // A second adapter on the same page (another container) adds no second script.
    tag(page).start();
    const [script, ...others] = scripts(page);
    expect(others).toEqual([]);
    expect(script?.src).toBe(`${SCRIPT_URL}?id=${IDS.main}`);
    expect(script?.async).toBe(true);
    expect(script?.hasAttribute(TAG_SCRIPT_MARKER)).toBe(true);
    expect(script?.parentElement).toBe(page.document.head);
  });

  it("[R7-12] initialises gtag('js', now) and gtag('config', id) for the main and the virtual-crane id, as Arguments objects", () => {
    const page = freshPage();
    tag(page).start();
    expect(commands(page)).toEqual([
      ['js', STARTED_AT],
      ['config', IDS.main],
      ['config', IDS.virtualCrane],
    ]);
    expect(page.dataLayer?.every((entry) => Object.prototype.toString.call(entry) === '[object Arguments]')).toBe(true);
    expect(typeof page.gtag).toBe('function');
  });

  it('[R7-12] crane_course goes only to the virtual-crane id; every other event only to the main id', () => {
    const page = freshPage();
    const adapter = tag(page);
    for (const name of ANALYTICS_EVENT_NAMES) adapter.send(event(name));
    const sent = eventsIn(page);
    expect(sent.map(([, name]) => name)).toEqual([...ANALYTICS_EVENT_NAMES]);
    for (const [, name, params] of sent)
      expect(params.send_to).toBe(name === 'crane_course' ? IDS.virtualCrane : IDS.main);
    expect(sent.filter(([, , params]) => params.send_to === IDS.virtualCrane).map(([, name]) => name)).toEqual([
      'crane_course',
    ]);
  });

  it('[R7-12] with only the main id, crane_course is not sent (it never falls back to the main id)', () => {
    const page = freshPage();
    const ids = { main: IDS.main, virtualCrane: '' };
    const adapter = tag(page, ids);
    for (const name of ANALYTICS_EVENT_NAMES) adapter.send(event(name, ids));
    expect(commands(page).filter((c) => c[0] === 'config')).toEqual([['config', IDS.main]]);
    expect(eventsIn(page).map(([, name]) => name)).toEqual(ANALYTICS_EVENT_NAMES.filter((n) => n !== 'crane_course'));
  });

  it('[R7-12] with only the virtual-crane id, the script loads with it and only crane_course is sent', () => {
    const page = freshPage();
    const ids = { main: '', virtualCrane: IDS.virtualCrane };
    const adapter = tag(page, ids);
    for (const name of ANALYTICS_EVENT_NAMES) adapter.send(event(name, ids));
    expect(scripts(page)[0]?.src).toBe(`${SCRIPT_URL}?id=${IDS.virtualCrane}`);
    expect(eventsIn(page).map(([, name, params]) => [name, params.send_to])).toEqual([
      ['crane_course', IDS.virtualCrane],
    ]);
  });

  it("[R9-15][R3-21] each event carries its fields, user_id, shop_id and the spec's flags", () => {
    const page = freshPage();
    const adapter = tag(page);
    for (const name of ANALYTICS_EVENT_NAMES) adapter.send(event(name));
    const byName = Object.fromEntries(eventsIn(page).map(([, name, params]) => [name, params]));
    expect(byName.carousel_click).toEqual({
      send_to: IDS.main,
      ...FIELDS.carousel_click,
      user_id: 42,
      shop_id: 1,
      is_pc: 1,
      site_type: 1,
    });
    expect(byName.filtering_click).toMatchObject({ is_pc: 1, site_type: 1 });
    expect(byName.support_click).toMatchObject({ support_id: 7, is_pc: 0, site_type: 0 });
    expect(byName.medal_recommend_modal_action).toMatchObject({ action_type: 'close', is_pc: 0 });
    expect(byName.medal_recommend_modal_action).not.toHaveProperty('site_type');
    expect(byName.buy_tc).toEqual({ send_to: IDS.main, price: 1200, user_id: 42, shop_id: 1, is_pc: 1 });
  });

  it('[R7-12] no script URL configured: the ids are configured in the data layer but no script is added', () => {
    const page = freshPage();
    tag(page, IDS, '').send(event('conversion'));
    expect(scripts(page)).toEqual([]);
    expect(commands(page).map((c) => c[0])).toEqual(['js', 'config', 'config', 'event']);
  });

  it('[R7-12] reuses a gtag the page already defines', () => {
    const calls: unknown[][] = [];
    const page: TagPage = { ...freshPage(), gtag: (...args: unknown[]) => void calls.push(args) };
    tag(page).send(event('buy_tc'));
    expect(calls.map((c) => c[0])).toEqual(['js', 'config', 'config', 'event']);
  });

  it('[R7-12] no page (Node, server rendering): start and send do nothing and do not throw', () => {
    const adapter = new GtagAnalytics({ scriptUrl: SCRIPT_URL, ids: IDS, page: () => null });
    expect(() => {
      adapter.start();
      adapter.send(event('conversion'));
    }).not.toThrow();
  });

  it('[R7-12] the browser binding loads the tag into the real page on startAppAnalytics', () => {
    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, analyticsIds: IDS, analyticsScriptUrl: SCRIPT_URL });
    expect(document.querySelectorAll('script')).toHaveLength(0);
    startAppAnalytics(container);
    expect([...document.querySelectorAll('script')].map((s) => s.src)).toEqual([`${SCRIPT_URL}?id=${IDS.main}`]);
    container.get<AnalyticsPort>(TOKENS.AnalyticsPort).send(event('crane_course'));
    const layer = ((window as Partial<TagPage>).dataLayer ?? []).map((e) => Array.from(e as ArrayLike<unknown>));
    expect(layer.at(-1)).toEqual(['event', 'crane_course', expect.objectContaining({ send_to: IDS.virtualCrane })]);
  });
});

describe('FanOutAnalytics', () => {
  it('[R7-12] sends each event to every adapter; one failing stops neither the others nor the app', () => {
    const got: string[] = [];
    const fan = new FanOutAnalytics([
      {
        send: () => {
          throw new Error('tag blocked');
        },
      },
      { send: (e) => void got.push(e.name) },
    ]);
    expect(() => fan.send(event('buy_tc'))).not.toThrow();
    expect(got).toEqual(['buy_tc']);
  });

  it('[R7-12] start() starts the adapters that have one', () => {
    const page = freshPage();
    new FanOutAnalytics([{ send: () => undefined }, tag(page)]).start();
    expect(scripts(page)).toHaveLength(1);
  });
});

describe('CollectorAnalytics against the real reference server (development collector)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
  });
  afterAll(async () => t?.close());

  const collectUrl = () => `${t.apiBase}${ANALYTICS_ENDPOINTS.devCollect}`;
  async function collected(since = 0): Promise<CollectedAnalyticsEvent[]> {
    const res = await t.server.app.inject({
      method: 'POST',
      url: `/api/${ANALYTICS_ENDPOINTS.devEvents}`,
      payload: { since },
    });
    return analyticsEventsResponseSchema.parse(res.json()).list;
  }
  const lastSeq = async () => (await collected()).at(-1)?.seq ?? 0;

  it('[R7-12][R9-15] posts every spec event by fetch (keepalive), and the server keeps exactly what the client sent', async () => {
    const seen: RequestInit[] = [];
    const viaInject = injectFetch(t.server.app);
    const collector = new CollectorAnalytics({
      url: collectUrl(),
      sendBeacon: null,
      fetch: (input, init) => (seen.push(init ?? {}), viaInject(input, init)),
    });
    const before = await lastSeq();
    for (const name of ANALYTICS_EVENT_NAMES) collector.send(event(name));
    await collector.settled();
    const got = await collected(before);
    expect(got.map((e) => ({ name: e.name, send_to: e.send_to, params: e.params }))).toEqual(
      ANALYTICS_EVENT_NAMES.map((name) => analyticsCollectBody(event(name))),
    );
    expect(seen.every((init) => init.keepalive === true && init.method === 'POST')).toBe(true);
  });

  it('[R7-12] prefers navigator.sendBeacon with a JSON Blob, which the server accepts as is', async () => {
    const beacons: { url: string; data: Blob }[] = [];
    const collector = new CollectorAnalytics({
      url: collectUrl(),
      sendBeacon: (url, data) => (beacons.push({ url, data }), true),
      fetch: () => {
        throw new Error('fetch must not be used when the beacon is queued');
      },
    });
    collector.send(event('crane_course'));
    expect(beacons).toHaveLength(1);
    expect(beacons[0]?.url).toBe(collectUrl());
    expect(beacons[0]?.data.type).toBe('application/json');
    // Deliver the beacon's bytes to the real server, as the browser would.
    const before = await lastSeq();
    const res = await t.server.app.inject({
      method: 'POST',
      url: new URL(collectUrl()).pathname,
      payload: await beacons[0]!.data.text(),
      headers: { 'content-type': beacons[0]!.data.type },
    });
    expect(res.statusCode).toBe(200);
    expect((await collected(before)).map((e) => [e.name, e.send_to])).toEqual([['crane_course', IDS.virtualCrane]]);
  });

  it('[R7-12] falls back to fetch when the beacon refuses or throws, and uses fetch with the Authorization header when one is configured', async () => {
    const auth: (string | null)[] = [];
    const viaInject = injectFetch(t.server.app);
    const recording: typeof fetch = (input, init) => (
      auth.push(new Headers(init?.headers).get('authorization')),
      viaInject(input, init)
    );
    let beaconCalls = 0;
    const before = await lastSeq();
    const refused = new CollectorAnalytics({
      url: collectUrl(),
      fetch: recording,
      sendBeacon: () => (beaconCalls++, false),
    });
    const throwing = new CollectorAnalytics({
      url: collectUrl(),
      fetch: recording,
      sendBeacon: () => {
        beaconCalls++;
        throw new TypeError('not allowed');
      },
    });
    const authorized = new CollectorAnalytics({
      url: collectUrl(),
      fetch: recording,
      authorization: 'Basic dGVzdA==',
      sendBeacon: () => (beaconCalls++, true),
    });
    refused.send(event('phone_auth'));
    throwing.send(event('regist_user'));
    authorized.send(event('add_registration'));
    await Promise.all([refused.settled(), throwing.settled(), authorized.settled()]);
    expect(beaconCalls).toBe(2);
    expect(auth).toEqual([null, null, 'Basic dGVzdA==']);
    expect((await collected(before)).map((e) => e.name).sort()).toEqual([
      'add_registration',
      'phone_auth',
      'regist_user',
    ]);
  });

  it('[R7-12] a failing collector never throws into the app', async () => {
    const collector = new CollectorAnalytics({
      url: collectUrl(),
      sendBeacon: null,
      fetch: () => Promise.reject(new TypeError('offline')),
    });
    expect(() => collector.send(event('conversion'))).not.toThrow();
    await expect(collector.settled()).resolves.toBeUndefined();
  });

  it("[R7-12][R9-15] the app's binding fans out to the tag and the collector: the container's AnalyticsPort reaches the server", async () => {
    const config: ClientConfig = {
      ...TEST_CLIENT_CONFIG,
      apiBase: t.apiBase,
      analyticsIds: IDS,
      analyticsCollectUrl: collectUrl(),
    };
    const analytics = createAnalytics(config, { fetch: injectFetch(t.server.app) });
    expect(analytics).toBeInstanceOf(FanOutAnalytics);
    const collector = (analytics as FanOutAnalytics).targets.find(
      (a): a is CollectorAnalytics => a instanceof CollectorAnalytics,
    )!;
    const before = await lastSeq();
    analytics.send(event('support_click'));
    analytics.send(event('crane_course'));
    await collector.settled();
    expect((await collected(before)).map((e) => [e.name, e.send_to, e.params.is_pc, e.params.site_type])).toEqual([
      ['support_click', IDS.main, 0, 0],
      ['crane_course', IDS.virtualCrane, 1, undefined],
    ]);
  });

  it('[R7-12] without a collect URL the binding is the tag alone', () => {
    expect(createAnalytics({ ...TEST_CLIENT_CONFIG, analyticsIds: IDS })).toBeInstanceOf(GtagAnalytics);
  });
});

describe('client configuration of the analytics adapters', () => {
  const origin = 'https://onkure.example.jp';
  it('[R7-12] VITE_GA_SCRIPT_URL and VITE_ANALYTICS_COLLECT_URL have no default and resolve against the page', () => {
    expect(readClientConfig({}, origin)).toMatchObject({
      analyticsScriptUrl: '',
      analyticsCollectUrl: '',
      analyticsIds: NO_IDS,
    });
    const config = readClientConfig(
      {
        VITE_GA_SCRIPT_URL: 'https://www.googletagmanager.com/gtag/js',
        VITE_ANALYTICS_COLLECT_URL: '/api/dev/analytics/collect',
        VITE_GA_MEASUREMENT_ID: IDS.main,
        VITE_GA_VIRTUAL_CRANE_ID: IDS.virtualCrane,
      },
      origin,
    );
    expect(config).toMatchObject({
      analyticsScriptUrl: 'https://www.googletagmanager.com/gtag/js',
      analyticsCollectUrl: `${origin}/api/dev/analytics/collect`,
      analyticsIds: IDS,
    });
  });

  it('refuses a script or collect address that is not http(s)', () => {
    expect(() => readClientConfig({ VITE_GA_SCRIPT_URL: 'javascript:alert(1)' }, origin)).toThrow(/VITE_GA_SCRIPT_URL/);
    expect(() => readClientConfig({ VITE_ANALYTICS_COLLECT_URL: 'data:text/plain,x' }, origin)).toThrow(
      /VITE_ANALYTICS_COLLECT_URL/,
    );
  });
});
