import type { TestServer } from './test-server';

/** The first seeded station a player can reserve and pay for: normal, open, TC-priced, with stock. */
export async function playableStation(t: TestServer): Promise<{ station_id: number; play_price: number }> {
  const [row] = await t.server.store().query<{ station_id: number; play_price: number }>(
    `SELECT station_id, play_price FROM stations
      WHERE station_type = 'normal' AND designated_type = 'normal' AND station_status = 'open' AND stock >= 5 ORDER BY station_id LIMIT 1`,
  );
  if (!row) throw new Error('the seed has no playable station');
  return row;
}

/** The first seeded VIP or exclusive station (its cameras need a media token). */
export async function gatedStation(t: Pick<TestServer, 'server'>): Promise<number> {
  const [row] = await t.server
    .store()
    .query<{ station_id: number }>(
      "SELECT station_id FROM stations WHERE station_type <> 'normal' ORDER BY station_id LIMIT 1",
    );
  if (!row) throw new Error('the seed has no VIP or exclusive station');
  return row.station_id;
}
