import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentReporting, spawnStationsAgent, waitFor, type AgentProcess } from '../support/agent-process';
import { RtcViewer } from '../support/rtc-viewer';
import { playableStation } from '../support/stations';
import { startTestServer, type TestServer } from '../support/test-server';

/*
 * The sim agent's cameras (docs/agent-protocol.md "Cameras"): the reference agent as its own process
 * with `cameras: "whip"` paints its station's cameras and publishes the watched ones over WHIP, on
 * the server's lease. A viewer's join and a still's ask make the camera wanted; the agent publishes
 * it, the channel forwards its video to the viewers, and the stills come from its video; a
 * camera nobody watches any more is no longer published. Real clock and processes: every wait is on
 * a condition.
 */

let t: TestServer;
let agent: AgentProcess;
let folder: string;
let stationId: number;
beforeAll(async () => {
  t = await startTestServer({ listen: true, agent: false });
  ({ station_id: stationId } = await playableStation(t));
  folder = await mkdtemp(path.join(tmpdir(), 'onkure-agent-cameras-'));
  agent = await spawnStationsAgent({
    store: t.server.store(),
    server: t.origin,
    folder,
    stationIds: [stationId],
    cameras: true,
  });
  await agentReporting([t.origin], [stationId], agent);
}, 60_000);
afterAll(async () => {
  await agent?.kill();
  await t?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const camera = (name: 'front' | 'side') =>
  t.server
    .services()
    .rtcFeed.cameraStats()
    .find((c) => c.station_id === stationId && c.camera === name);

describe('[R11-4] the sim agent publishes its painted cameras over WHIP while they are watched', () => {
  it('a viewer makes the front camera wanted: the agent publishes it and the viewer plays on from it; nobody watching, it stops', async () => {
    const viewer = await RtcViewer.connect(`${t.origin.replace('http', 'ws')}/signaling`, `station-${stationId}-front`);
    try {
      await waitFor(
        `the agent publishing the front camera (${agent.output().slice(-600)})`,
        () => camera('front'),
        (c) => c?.source === 'whip' && c.publishing && c.codec === 'VP8',
        20_000,
      );
      // The server's painter gave way: no encoder of its own runs for the camera.
      expect(
        t.server
          .services()
          .rtcFeed.status()
          .find((s) => s.stationId === stationId && s.camera === 'front'),
      ).toMatchObject({ source: 'whip' });
      const frames = viewer.frames;
      await waitFor(
        'the viewer keeps getting frames, now the agent’s',
        () => viewer.frames,
        (n) => n > frames + 20,
        10_000,
      );
    } finally {
      await viewer.disconnect();
    }
    await waitFor(
      'the agent stops publishing the camera nobody watches',
      () => t.server.services().ingest.count,
      (n) => n === 0,
      10_000,
    );
  });

  it('stills asked for make the camera wanted: they come from the video the agent publishes', async () => {
    const still = () => fetch(`${t.origin}/api/stations/${stationId}/camera/side.jpg?t=${Date.now()}`);
    await waitFor(
      'the side camera published by the agent',
      async () => {
        await (await still()).arrayBuffer();
        return t.server.services().ingest.count > 0;
      },
      (published) => published,
      20_000,
      250,
    );
    await waitFor(
      'a still made from the video',
      async () => {
        const answer = await still();
        await answer.arrayBuffer();
        return answer.status === 200 && answer.headers.get('content-type') === 'image/jpeg';
      },
      (ok) => ok,
      10_000,
      250,
    );
    expect(t.server.services().stills.running()).toEqual([expect.objectContaining({ stationId, camera: 'side' })]);
  });
});
