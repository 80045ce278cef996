import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { CameraPainter } from '../../media/cameras/camera-painter';
import { renderPixels, VIDEO_PICTURE_BYTES, type CameraScene } from '../../media/cameras/camera-renderer';
import { layPrizes } from '../../src/domain/play/crane-machine';

const scene = (x: number): CameraScene => ({
  x,
  z: 100,
  h: 0,
  grip: 0,
  prizes: layPrizes(1, 3),
  carryingPrizeId: null,
  dimmed: false,
});

let painter: CameraPainter | null = null;
afterEach(() => {
  painter?.close();
  painter = null;
});

describe('the camera painter: pictures drawn in a worker thread, off the server event loop', () => {
  it('draws stills (JPEG) and video pictures (I420) in a thread of its own, the same bytes as drawing here', async () => {
    const log: string[] = [];
    painter = new CameraPainter((message) => log.push(message));
    expect(painter.threadId).toBeNull(); // started by the first picture, not before
    const [still, video] = await Promise.all([
      painter.draw('still', 'front', scene(120)),
      painter.draw('video', 'side', scene(120)),
    ]);
    expect(painter.threadId).not.toBeNull();
    expect(painter.threadId).not.toBe(threadId);
    expect(still.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(video.length).toBe(VIDEO_PICTURE_BYTES);
    expect(video.equals(renderPixels('side', scene(120)))).toBe(true);
    expect(painter.drawn).toBe(2);
    expect(log).toEqual([]);
  });

  it('a worker that dies refuses the pictures it was drawing, and the next picture starts a new worker; the process goes on', async () => {
    const log: string[] = [];
    painter = new CameraPainter((message) => log.push(message));
    await painter.draw('video', 'front', scene(100));
    const first = painter.threadId;
    painter.crash();
    // A picture asked for while the worker dies is refused, not left waiting for ever.
    await expect(painter.draw('video', 'front', scene(101))).rejects.toThrow(/camera worker ended/);
    expect(painter.crashes).toBe(1);
    expect(painter.threadId).toBeNull();
    expect(log).toEqual(
      expect.arrayContaining([
        'camera worker failed: camera worker: crash requested',
        'camera worker ended (exit code 1); the next picture starts a new one',
      ]),
    );
    const again = await painter.draw('video', 'front', scene(102));
    expect(again.equals(renderPixels('front', scene(102)))).toBe(true);
    expect(painter.threadId).not.toBeNull();
    expect(painter.threadId).not.toBe(first);
  });

  it('a closed painter refuses pictures and its worker ends', async () => {
    painter = new CameraPainter();
    await painter.draw('still', 'front', scene(90));
    painter.close();
    expect(painter.threadId).toBeNull();
    await expect(painter.draw('still', 'front', scene(91))).rejects.toThrow('closed');
    expect(painter.crashes).toBe(0);
  });

  it('starts its worker whatever Node options started the server (a server run with --input-type and -e)', async () => {
    const code = [
      "import { CameraPainter } from './media/cameras/camera-painter.ts';",
      "import { layPrizes } from './src/domain/play/crane-machine.ts';",
      'const painter = new CameraPainter((m) => console.log(m));',
      'const scene = { x: 100, z: 100, h: 0, grip: 0, prizes: layPrizes(1, 3), carryingPrizeId: null, dimmed: false };',
      "const still = await painter.draw('still', 'front', scene);",
      "console.log('drawn', still.subarray(0, 3).toString('hex'));",
      'painter.close();',
    ].join('\n');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code],
      { cwd: process.cwd(), timeout: 15_000 },
    );
    expect(stdout.trim()).toBe('drawn ffd8ff');
  });
});
