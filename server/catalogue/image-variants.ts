// Before the canvas library loads: its allocator reads its options from the environment then.
import '../../media/cameras/canvas-memory';
import { createCanvas, Image } from '@napi-rs/canvas';
import { LRUCache } from 'lru-cache';
import type { PictureFormat, PictureWidth } from '../../src/domain';
import { SerialQueue } from '../rooms/serial-queue';

/** The stored original of a picture (an SVG for the generated demo artwork), or null. */
export type ImageSource = (key: string) => Promise<{ content_type: string; body: Uint8Array } | null>;

/** Encoder settings, chosen on the demo banners (docs/performance.md): AVIF at speed 6 and quality 50 is ≈ 5 KB at 800 wide. */
const QUALITY = { avif: 50, webp: 80, jpg: 82 } as const;
/** Encoded variants kept in memory (bytes); the least recently used go first. */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * A stored picture drawn at a width and encoded in a raster format (issue 27): a phone gets its
 * lead banner as a small AVIF instead of an SVG it must lay out and paint on its main thread.
 *
 * Pictures are drawn one at a time (drawing is on the event loop; encoding runs on libuv's thread
 * pool), each variant once: a second request for one being drawn waits for it, and the result is
 * kept in a bounded cache. A stored picture never changes under its key, so nothing is invalidated.
 */
export class ImageVariants {
  private readonly cache = new LRUCache<string, Buffer>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
  });
  private readonly drawing = new Map<string, Promise<Buffer | null>>();
  private readonly queue = new SerialQueue();

  constructor(private readonly source: ImageSource) {}

  /** The picture under `key` at `width` in `format`, or null when there is no such picture. */
  async variant(key: string, width: PictureWidth, format: PictureFormat): Promise<Buffer | null> {
    const id = `${key}/${width}/${format}`;
    const cached = this.cache.get(id);
    if (cached) return cached;
    let pending = this.drawing.get(id);
    if (!pending) {
      pending = this.queue
        .run(() => this.draw(key, width, format))
        .then((bytes) => {
          if (bytes) this.cache.set(id, bytes);
          return bytes;
        })
        .finally(() => this.drawing.delete(id));
      this.drawing.set(id, pending);
    }
    return pending;
  }

  private async draw(key: string, width: PictureWidth, format: PictureFormat): Promise<Buffer | null> {
    const original = await this.source(key);
    if (!original) return null;
    const image = new Image();
    image.src = Buffer.from(original.body);
    if (!image.width || !image.height) return null;
    const height = Math.max(1, Math.round((width * image.height) / image.width));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    // JPEG has no transparency: what a transparent picture shows through is the page's white.
    if (format === 'jpg') {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, width, height);
    }
    context.drawImage(image, 0, 0, width, height);
    switch (format) {
      case 'avif':
        return canvas.encode('avif', { quality: QUALITY.avif, speed: 6 });
      case 'webp':
        return canvas.encode('webp', QUALITY.webp);
      case 'jpg':
        return canvas.encode('jpeg', QUALITY.jpg);
    }
  }
}
