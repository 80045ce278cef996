import { TestPatternPublisher } from './whip-test-publisher';
import type { TestServer } from './test-server';

/**
 * Station cameras for tests that watch video: a station key issued for the stations (as an operator
 * issues one to their agent), and a test pattern published over WHIP per camera on request (the
 * server draws no picture of its own: a camera nobody publishes is dark). Every publisher is
 * stopped by `stopAll()` (call it after each test, before checking that nothing is left).
 */
export class TestCameras {
  private readonly publishers: TestPatternPublisher[] = [];

  private constructor(
    private readonly t: Pick<TestServer, 'origin'>,
    /** The stations' key (Bearer for WHIP). */
    readonly key: string,
  ) {}

  /** Issues a key for `stationIds` on a listening test server. */
  static async issue(t: Pick<TestServer, 'origin' | 'server'>, stationIds: readonly number[]): Promise<TestCameras> {
    if (!t.origin) throw new Error('TestCameras needs a listening test server (listen: true)');
    const { key } = await t.server.services().stationKeys.issue({
      name: 'test cameras',
      stationIds: [...stationIds],
      by: 'test',
    });
    return new TestCameras(t, key);
  }

  /** The WHIP endpoint of a station's camera. */
  endpoint(stationId: number, camera: 'front' | 'side' = 'front'): string {
    return `${this.t.origin}/whip/${stationId}/${camera}`;
  }

  /** Publishes ffmpeg's moving test pattern (VP8 unless told) on the camera until `stopAll()`. */
  async publish(
    stationId: number,
    camera: 'front' | 'side' = 'front',
    options: Parameters<typeof TestPatternPublisher.start>[2] = {},
  ): Promise<TestPatternPublisher> {
    const publisher = await TestPatternPublisher.start(this.endpoint(stationId, camera), this.key, options);
    this.publishers.push(publisher);
    return publisher;
  }

  /** Ends every publisher this test started (DELETE, encoder killed). */
  async stopAll(): Promise<void> {
    await Promise.all(this.publishers.splice(0).map((publisher) => publisher.stop()));
  }
}
