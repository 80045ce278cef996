import { KyHttpClient, KyPrizeCatalog, ServiceSignalBus, StoredSession } from '../../src/infrastructure';
import type { AuthIdentity, BuildTarget } from '../../src/domain';

/** The real HTTP adapter stack pointed at a test server, with its session and signal bus. */
export function kyServiceApi(
  apiBase: string,
  opts: { identity?: AuthIdentity; target?: BuildTarget; authorization?: string } = {},
) {
  const session = new StoredSession();
  if (opts.identity) session.signIn(opts.identity);
  const signals = new ServiceSignalBus();
  const http = new KyHttpClient({
    config: { apiBase, authorization: opts.authorization ?? '', timeoutMs: 10_000, retryDelayMs: 0 },
    target: opts.target ?? 'web',
    session,
    signals,
  });
  return { api: new KyPrizeCatalog(http), http, session, signals };
}
