import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/agent-process';
import { usePostgresCluster } from '../support/postgres-cluster';
import { RtcViewer } from '../support/rtc-viewer';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';
import { TestPatternPublisher } from '../support/whip-test-publisher';

/*
 * Two instances on one PostgreSQL database: A runs the station rooms (and so their cameras), B is
 * its standby. A camera publishing to B — the address a load balancer happened to give it — has
 * its WHIP calls forwarded to A, where the camera's channel is; a viewer on B reaches it the same
 * way; the console asking B sees the camera on A [R11-4]. Real clock: each wait is on a condition.
 */

const postgres = usePostgresCluster();
const OPERATOR_TOKEN = 'whip-cluster-operator-token-0123456789';
let a: TestServer;
let b: TestServer;
let stationId: number;
let key: string;
const opened: { close(): unknown }[] = [];
const publishers: TestPatternPublisher[] = [];

beforeAll(async () => {
  const url = await postgres.cluster.seededDatabase();
  a = await startTestServer({ listen: true, databaseUrl: url });
  b = await startTestServer({
    listen: true,
    databaseUrl: url,
    standby: true,
    env: { ONKURE_OPERATOR_TOKEN: OPERATOR_TOKEN },
  });
  b.server.io.on('ping' as never, ((ack: (v: number) => void) => ack(1)) as never);
  a.server.io.on('ping' as never, ((ack: (v: number) => void) => ack(1)) as never);
  await waitFor(
    'A and B answering each other across the adapter',
    async () =>
      (await a.server.io.serverSideEmitWithAck('ping' as never).then((r: unknown[]) => r.length)) +
      (await b.server.io.serverSideEmitWithAck('ping' as never).then((r: unknown[]) => r.length)),
    (n) => n === 2,
    15_000,
    100,
  );
  ({ station_id: stationId } = await playableStation(a));
  ({ key } = await a.server
    .services()
    .stationKeys.issue({ name: 'cluster camera', stationIds: [stationId], by: 'test' }));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
  await Promise.all(publishers.splice(0).map((p) => p.stop()));
});

afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('[R11-4] a camera publishing to any instance reaches the station’s owner', () => {
  it('WHIP to the standby is forwarded to the instance running the station: its viewers (on either instance) get the video, the console on the standby sees it, DELETE through the standby ends it', async () => {
    const publisher = await TestPatternPublisher.start(`${b.origin}/whip/${stationId}/front`, key);
    publishers.push(publisher);
    // The session lives where the station runs; its resource address is the same on any instance.
    expect(publisher.session.resource.origin).toBe(b.origin);
    expect(a.server.services().ingest.count).toBe(1);
    expect(b.server.services().ingest.count).toBe(0);
    const viewer = await RtcViewer.connect(
      `${b.origin.replace('http', 'ws')}/signaling?s=${stationId}`,
      `station-${stationId}-front`,
    );
    opened.push(viewer);
    await waitFor(
      'the viewer on B gets the video from A',
      () => viewer.frames,
      (n) => n > 30 && viewer.keyframes > 0,
      15_000,
    );
    const cameras = async () => {
      const view = await b.server.app.inject({
        method: 'POST',
        url: '/api/operator/station_cameras',
        headers: { 'x-operator-authorization': `Bearer ${OPERATOR_TOKEN}` },
        payload: {},
      });
      expect(view.statusCode, view.body).toBe(200);
      return (view.json() as { cameras: { station_id: number; camera: string; publishing: boolean; codec: string }[] })
        .cameras;
    };
    await waitFor(
      'the console asking B sees the camera on A publishing',
      cameras,
      (list) =>
        list.some((c) => c.station_id === stationId && c.camera === 'front' && c.publishing && c.codec === 'VP8'),
      10_000,
    );
    const deleted = await fetch(publisher.session.resource, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.status).toBe(200);
    expect(a.server.services().ingest.count).toBe(0);
  });
});
