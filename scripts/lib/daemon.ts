import { existsSync } from 'node:fs';
import { connect } from 'node:net';

/** The first of Debian's usual paths for a daemon's binary that exists, or a clear error. */
export function daemonBinary(name: string, paths: readonly string[]): string {
  for (const path of paths) if (existsSync(path)) return path;
  throw new Error(`${name} is not installed: apt-get install ${name} (.ci/run installs it).`);
}

/** Whether something accepts connections on the loopback port now. */
export const accepts = (port: number): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
