import { createPageRenderer } from '../src/main/server-render';
import { createOnkureServer } from './app';
import { provisionDemoAgent } from './agent/demo-agent';
import { readServerConfig, ServerConfigError } from './config';
import { DataDirLockedError } from './store/data-dir-lock';

/**
 * A server started for a test (test/support/server-process.ts) gets ONKURE_EXIT_WITH_PARENT=1 and a
 * pipe on its stdin: when the process that started it ends, however it ends (a test worker killed
 * mid-run), the pipe closes and the server stops too, so none outlives the run. Anything else
 * (`npm start`, a deployment) leaves stdin alone.
 */
function exitWithParent(stop: () => void): void {
  if (process.env.ONKURE_EXIT_WITH_PARENT !== '1') return;
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}

/** Starts the reference server from the environment (see README). */
async function main(): Promise<void> {
  let server: ReturnType<typeof createOnkureServer> | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server?.close();
    process.exit(0);
  };
  exitWithParent(() => void stop());
  let config;
  try {
    config = readServerConfig();
  } catch (error) {
    if (error instanceof ServerConfigError) {
      console.error(`onkure: server start stopped. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  try {
    server = createOnkureServer(config, { renderPages: createPageRenderer });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`onkure: server start stopped. ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const address = await server.app.listen({ port: config.port, host: config.host });
  await server.ready;
  const shown = address.replace('127.0.0.1', 'localhost').replace('[::1]', 'localhost');
  const video = server.services().rtcFeed;
  if (video.ffmpegProblem)
    console.warn(
      `onkure: no stills, no H.264 cameras and no play clips (${video.ffmpegProblem}); VP8 cameras are forwarded as they come`,
    );
  const feed = config.feed.mode === 'rtc' ? 'rtc video' : 'jpg stills';
  console.log(
    `onkure (${config.target}) is running at ${shown}/  —  store: ${config.databaseUrl ? `PostgreSQL (${new URL(config.databaseUrl).host})` : (config.dataDir ?? 'in memory')}, live feed: ${feed}`,
  );
  if (config.demoAgentDir) {
    // Development only (server/config.ts): the launcher starts the sim agent from the files written here.
    const demo = await provisionDemoAgent(server.services(), {
      dir: config.demoAgentDir,
      serverUrl: config.demoAgentServer ?? address.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:'),
    });
    console.log(`onkure: stations ${demo.stationIds.join(', ')} are driven by the demo's sim agent`);
  }
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

void main().catch((error: unknown) => {
  console.error('onkure: server failed to start', error);
  process.exit(1);
});
