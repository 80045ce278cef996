/**
 * The camera worker thread (started by CameraPainter): draws the camera pictures off the server's
 * event loop. Each request names the picture (a JPEG still or a raw I420 video picture), the
 * camera and the scene; the answer carries the bytes, moved to the server's thread without a copy
 * where the buffer owns its memory.
 */
import { parentPort } from 'node:worker_threads';
import { renderFrame, renderPixels, type CameraName, type CameraScene } from './camera-renderer';

/** What the server's thread asks for. */
export type PainterRequest =
  | {
      readonly type: 'draw';
      readonly id: number;
      readonly kind: PictureKind;
      readonly camera: CameraName;
      readonly scene: CameraScene;
    }
  /** Tests only: the worker fails the way a native crash or a bug would (an uncaught error ends the thread). */
  | { readonly type: 'crash' };

/** A JPEG still (the jpg feed) or a raw I420 video picture (the encoder's input). */
export type PictureKind = 'still' | 'video';

/** The worker's answer to a draw: the picture, or why it could not be drawn. */
export type PainterAnswer =
  | { readonly id: number; readonly bytes: Uint8Array; readonly ms: number }
  | { readonly id: number; readonly error: string };

const port = parentPort;
if (!port) throw new Error('camera-worker.ts runs as a worker thread (CameraPainter starts it)');

port.on('message', (request: PainterRequest) => {
  // Thrown out of the listener: an uncaught error, which ends the thread before the next message.
  if (request.type === 'crash') throw new Error('camera worker: crash requested');
  const started = performance.now();
  try {
    const drawn =
      request.kind === 'still'
        ? renderFrame(request.camera, request.scene)
        : renderPixels(request.camera, request.scene);
    // The video picture (259 KB, a buffer of its own made by the colour conversion) moves to the
    // other thread as it is; a still (≈ 10 KB in the canvas library's own memory) is copied.
    const owned =
      request.kind === 'video' && drawn.byteOffset === 0 && drawn.byteLength === drawn.buffer.byteLength
        ? new Uint8Array(drawn.buffer as ArrayBuffer, 0, drawn.byteLength)
        : new Uint8Array(drawn);
    const answer: PainterAnswer = { id: request.id, bytes: owned, ms: performance.now() - started };
    port.postMessage(answer, [owned.buffer]);
  } catch (error) {
    const answer: PainterAnswer = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(answer);
  }
});
