import { Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  CameraPublishing,
  type CameraPublishEvent,
  type CameraPublisherPort,
  type CameraPublishTarget,
} from '../../src/application/camera';

/** The publisher port as the test scripts it: each publish is a subject the test drives. */
function scriptedPublisher() {
  const published: { target: CameraPublishTarget; events: Subject<CameraPublishEvent>; ended: boolean }[] = [];
  const port: CameraPublisherPort = {
    publish: (target) =>
      new Observable<CameraPublishEvent>((subscriber) => {
        const run = { target, events: new Subject<CameraPublishEvent>(), ended: false };
        published.push(run);
        const inner = run.events.subscribe(subscriber);
        return () => {
          run.ended = true;
          inner.unsubscribe();
        };
      }),
  };
  return { port, published };
}

describe('CameraPublishing (the camera page)', () => {
  const KEY = `onk_sk_abcdefghijkl_${'A'.repeat(43)}`;

  it('checks the station id and the key’s shape before opening anything', () => {
    const s = scriptedPublisher();
    const publishing = new CameraPublishing(s.port);
    expect(publishing.start({ stationId: '12a', camera: 'front', key: KEY })).toBe(false);
    expect(publishing.snapshot).toMatchObject({ phase: 'failed', failure: 'invalid-station' });
    expect(publishing.start({ stationId: '12', camera: 'side', key: 'onk_sk_short' })).toBe(false);
    expect(publishing.snapshot).toMatchObject({ phase: 'failed', failure: 'invalid-key', camera: 'side' });
    expect(s.published).toHaveLength(0);
  });

  it('follows the publication: preview, connecting, publishing with its numbers; stop ends it', () => {
    const s = scriptedPublisher();
    const publishing = new CameraPublishing(s.port);
    expect(publishing.start({ stationId: ' 12 ', camera: 'front', key: ` ${KEY} ` })).toBe(true);
    expect(s.published[0]!.target).toEqual({ stationId: 12, camera: 'front', key: KEY });
    expect(publishing.snapshot.phase).toBe('starting');
    const run = s.published[0]!.events;
    run.next({ type: 'preview', stream: 'stream', label: 'Back Camera' });
    expect(publishing.snapshot).toMatchObject({ phase: 'connecting', preview: 'stream', deviceLabel: 'Back Camera' });
    run.next({ type: 'connection', state: 'connected' });
    run.next({ type: 'stats', kbps: 812, fps: 30, codec: 'VP8', width: 640, height: 480 });
    expect(publishing.snapshot).toMatchObject({
      phase: 'publishing',
      kbps: 812,
      fps: 30,
      codec: 'VP8',
      size: { width: 640, height: 480 },
    });
    run.next({ type: 'connection', state: 'disconnected' });
    expect(publishing.snapshot.phase).toBe('interrupted');
    publishing.stop();
    expect(s.published[0]!.ended).toBe(true);
    expect(publishing.snapshot).toMatchObject({ phase: 'idle', preview: null, stationId: 12 });
  });

  it('a refusal ends the publication with its reason and what the endpoint said', () => {
    const s = scriptedPublisher();
    const publishing = new CameraPublishing(s.port);
    publishing.start({ stationId: '3', camera: 'front', key: KEY });
    s.published[0]!.events.next({ type: 'failed', failure: 'refused', info: 'HTTP 400' });
    expect(publishing.snapshot).toMatchObject({
      phase: 'failed',
      failure: 'refused',
      failureInfo: 'HTTP 400',
      preview: null,
    });
    // Starting again starts a new publication.
    publishing.start({ stationId: '3', camera: 'front', key: KEY });
    expect(s.published).toHaveLength(2);
    expect(publishing.snapshot.phase).toBe('starting');
  });
});
