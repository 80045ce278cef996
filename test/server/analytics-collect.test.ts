import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_EVENT_NAMES, analyticsEvent, type AnalyticsEventName } from '../../src/domain';
import {
  ANALYTICS_ENDPOINTS,
  ANALYTICS_LIMITS,
  analyticsCollectBody,
  analyticsEventsResponseSchema,
} from '../../src/contract';
import { ANALYTICS_RING_CAPACITY, AnalyticsRing } from '../../server/routes/analytics.routes';
import { SERVER_MESSAGES } from '../../server/messages';
import { startTestServer, type TestServer } from '../support/test-server';
import { JAPANESE, post } from './user-helpers';
import { ANALYTICS_FIELDS } from '../support/analytics-fields';

const IDS = { main: 'G-MAIN0001', virtualCrane: 'G-CRANE0001' };
const CONTEXT = { user_id: 42, shop_id: 1, measurementIds: IDS };

const FIELDS = ANALYTICS_FIELDS;

const body = <N extends AnalyticsEventName>(name: N) =>
  analyticsCollectBody(analyticsEvent(name, FIELDS[name], CONTEXT));
const collect = (t: TestServer, payload: unknown) => post(t, ANALYTICS_ENDPOINTS.devCollect, payload);
async function events(t: TestServer, filter: object = {}) {
  const answer = await post(t, ANALYTICS_ENDPOINTS.devEvents, filter);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return analyticsEventsResponseSchema.parse(answer.json);
}

