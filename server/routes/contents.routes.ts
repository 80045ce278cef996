import {
  lobbyRequestSchema,
  carouselRequestSchema,
  characterRequestSchema,
  informationRequestSchema,
  kujiListRequestSchema,
  PAGE_ITEMS_COUNT,
  playingRequestSchema,
  prizeRequestSchema,
  prizeV2RequestSchema,
  startNewsRequestSchema,
  topPagePrizeRequestSchema,
} from '../../src/contract';
import { hasStationSearchFilter, searchResultPage, searchStations } from '../../src/domain';
import { saleSectionsOf, showsVirtualCraneTab, toPrizeItem, visibleTabs } from '../catalogue/catalogue.repository';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import { sendCompressed } from '../http/compressed';
import type { StationLiveState } from '../../src/domain';
import { LOBBY_SELECT } from '../realtime/realtime-hub';
import type { ApiDeps } from './deps';

const SHOP_NOT_FOUND = SERVER_MESSAGES.shopNotFound;

/** The /contents/* calls of spec §7 (see docs/api/contents.md). */
export async function contentsRoutes({ route, services: s, config }: ApiDeps): Promise<void> {
  const { contents, kujiCatalogue: kuji, reservations } = s;
  const virtualCraneTab = (signedIn: boolean, filterActive: boolean) =>
    showsVirtualCraneTab({ signedIn, target: config.target, filterActive });

  // The answer's bytes come from the top-page cache (built once per change, compressed once per encoding).
  route.open('/contents/top_page_prize', topPagePrizeRequestSchema, async (body, user, { request, reply }) => {
    const answer = await s.topPages.answer({
      shopId: body.shop_id,
      showVirtualCrane: virtualCraneTab(user !== null, false),
      ...(body.fes_id ? { fesId: body.fes_id } : {}),
    });
    return sendCompressed(reply, request.headers['accept-encoding'], answer, 'application/json; charset=utf-8');
  });

  // Designed (issue 45): the lobby's numbers of every station now — status, playing, viewers, the
  // line; the top channel's `list` updates keep them live (one a station a second at most).
  route.open('/contents/lobby', lobbyRequestSchema, async () => ({
    lobby: await s.store.query<StationLiveState>(`${LOBBY_SELECT} ORDER BY s.station_id`),
  }));

  route.open('/contents/prize', prizeRequestSchema, async (body) => {
    if (!(await s.catalogue.shopExists(body.shop_id))) throw new Refusal(404, 404, SHOP_NOT_FOUND);
    const now = s.clock.now();
    const [stations, tabs, fes] = await Promise.all([
      s.catalogue.stations(body.shop_id, now),
      s.catalogue.tabs(),
      s.catalogue.fes(body.shop_id, now, body.fes_id),
    ]);
    const { station_id, character_id, keyword } = body.prize;
    const matches = searchStations(
      stations,
      {
        ...(station_id !== undefined ? { station_ids: [station_id] } : {}),
        ...(character_id !== undefined ? { character_id } : {}),
        ...(keyword !== undefined ? { keyword } : {}),
      },
      tabs,
    );
    const fesIds = new Set(fes?.station_ids ?? []);
    return {
      prize: matches.map(toPrizeItem),
      prize_fes: matches.filter((s) => fesIds.has(s.station_id)).map(toPrizeItem),
      prize_ticket: matches.filter((s) => s.designated_type === 'point_ticket').map(toPrizeItem),
    };
  });

  route.open('/v2/contents/prize', prizeV2RequestSchema, async (body, user) => {
    if (!(await s.catalogue.shopExists(body.shop_id))) throw new Refusal(404, 404, SHOP_NOT_FOUND);
    const now = s.clock.now();
    const [stations, tabs] = await Promise.all([s.catalogue.stations(body.shop_id, now), s.catalogue.tabs()]);
    let matches = searchStations(stations, body.prize, tabs);
    if (body.fes_id !== undefined) {
      const fes = await s.catalogue.fes(body.shop_id, now, body.fes_id);
      if (!fes) throw new Refusal(404, 404, SERVER_MESSAGES.fesNotFound);
      const ids = new Set(fes.station_ids);
      matches = matches.filter((s) => ids.has(s.station_id));
    }
    return {
      prize: searchResultPage(
        matches,
        { page: body.page, isAll: body.prize.is_all === 1, pageSize: PAGE_ITEMS_COUNT },
        toPrizeItem,
      ),
      tab_list: visibleTabs(
        tabs,
        virtualCraneTab(user !== null, hasStationSearchFilter(body.prize) || body.fes_id !== undefined),
      ),
      sale_list: saleSectionsOf(matches, tabs),
    };
  });

  route.open('/contents/kuji', kujiListRequestSchema, async (body) => {
    if (body.shop_id !== undefined && !(await s.catalogue.shopExists(body.shop_id)))
      throw new Refusal(404, 404, SHOP_NOT_FOUND);
    return { list: await kuji.onSale(body.shop_id ?? null, s.clock.now()) };
  });

  route.open('/contents/carousel', carouselRequestSchema, async (body) => {
    if (body.shop_id !== undefined && !(await s.catalogue.shopExists(body.shop_id)))
      throw new Refusal(404, 404, SHOP_NOT_FOUND);
    return { carousel: { list: await contents.carousels(body.shop_id ?? null, s.clock.now()) } };
  });

  route.open('/contents/information', informationRequestSchema, async (body) => {
    if (!(await s.catalogue.shopExists(body.shop_id))) throw new Refusal(404, 404, SHOP_NOT_FOUND);
    const { list, total_count } = await contents.information(
      body.shop_id,
      s.clock.now(),
      body.page,
      body.num,
      body.tag === undefined ? undefined : { tag: body.tag },
    );
    return {
      information: { list, total_count, page: body.page, num: body.num, page_count: Math.ceil(total_count / body.num) },
    };
  });

  route.open('/contents/get_start_news', startNewsRequestSchema, async (body) => {
    if (!(await s.catalogue.shopExists(body.shop_id))) throw new Refusal(404, 404, SHOP_NOT_FOUND);
    const only = {
      ...(body.is_top_page !== undefined ? { is_top_page: body.is_top_page } : {}),
      ...(body.is_pick_up !== undefined ? { is_pick_up: body.is_pick_up } : {}),
    };
    const { list, total_count } = await contents.information(body.shop_id, s.clock.now(), body.page, body.num, only);
    return { list, total_count };
  });

  route.open('/contents/character', characterRequestSchema, async () => {
    return { character: { list: await s.catalogue.characters() } };
  });

  route.authed('/contents/playing', playingRequestSchema, async (user) => {
    return { list: await reservations.playing(user.user_id) };
  });
}
