import type { FastifyInstance } from 'fastify';
import {
  carouselRequestSchema, characterRequestSchema, informationRequestSchema, kujiListRequestSchema, PAGE_ITEMS_COUNT,
  playingRequestSchema, prizeRequestSchema, prizeV2RequestSchema, startNewsRequestSchema, topPagePrizeRequestSchema,
} from '../../src/contract';
import { hasStationSearchFilter, searchResultPage, searchStations } from '../../src/domain';
import { optionalUser, requireUser } from '../auth/identity';
import { buildTopPage, saleSectionsOf, showsVirtualCraneTab, toPrizeItem, visibleTabs } from '../catalogue/catalogue.repository';
import { ContentsRepository } from '../catalogue/contents.repository';
import { ok, replyError } from '../http/reply';
import { parseBody } from '../http/validate';
import { KujiRepository } from '../kuji/kuji.repository';
import { StationReservations } from '../play/station-reservations';
import { StoreTcLedgerSource, VipGate } from '../play/vip-gate';
import type { ApiDeps } from './deps';

const SHOP_NOT_FOUND = 'ショップが見つかりません。';

/** The /contents/* calls of spec §7 (see docs/api/contents.md). */
export async function contentsRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const contents = new ContentsRepository(deps.db, deps.catalogue.imageUrl);
  const kuji = new KujiRepository(deps.db, deps.catalogue.imageUrl);
  const reservations = new StationReservations(deps.db, deps.catalogue, new VipGate(new StoreTcLedgerSource()), deps.now);
  const virtualCraneTab = (signedIn: boolean, filterActive: boolean) => showsVirtualCraneTab({ signedIn, target: deps.config.target, filterActive });

  app.post('/contents/top_page_prize', async (request, reply) => {
    const body = parseBody(topPagePrizeRequestSchema, request.body, reply);
    if (!body) return reply;
    if (!(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    const user = await optionalUser(deps.identity, request);
    const page = await buildTopPage(deps.catalogue, body.shop_id, deps.now(), {
      showVirtualCrane: virtualCraneTab(user !== null, false),
      ...(body.fes_id ? { fesId: body.fes_id } : {}),
    });
    return ok(page);
  });

  app.post('/contents/prize', async (request, reply) => {
    const body = parseBody(prizeRequestSchema, request.body, reply);
    if (!body) return reply;
    if (!(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    const now = deps.now();
    const [stations, tabs, fes] = await Promise.all([deps.catalogue.stations(body.shop_id, now), deps.catalogue.tabs(), deps.catalogue.fes(body.shop_id, now, body.fes_id)]);
    const { station_id, character_id, keyword } = body.prize;
    const matches = searchStations(stations, {
      ...(station_id !== undefined ? { station_ids: [station_id] } : {}),
      ...(character_id !== undefined ? { character_id } : {}),
      ...(keyword !== undefined ? { keyword } : {}),
    }, tabs);
    const fesIds = new Set(fes?.station_ids ?? []);
    return ok({
      prize: matches.map(toPrizeItem),
      prize_fes: matches.filter((s) => fesIds.has(s.station_id)).map(toPrizeItem),
      prize_ticket: matches.filter((s) => s.designated_type === 'point_ticket').map(toPrizeItem),
    });
  });

  app.post('/v2/contents/prize', async (request, reply) => {
    const body = parseBody(prizeV2RequestSchema, request.body, reply);
    if (!body) return reply;
    if (!(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    const now = deps.now();
    const [stations, tabs, user] = await Promise.all([deps.catalogue.stations(body.shop_id, now), deps.catalogue.tabs(), optionalUser(deps.identity, request)]);
    let matches = searchStations(stations, body.prize, tabs);
    if (body.fes_id !== undefined) {
      const fes = await deps.catalogue.fes(body.shop_id, now, body.fes_id);
      if (!fes) return replyError(reply, 404, 'フェスが見つかりません。');
      const ids = new Set(fes.station_ids);
      matches = matches.filter((s) => ids.has(s.station_id));
    }
    return ok({
      prize: searchResultPage(matches, { page: body.page, isAll: body.prize.is_all === 1, pageSize: PAGE_ITEMS_COUNT }, toPrizeItem),
      tab_list: visibleTabs(tabs, virtualCraneTab(user !== null, hasStationSearchFilter(body.prize) || body.fes_id !== undefined)),
      sale_list: saleSectionsOf(matches, tabs),
    });
  });

  app.post('/contents/kuji', async (request, reply) => {
    const body = parseBody(kujiListRequestSchema, request.body, reply);
    if (!body) return reply;
    if (body.shop_id !== undefined && !(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    return ok({ list: await kuji.onSale(body.shop_id ?? null, deps.now()) });
  });

  app.post('/contents/carousel', async (request, reply) => {
    const body = parseBody(carouselRequestSchema, request.body, reply);
    if (!body) return reply;
    if (body.shop_id !== undefined && !(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    return ok({ carousel: { list: await contents.carousels(body.shop_id ?? null, deps.now()) } });
  });

  app.post('/contents/information', async (request, reply) => {
    const body = parseBody(informationRequestSchema, request.body, reply);
    if (!body) return reply;
    if (!(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    const { list, total_count } = await contents.information(body.shop_id, deps.now(), body.page, body.num);
    return ok({ information: { list, total_count, page: body.page, num: body.num, page_count: Math.ceil(total_count / body.num) } });
  });

  app.post('/contents/get_start_news', async (request, reply) => {
    const body = parseBody(startNewsRequestSchema, request.body, reply);
    if (!body) return reply;
    if (!(await deps.catalogue.shopExists(body.shop_id))) return replyError(reply, 404, SHOP_NOT_FOUND);
    const only = { ...(body.is_top_page !== undefined ? { is_top_page: body.is_top_page } : {}), ...(body.is_pick_up !== undefined ? { is_pick_up: body.is_pick_up } : {}) };
    const { list, total_count } = await contents.information(body.shop_id, deps.now(), body.page, body.num, only);
    return ok({ list, total_count });
  });

  app.post('/contents/character', async (request, reply) => {
    const body = parseBody(characterRequestSchema, request.body, reply);
    if (!body) return reply;
    return ok({ character: { list: await deps.catalogue.characters() } });
  });

  app.post('/contents/playing', async (request, reply) => {
    const user = await requireUser(deps.identity, request, reply);
    if (!user) return reply;
    const body = parseBody(playingRequestSchema, request.body, reply);
    if (!body) return reply;
    return ok({ list: await reservations.playing(user.user_id) });
  });
}
