import type { FastifyReply } from 'fastify';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** A kept answer's text, and each compressed form once it was asked for. */
export class CompressedText {
  private readonly encoded = new Map<Encoding, Buffer>();

  constructor(readonly text: string) {}

  /** The answer as sent: the text, or its bytes compressed as `encoding` (made on first use; brotli at the server's quality 4). */
  body(encoding: Encoding | null): string | Buffer {
    if (encoding === null) return this.text;
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? brotliCompressSync(this.text, {
              params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 },
            })
          : gzipSync(this.text);
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}

/** The encoding to send for an Accept-Encoding header, as the server's compression prefers (br, then gzip). */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return null;
}

/** Sends a kept text as the client accepts it (br, gzip or plain), with `Vary: Accept-Encoding`. */
export function sendCompressed(
  reply: FastifyReply,
  acceptEncoding: string | undefined,
  text: CompressedText,
  type: string,
): FastifyReply {
  const encoding = preferredEncoding(acceptEncoding);
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.header('Vary', 'Accept-Encoding').type(type).send(text.body(encoding));
}
