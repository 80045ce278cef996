import fastifyCompress from '@fastify/compress';
import fp from 'fastify-plugin';
import { constants as zlib } from 'node:zlib';
import type { ServerConfig } from '../config';
import { ERROR_INFO, replyError } from '../http/reply';
import { registerPartnerCors, registerSecurityHeaders } from '../http/security-headers';

/**
 * What every answer of the server goes through: strict security headers (the page's inlined
 * stylesheet allowed by its hashes), the partner origins' CORS (ALLOWED_ORIGINS), compression, and the error handler that answers bad input
 * with a 4xx in Japanese, never a 5xx.
 */
export const httpPlugin = fp<{ config: ServerConfig; styleHashes: readonly string[] }>(
  async (app, { config, styleHashes }) => {
    await registerSecurityHeaders(app, config, [...styleHashes]);
    await registerPartnerCors(app, config);
    // gzip, deflate or br as the client accepts (spec §7), for answers over 1 KiB. Brotli at
    // quality 4: close to gzip's speed with smaller output; the default (11) costs far too much CPU.
    await app.register(fastifyCompress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip', 'deflate'],
      brotliOptions: { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    });
    app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 413) return replyError(reply, 413);
      if (status === 415) return replyError(reply, 415);
      if (status === 429) return replyError(reply, 429);
      if (status >= 400 && status < 500) return replyError(reply, 400);
      // A PostgreSQL data exception (class 22: out-of-range number, invalid text, bad byte sequence)
      // is input the schemas let through, not a server fault: the client gets a 400, and we log it.
      if (typeof error.code === 'string' && /^22[0-9A-Z]{3}$/.test(error.code)) {
        request.log.warn({ err: error }, 'data exception from input');
        return replyError(reply, 400);
      }
      request.log.error({ err: error }, 'unhandled error');
      return replyError(reply, 500, ERROR_INFO[500]);
    });
  },
);
