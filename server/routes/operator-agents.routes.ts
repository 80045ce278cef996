import {
  OPERATOR_ENDPOINTS as O,
  operatorStationAgentsSchema,
  operatorStationCamerasSchema,
  operatorStationFeedsSchema,
  operatorStationMachineSchema,
  operatorStationKeyIssueSchema,
  operatorStationKeyRevokeSchema,
  operatorStationKeyRotateSchema,
  operatorStationKeysSchema,
} from '../../src/contract/operator.schema';
import { clipOutcomes, noClipOutcomes } from '../clips/clip-outcomes';
import { rowSubject, type OperatorAccess } from '../http/route';
import { operateStation } from '../http/room-answers';
import { stationAnswer } from '../operator/station-answer';
import type { ApiDeps } from './deps';

/**
 * The station agents' keys in the console (right `machines`, admin only; docs/security.md "Station
 * keys"): list, issue, rotate, revoke. Each change is audited with the key's row before and after
 * (its id, name, stations, times, who made it), never the key nor its hash: the answers that carry
 * the key are not what the audit log records, the subject is.
 */
export async function operatorAgentsRoutes({ route, services: s }: ApiDeps): Promise<void> {
  const keys = s.stationKeys;

  route.operator(`/${O.stationKeys}`, { right: 'machines', read: true }, operatorStationKeysSchema, async () => ({
    keys: await keys.list(),
  }));

  // A new key has no id before the call: the handler notes it against the body, and the audit's
  // "after" reads that row (its "before" is null). Without a subject the audit would copy the answer, key and all.
  const issued = new WeakMap<object, string>();
  const onIssued: OperatorAccess<object> = {
    right: 'machines',
    subject: async (body) => {
      const keyId = issued.get(body);
      return keyId ? keys.entry(keyId) : null;
    },
  };
  route.operator(`/${O.stationKeyIssue}`, onIssued, operatorStationKeyIssueSchema, async (body, { operator }) => {
    const made = await keys.issue({ name: body.name, stationIds: body.station_ids, by: operator.login });
    issued.set(body, made.keyId);
    return { key: made.key, entry: await keys.entry(made.keyId) };
  });

  // A rotation changes the old key (its end, its successor) and makes the successor: both are its subject.
  const onRotated: OperatorAccess<{ key_id: string }> = {
    right: 'machines',
    subject: async (body) => {
      const old = await keys.entry(body.key_id);
      return { key: old, successor: old?.rotated_to ? await keys.entry(old.rotated_to) : null };
    },
  };
  route.operator(`/${O.stationKeyRotate}`, onRotated, operatorStationKeyRotateSchema, async (body, { operator }) => {
    const made = await keys.rotate(body.key_id, {
      by: operator.login,
      ...(body.overlap_minutes === undefined ? {} : { overlapMs: body.overlap_minutes * 60_000 }),
    });
    return { key: made.key, entry: await keys.entry(made.keyId) };
  });

  const onKey: OperatorAccess<{ key_id: string }> = {
    right: 'machines',
    subject: (body) => keys.entry(body.key_id),
  };
  route.operator(`/${O.stationKeyRevoke}`, onKey, operatorStationKeyRevokeSchema, async (body, { operator }) => ({
    entry: await keys.revoke(body.key_id, { by: operator.login }),
  }));

  // ---- the machines (docs/agent-protocol.md) ---------------------------------------------------
  // Every agent, whichever instance it is connected to (an agent holds one connection, to one instance).
  route.operator(`/${O.stationAgents}`, { right: 'floor', read: true }, operatorStationAgentsSchema, async () => ({
    agents: await s.agentViews(),
  }));

  // Each station camera that is published or watched, with its numbers (docs/live-feed.md).
  route.operator(`/${O.stationCameras}`, { right: 'floor', read: true }, operatorStationCamerasSchema, async () => ({
    cameras: await s.cameraViews(),
  }));

  // Per station: the pages showing its cameras by kind (every instance's connections, summed) and
  // its last plays' clips (docs/spectators.md "Counting spectators", docs/clips.md "Console health").
  route.operator(`/${O.stationFeeds}`, { right: 'floor', read: true }, operatorStationFeedsSchema, async () => {
    const [stations, spectators, clips] = await Promise.all([
      s.store.query<{ station_id: number }>('SELECT station_id FROM stations ORDER BY station_id'),
      s.realtime.spectators(),
      clipOutcomes(s.store),
    ]);
    const watched = new Map(spectators.map((row) => [row.station_id, row]));
    return {
      stations: stations.map(({ station_id }) => {
        const seen = watched.get(station_id);
        return {
          station_id,
          spectators: { hls: seen?.hls ?? 0, rtc: seen?.rtc ?? 0, jpg: seen?.jpg ?? 0 },
          clips: clips.get(station_id) ?? noClipOutcomes(),
        };
      }),
    };
  });

  const onMachine = rowSubject<{ station_id: number }>(
    s.store,
    'floor',
    'SELECT station_status, emergency_stopped FROM stations WHERE station_id = $1',
    (body) => body.station_id,
  );
  // The emergency stop goes out to the agent before the play it stops is refunded [R11-3].
  route.operator(`/${O.stationMachine}`, onMachine, operatorStationMachineSchema, async (body) => {
    const event =
      body.action === 'emergency_stop'
        ? ({ type: 'emergencyStop' } as const)
        : body.action === 'resume'
          ? ({ type: 'resumeMachine' } as const)
          : ({ type: 'homeMachine' } as const);
    const operated = await operateStation(s.rooms, body.station_id, event);
    // Every console's floor shows the stop (or its end) at once.
    s.realtime.floorChanged(body.station_id);
    return stationAnswer(s.store, body.station_id, operated.refunded_play_id);
  });
}