describe('development analytics collector (ONKURE_DEV_CALLS=1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true, env: { ONKURE_DEV_CALLS: '1' } });
  });
  afterAll(async () => t?.close());

  it("[R7-12][R9-15] accepts each of the spec's 13 events as the client sends them and hands them back in order", async () => {
    const before = (await events(t)).list.at(-1)?.seq ?? 0;
    for (const name of ANALYTICS_EVENT_NAMES) {
      const answer = await collect(t, body(name));
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      expect(answer.json.error_code).toBe(200);
    }
    const got = (await events(t, { since: before })).list;
    expect(got.map((e) => e.name)).toEqual([...ANALYTICS_EVENT_NAMES]);
    expect(got.map((e) => e.seq)).toEqual(ANALYTICS_EVENT_NAMES.map((_, i) => before + i + 1));
    for (const e of got) expect(e.params).toEqual(body(e.name).params);
  });

  it('[R7-12] crane_course arrives addressed to the virtual-crane id, every other event to the main id', async () => {
    const got = (await events(t)).list;
    expect(got.filter((e) => e.name === 'crane_course').every((e) => e.send_to === IDS.virtualCrane)).toBe(true);
    expect(got.filter((e) => e.name !== 'crane_course').every((e) => e.send_to === IDS.main)).toBe(true);
  });

  it('[R9-15] the flags arrive as the spec sets them: is_pc 0 only for support_click and the medal modal; site_type 1 for carousel/filtering, 0 for support', async () => {
    const got = (await events(t)).list;
    const flags = Object.fromEntries(got.map((e) => [e.name, [e.params.is_pc, e.params.site_type]]));
    expect(flags.support_click).toEqual([0, 0]);
    expect(flags.medal_recommend_modal_action).toEqual([0, undefined]);
    expect(flags.carousel_click).toEqual([1, 1]);
    expect(flags.filtering_click).toEqual([1, 1]);
    expect(flags.buy_tc).toEqual([1, undefined]);
  });

  it('[R7-12] filters by event name', async () => {
    await collect(t, body('buy_tc'));
    const got = (await events(t, { name: 'buy_tc' })).list;
    expect(got.length).toBeGreaterThan(0);
    expect(got.every((e) => e.name === 'buy_tc' && e.params.price === 1200)).toBe(true);
  });

  it('[R7-12] accepts an event sent with no measurement id configured (send_to empty)', async () => {
    const answer = await collect(
      t,
      analyticsCollectBody(
        analyticsEvent('conversion', {}, { ...CONTEXT, measurementIds: { main: '', virtualCrane: '' } }),
      ),
    );
    expect(answer.status).toBe(200);
  });

  const valid = body('carousel_click');
  const refusals: [string, unknown, string][] = [
    ['an unknown event', { ...valid, name: 'page_view' }, SERVER_MESSAGES.analyticsUnknownEvent],
    ['a missing event name', { send_to: valid.send_to, params: valid.params }, SERVER_MESSAGES.analyticsUnknownEvent],
    [
      'a nested parameter value',
      { ...valid, params: { ...valid.params, extra: { a: 1 } } },
      SERVER_MESSAGES.analyticsBadParamValue,
    ],
    [
      'a null parameter value',
      { ...valid, params: { ...valid.params, extra: null } },
      SERVER_MESSAGES.analyticsBadParamValue,
    ],
    [
      'an array parameter value',
      { ...valid, params: { ...valid.params, extra: [1] } },
      SERVER_MESSAGES.analyticsBadParamValue,
    ],
    [
      'a bad parameter name',
      { ...valid, params: { ...valid.params, 'bad-name': 1 } },
      SERVER_MESSAGES.analyticsBadParamName,
    ],
    [
      'a too long string',
      { ...valid, params: { ...valid.params, title: 'x'.repeat(ANALYTICS_LIMITS.maxStringLength + 1) } },
      SERVER_MESSAGES.analyticsParamsTooLarge,
    ],
    [
      'too many parameters',
      {
        ...valid,
        params: {
          ...valid.params,
          ...Object.fromEntries(Array.from({ length: ANALYTICS_LIMITS.maxParams }, (_, i) => [`p${i}`, i])),
        },
      },
      SERVER_MESSAGES.analyticsTooManyParams,
    ],
    [
      'parameters too large together',
      {
        ...valid,
        params: {
          ...valid.params,
          ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`p${i}`, 'x'.repeat(1000)])),
        },
      },
      SERVER_MESSAGES.analyticsParamsTooLarge,
    ],
    ['a bad send_to', { ...valid, send_to: '"><script>' }, SERVER_MESSAGES.analyticsBadSendTo],
    [
      'no user_id',
      { ...valid, params: { ...valid.params, user_id: undefined } },
      SERVER_MESSAGES.analyticsBadCommonFields,
    ],
    [
      'a string shop_id',
      { ...valid, params: { ...valid.params, shop_id: '1' } },
      SERVER_MESSAGES.analyticsBadCommonFields,
    ],
    ['a wrong is_pc flag', { ...valid, params: { ...valid.params, is_pc: 0 } }, SERVER_MESSAGES.analyticsBadFlags],
    [
      'a wrong site_type flag',
      { ...valid, params: { ...valid.params, site_type: 0 } },
      SERVER_MESSAGES.analyticsBadFlags,
    ],
    [
      'a site_type on an event without one',
      { ...body('buy_tc'), params: { ...body('buy_tc').params, site_type: 1 } },
      SERVER_MESSAGES.analyticsBadFlags,
    ],
  ];
  it.each(refusals)(
    '[R7-12][R9-15] refuses %s with 400 and a Japanese error_info, keeping nothing',
    async (_name, payload, text) => {
      const before = (await events(t)).list.at(-1)?.seq;
      const answer = await collect(t, payload);
      expect(answer.status, JSON.stringify(answer.json)).toBe(400);
      expect(answer.json).toEqual({ error_code: 400, error_info: text });
      expect((await events(t)).list.at(-1)?.seq).toBe(before);
    },
  );

  it.each([
    ['an unknown key', { ...valid, extra: 1 }],
    ['an array', []],
    ['a string', 'conversion'],
    ['null', null],
    ['no params', { name: 'conversion', send_to: '' }],
  ])('[R7-12] refuses %s with 400 and a Japanese error_info', async (_name, payload) => {
    const res = await t.server.app.inject({
      method: 'POST',
      url: `/api/${ANALYTICS_ENDPOINTS.devCollect}`,
      payload: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_info).toMatch(JAPANESE);
  });

  it('refuses malformed JSON and a text body (400), another content type (415) and an oversized body (413), never 5xx', async () => {
    const send = (payload: string, type = 'application/json') =>
      t.server.app.inject({
        method: 'POST',
        url: `/api/${ANALYTICS_ENDPOINTS.devCollect}`,
        payload,
        headers: { 'content-type': type },
      });
    const malformed = await send('{"name":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error_info).toMatch(JAPANESE);
    const text = await send(JSON.stringify(valid), 'text/plain');
    expect(text.statusCode).toBe(400);
    expect(text.json().error_info).toMatch(JAPANESE);
    const xml = await send('<event/>', 'application/xml');
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error_info).toMatch(JAPANESE);
    const huge = await send(JSON.stringify({ ...valid, params: { ...valid.params, title: 'x'.repeat(100 * 1024) } }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error_info).toMatch(JAPANESE);
  });

  it('refuses a bad filter on the events call with 400 and a Japanese error_info', async () => {
    for (const filter of [{ name: 'nope' }, { since: -1 }, { since: 'x' }, { other: 1 }]) {
      const answer = await post(t, ANALYTICS_ENDPOINTS.devEvents, filter);
      expect(answer.status).toBe(400);
      expect(answer.json.error_info).toMatch(JAPANESE);
    }
  });

  it(`[R7-12] keeps only the last ${ANALYTICS_RING_CAPACITY} events: the oldest are dropped first`, async () => {
    const total = ANALYTICS_RING_CAPACITY + 20;
    for (let i = 0; i < total; i++) {
      const answer = await collect(t, { ...body('buy_tc'), params: { ...body('buy_tc').params, price: i } });
      expect(answer.status).toBe(200);
    }
    const got = await events(t);
    expect(got.capacity).toBe(ANALYTICS_RING_CAPACITY);
    expect(got.list).toHaveLength(ANALYTICS_RING_CAPACITY);
    expect(got.list.at(-1)?.params.price).toBe(total - 1);
    expect(got.list[0]?.params.price).toBe(total - ANALYTICS_RING_CAPACITY);
  });
});

