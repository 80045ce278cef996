import { accepts, daemonBinary } from './daemon';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** An instance behind the load balancer. */
export interface Upstream {
  readonly name: string;
  readonly port: number;
  readonly host?: string;
}

/**
 * HAProxy in front of the instances (docs/deployment.md): round robin with a sticky cookie (socket.io's
 * polling transport needs every request of one socket on one instance; websockets pass through),
 * /healthz checks every second, X-Forwarded-For for the per-client limits (TRUST_PROXY), an
 * X-Request-Id per request for the logs. A request
 * whose connection is refused (an instance just died, before two failed checks mark it down) is
 * retried on another instance (`option redispatch 1`): HAProxy retries only connection failures by
 * default, where nothing reached the instance, so a POST is never sent twice. The live
 * feed needs no route of its own: any instance forwards a station's stills and signaling to the
 * instance running it.
 */
export function haproxyConfig(options: { readonly port: number; readonly upstreams: readonly Upstream[] }): string {
  const servers = options.upstreams
    .map((u) => `  server ${u.name} ${u.host ?? '127.0.0.1'}:${u.port} cookie ${u.name}`)
    .join('\n');
  return `global
  maxconn 8000

defaults
  mode http
  option forwardfor
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-request 10s
  retries 2
  option redispatch 1
  option http-server-close

frontend onkure
  bind 127.0.0.1:${options.port}
  # One id per request, sent to the instance and back to the client: a request's log lines on
  # the instance carry it (docs/operations.md "Logs"). Hex only, so the instances keep it.
  unique-id-format %{+X}o%ci%cp%fi%fp%Ts%rt%pid
  http-request set-header X-Request-Id %[unique-id]
  default_backend instances

backend instances
  balance roundrobin
  cookie ONKURE_INSTANCE insert indirect nocache httponly
  option httpchk GET /healthz
  default-server check inter 1s fall 2 rise 1
${servers}
`;
}

const haproxyBin = () => daemonBinary('haproxy', ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy']);

/** Writes the config to `configPath` and runs HAProxy in the foreground until `stop`. */
export async function startHaproxy(
  configPath: string,
  config: string,
  port: number,
): Promise<{ readonly process: ChildProcess; stop(): Promise<void> }> {
  writeFileSync(configPath, config);
  const child = spawn(haproxyBin(), ['-f', configPath, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  for (let i = 0; !(await accepts(port)); i += 1) {
    if (child.exitCode !== null || i > 200) throw new Error(`haproxy did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
