import { createPageRenderer } from '../src/main/server-render';
import { createOnkureServer } from './app';
import { provisionDemoAgent } from './agent/demo-agent';
import { readServerConfig, ServerConfigError } from './config';
import { DataDirLockedError } from './store/data-dir-lock';

/** Starts the reference server from the environment (see README). */
async function main(): Promise<void> {
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
  let server;
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
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main().catch((error: unknown) => {
  console.error('onkure: server failed to start', error);
  process.exit(1);
});
