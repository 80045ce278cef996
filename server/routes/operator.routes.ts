import {
  OPERATOR_ENDPOINTS as O,
  operatorArmStrengthSchema,
  operatorChangePrizeSchema,
  operatorFaultSchema,
  operatorPlayLogSchema,
  operatorRestockSchema,
  operatorKujiBoxStatusSchema,
  operatorKujiBoxStockSchema,
  operatorStationStatusSchema,
} from '../../src/contract';
import { KUJI_ENDED_BOX_STATUSES, type StationStatus } from '../../src/domain';
import type { ApiDeps } from './deps';

/**
 * The operator API (docs/play.md): station statuses, faults, restocking, prize changes, arm
 * strength and the play log. Guarded by the operator token (RouteBuilder.operator), never a user login.
 */
export async function operatorRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const { rooms, playLog } = s;
  const answer = async (stationId: number, refunded: number | null = null) => {
    const [row] = await s.store.query<{ station_status: StationStatus; stock: number }>(
      'SELECT station_status, stock FROM stations WHERE station_id = $1',
      [stationId],
    );
    return {
      station: {
        station_id: stationId,
        station_status: row!.station_status,
        stock: row!.stock,
        refunded_play_id: refunded,
      },
    };
  };

  route.operator(`/${O.stationStatus}`, operatorStationStatusSchema, async (body) =>
    answer(body.station_id, (await rooms.setStationStatus(body.station_id, body.station_status)).refunded_play_id),
  );

  route.operator(`/${O.fault}`, operatorFaultSchema, async (body) =>
    answer(body.station_id, (await rooms.fault(body.station_id)).refunded_play_id),
  );

  route.operator(`/${O.restock}`, operatorRestockSchema, async (body) => {
    await rooms.restock(body.station_id, body.stock);
    return answer(body.station_id);
  });

  route.operator(`/${O.armStrength}`, operatorArmStrengthSchema, async (body) => {
    await rooms.setArmStrength(body.station_id, body.arm_strength);
    return answer(body.station_id);
  });

  route.operator(`/${O.changePrize}`, operatorChangePrizeSchema, async (body) =>
    answer(
      body.station_id,
      (
        await rooms.changePrize(body.station_id, {
          prizeName: body.prize_name,
          prizeShape: body.prize_shape,
          stock: body.stock,
          armStrength: body.arm_strength,
        })
      ).refunded_play_id,
    ),
  );

  route.operator(`/${O.kujiBoxStatus}`, operatorKujiBoxStatusSchema, async (body) => {
    if (body.box_status === 'onSale') await s.kujiDraws.assertCanOpen(body.box_id);
    const box = await s.kujiReservations.setBoxStatus(body.box_id, body.box_status);
    // Opening fixes the ticket order and publishes its commitment; ending publishes the seed.
    await s.store.transaction(async (tx) => {
      if (box.box_status === 'onSale') {
        await s.kujiDraws.ensureOpen(tx, box.box_id);
      } else {
        await s.kujiDraws.reveal(tx, box.box_id);
        // The line of an ended box is over: nobody waits on, or is handed, a box that cannot be drawn.
        await s.kujiDraws.endLine(tx, box.box_id);
      }
    });
    if (KUJI_ENDED_BOX_STATUSES.includes(box.box_status)) s.realtime.kujiBoxEnded(box.kuji_id, box.box_id);
    return { box };
  });

  route.operator(`/${O.kujiBoxStock}`, operatorKujiBoxStockSchema, async (body) => ({
    box: await s.kujiDraws.setStock(body.box_id, body.prizes),
  }));

  route.operator(`/${O.playLog}`, operatorPlayLogSchema, async (body) => ({
    list: await playLog.ofStation(body.station_id ?? null, body.limit ?? 100),
  }));
}
