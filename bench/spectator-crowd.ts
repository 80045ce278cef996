/**
 * A share of bench/spectators.ts's simulated players in a process of its own, so that a thousand of
 * them can use a second core (a player's requests cost this side about as much as nginx's answers).
 * Started with an IPC channel, it says `{ type: 'ready' }`; then `{ type: 'start', url, count, rampMs }` starts `count` players
 * joining over `rampMs`; `{ type: 'stop' }` stops them, and once all have ended it answers
 * `{ type: 'result', … }` and exits.
 */
import { Agent } from 'node:http';
import { LlHlsClient } from '../test/support/ll-hls-client';

export type CrowdMessage =
  | { readonly type: 'start'; readonly url: string; readonly count: number; readonly rampMs: number }
  | { readonly type: 'stop' };

export interface CrowdResult {
  readonly type: 'result';
  readonly requests: number;
  readonly failures: readonly string[];
  readonly received: readonly number[];
}

const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
let clients: LlHlsClient[] = [];
let runs: Promise<void>[] = [];

process.on('message', (message: CrowdMessage) => {
  if (message.type === 'start') {
    clients = Array.from({ length: message.count }, () => new LlHlsClient(message.url, agent));
    runs = clients.map(async (client, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * message.rampMs) / message.count));
      await client.run();
    });
  } else {
    for (const client of clients) client.stop();
    void Promise.all(runs).then(() => {
      agent.destroy();
      const result: CrowdResult = {
        type: 'result',
        requests: clients.reduce((sum, c) => sum + c.requests, 0),
        failures: clients.flatMap((c) => c.failures),
        received: clients.map((c) => c.received.length),
      };
      process.send!(result, () => process.exit(0));
    });
  }
});
process.send!({ type: 'ready' });
