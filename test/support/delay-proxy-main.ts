import { createInterface } from 'node:readline';
import { DelayProxy } from './delay-proxy';

/*
 * The delay proxy as a process of its own, to run inside a network namespace (`ip netns exec`):
 *
 *   node --import tsx test/support/delay-proxy-main.ts <listen host> <target host> <target port>
 *
 * Prints `port <n>` once it listens; each stdin line `delay <ms>` sets the delay and is answered
 * `delay <ms>`. Ends when stdin closes (its parent ended). Inside the namespace, the proxy's own
 * connections to the target cross the namespace's link, so a partition of the link cuts them as it
 * would the client's: the far end's keepalives see the silence (a proxy on the near end would answer
 * them and keep a partitioned client's sessions alive).
 */
const [listenHost, targetHost, targetPort] = process.argv.slice(2);
if (!listenHost || !targetHost || !targetPort) {
  console.error('usage: delay-proxy-main.ts <listen host> <target host> <target port>');
  process.exit(2);
}
const proxy = await DelayProxy.start(listenHost, { host: targetHost, port: Number(targetPort) });
console.log(`port ${proxy.port}`);
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const m = /^delay (\d+)$/.exec(line.trim());
  if (!m) return;
  proxy.setDelay(Number(m[1]));
  console.log(`delay ${m[1]}`);
});
lines.on('close', () => {
  void proxy.close().finally(() => process.exit(0));
});
