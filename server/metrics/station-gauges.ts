import type { Services } from '../services';
import type { ServerMetrics } from './server-metrics';

/** The ways a page shows a station's cameras (docs/spectators.md "Counting spectators"). */
export const STATION_VIEW_KINDS = ['hls', 'rtc', 'jpg'] as const;

/**
 * The gauges read from what this instance holds at each scrape: the stations it runs (their line,
 * their agent, their fault), the pages connected to it (by station and kind), its sockets and agent
 * connections, and the cameras whose video reaches it. A station is reported by the instance that
 * runs it only, so an alert can tell "no agent" from "not here".
 */
export function stationGauges(
  metrics: ServerMetrics,
  services: () => Services | null,
  kinds: typeof STATION_VIEW_KINDS,
): void {
  const running = () => {
    const s = services();
    if (!s) return [];
    return s.rooms.running('station').flatMap((id) => {
      const state = s.rooms.peek('station', id);
      return state ? [{ id, state }] : [];
    });
  };
  metrics.gauge(
    'onkure_station_line_length',
    'Players waiting in a station’s line (behind the turn).',
    ['station_id'],
    () => running().map(({ id, state }) => ({ labels: { station_id: id }, value: state.line.length })),
  );
  metrics.gauge(
    'onkure_station_agent_connected',
    'Whether a station’s agent is connected (1) or not (0), as the room that runs it knows.',
    ['station_id'],
    () => running().map(({ id, state }) => ({ labels: { station_id: id }, value: state.machine.connected ? 1 : 0 })),
  );
  metrics.gauge(
    'onkure_station_in_fault',
    'Whether a station’s machine is in fault or emergency-stopped (1) or not (0).',
    ['station_id'],
    () =>
      running().map(({ id, state }) => ({
        labels: { station_id: id },
        value: state.machine.fault !== null || state.machine.emergencyStopped ? 1 : 0,
      })),
  );
  metrics.gauge(
    'onkure_station_viewers',
    'Pages connected here showing a station, by kind (hls, rtc, jpg).',
    ['station_id', 'kind'],
    () =>
      (services()?.realtime.spectatorsHere() ?? []).flatMap((row) =>
        kinds.map((kind) => ({ labels: { station_id: row.station_id, kind }, value: row[kind] })),
      ),
  );
  metrics.gauge(
    'onkure_station_camera_publishing',
    'Whether a station camera’s video reaches this instance now (1) or not (0), for the cameras it has a channel for.',
    ['station_id', 'camera'],
    () =>
      (services()?.rtcFeed.cameraStats() ?? []).map((c) => ({
        labels: { station_id: c.station_id, camera: c.camera },
        value: c.publishing ? 1 : 0,
      })),
  );
  metrics.gauge(
    'onkure_station_recording_failing',
    'Whether a station camera’s last recording failed or fell short (1) or not (0).',
    ['station_id', 'camera'],
    () =>
      (services()?.rtcFeed.cameraStats() ?? []).map((c) => ({
        labels: { station_id: c.station_id, camera: c.camera },
        value: c.recording_error ? 1 : 0,
      })),
  );
  metrics.gauge('onkure_socket_connections', 'socket.io connections held by this instance.', [], () => {
    const s = services();
    return s ? [{ labels: {}, value: s.realtime.connectionCount() }] : [];
  });
  metrics.gauge('onkure_agent_connections', 'Station agents connected to this instance.', [], () => {
    const s = services();
    return s ? [{ labels: {}, value: s.agents.connections }] : [];
  });
}
