import { TOKENS } from '../../src/application';
import { InMemoryBackend, accountStateOf, recordWin } from '../../src/infrastructure';
import { createAppContainer } from '../../src/main/container';
import { inMemoryOverrides, type InMemoryDataset } from '../../src/main/in-memory';
import { playStateOf } from '../../src/infrastructure';
import { contractCatalogue } from './catalogue.dataset';
import { aPrizeItem, aTopPage } from '../support/factories';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { typedClient, type ContractDriver } from './harness';

/** A small dataset shaped like the seed: every tab type represented. */
export function contractDataset(): InMemoryDataset {
  const items = [
    aPrizeItem({ station_id: 1, new: 1 }),
    aPrizeItem({ station_id: 2, type: 'vip', prize_name: 'ねこまる VIPクッション' }),
    aPrizeItem({ station_id: 3, type: 'exclusive', prize_name: 'ぱんだ日和 独占フィギュア' }),
    aPrizeItem({ station_id: 4, designated_type: 'practice', play_price: 0 }),
    aPrizeItem({ station_id: 5, natia: 1, new: 1 }),
  ];
  return {
    topPage: aTopPage({
      sale_list: [{ tab_id: 5, title: 'おすすめ', list: items }],
      new_prize: items.filter((i) => i.new === 1),
    }),
    catalogue: contractCatalogue(items),
  };
}

/** The in-memory fakes bound in the same container the UI tests use. */
export async function memoryDriver(): Promise<ContractDriver> {
  const backend = new InMemoryBackend();
  const dataset = contractDataset();
  const overrides = inMemoryOverrides(backend, dataset);
  const client = () => typedClient(createAppContainer(TEST_CLIENT_CONFIG, overrides, { storage: null, cookies: () => '', navigator: { reload: () => undefined, goTo: () => undefined } }));
  return {
    name: 'in-memory fakes',
    client,
    async newUser() {
      const user = backend.createUser();
      const identity = backend.issueToken(user.user_id);
      const container = client();
      container.get(TOKENS.SessionPort).signIn(identity);
      return { identity, client: container };
    },
    fixtures: {
      async stationIds() {
        return [...new Set(dataset.topPage.sale_list.flatMap((s) => s.list.map((i) => i.station_id)))].sort((a, b) => a - b);
      },
      async playableStationIds(type) {
        return [...playStateOf(backend, dataset.catalogue).stations.values()]
          .filter((s) => s.type === type && s.station_status === 'open' && s.stock > 0).map((s) => s.station_id).sort((a, b) => a - b);
      },
      async setStationStatus(stationId, status) {
        playStateOf(backend, dataset.catalogue).setStationStatus(stationId, status);
      },
      async creditPurchasedTc(userId, amount) {
        backend.credit(userId, 'toll', amount, 'purchase');
      },
      async recordVipWin(userId, stationId) {
        playStateOf(backend, dataset.catalogue).recordVipWin(userId, stationId, backend.now().getTime());
      },
      async freshKujiBox() {
        const state = playStateOf(backend, dataset.catalogue);
        return state.addKujiBox(state.kuji[0]!.kuji_id);
      },
      async setKujiBoxStatus(boxId, status) {
        playStateOf(backend, dataset.catalogue).setKujiBoxStatus(boxId, status);
      },
      async creditTc(userId, kind, amount) {
        backend.credit(userId, kind, amount, 'admin');
      },
      async grantPrize(userId, win) {
        return recordWin(backend, userId, win);
      },
      async shipPrize(userId, playHistoryId, contactNumber) {
        const state = accountStateOf(backend);
        const prize = state.prizes.find((p) => p.user_id === userId && p.prize.play_history_id === playHistoryId);
        const main = state.addresses.find((a) => a.user_id === userId && a.is_main === 1);
        if (!prize || !main) throw new Error('shipPrize: no such prize or no main address');
        const { first_name, last_name, zip, address1, address2, address3, tel, email } = main;
        prize.delivery = {
          status: 'shipped', address: { first_name, last_name, zip, address1, address2, address3, tel, email: email === '' ? null : email },
          contact_number: contactNumber, shipped_at: backend.now().toISOString(),
        };
      },
      async suspendUser(userId) {
        const user = backend.users.get(userId);
        if (user) user.status = 2;
      },
    },
    close: async () => undefined,
  };
}