describe('AnalyticsRing', () => {
  it('numbers events from 1, drops the oldest past its capacity and filters by name and seq', () => {
    const ring = new AnalyticsRing(3, () => new Date('2025-05-01T00:00:00Z'));
    for (const name of ['conversion', 'buy_tc', 'conversion', 'phone_auth'] as const)
      ring.push({ name, send_to: 'G-1', params: { user_id: 0, shop_id: 1, is_pc: 1 } });
    expect(ring.list().map((e) => [e.seq, e.name])).toEqual([
      [2, 'buy_tc'],
      [3, 'conversion'],
      [4, 'phone_auth'],
    ]);
    expect(ring.list({ name: 'conversion' }).map((e) => e.seq)).toEqual([3]);
    expect(ring.list({ since: 3 }).map((e) => e.seq)).toEqual([4]);
    expect(ring.list()[0]?.received_at).toBe('2025-05-01T00:00:00.000Z');
  });
});

/** The collector follows the development-only switch (issue 7 §5.4): anything but ONKURE_DEV_CALLS=1 is 404. */
describe('the collector fails closed', () => {
  it.each([
    ['production', { NODE_ENV: 'production' }],
    ['unset', { ONKURE_DEV_CALLS: '' }],
    ['ONKURE_DEV_CALLS=true', { ONKURE_DEV_CALLS: 'true' }],
  ])('[R6-6] %s: collect and events answer 404', async (_name, env) => {
    const t = await startTestServer({ inMemory: true, env });
    try {
      expect(t.config.devCalls).toBe(false);
      const c = await collect(t, body('conversion'));
      expect(c.status).toBe(404);
      expect(c.json.error_code).toBe(404);
      expect(c.json.error_info).toMatch(JAPANESE);
      expect((await post(t, ANALYTICS_ENDPOINTS.devEvents, {})).status).toBe(404);
      const got = await t.server.app.inject({ method: 'GET', url: `/api/${ANALYTICS_ENDPOINTS.devEvents}` });
      expect(got.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
