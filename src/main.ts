// `npm start`: configuration → the emulator in process when IM_BASE_URL is unset → the gateway.
// First: the V8 settings, before any other module allocates (runtime-flags.ts).
import './runtime-flags';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from './config';
import { createEmulator, type Emulator } from './emulator';
import { seedDemo } from './emulator/seed';
import { createGateway } from './gateway/create-gateway';
import type { GraphiQLDemo } from './gateway/http/graphiql';
import { createLogger, log, setLogger } from './log/logger';

/** How long stopping may overrun SHUTDOWN_TIMEOUT_MS (closing Redis, the emulator) before the process just exits. */
const STOP_MARGIN_MS = 5_000;

/** `2 × POST /graphql, 1 × GET /files/…` */
function tally(requests: string[]): string {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} × ${r}`).join(', ');
}

/** The gateway's origin as the emulator beside it reaches it: a wildcard address is this host's loopback. */
function loopback(origin: string): string {
  const url = new URL(origin);
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = url.hostname === '0.0.0.0' ? '127.0.0.1' : '[::1]';
  return url.origin;
}

async function main(): Promise<void> {
  const config = loadConfig();
  setLogger(createLogger({ level: config.logLevel }));
  for (const name of config.obsolete) log().warn(`${name} is obsolete and ignored (see CHANGELOG.md)`);
  const stops: (() => Promise<void>)[] = [];
  let imBaseUrl = config.imBaseUrl;
  // The in-process emulator's admin token (given or generated) is the gateway's service credential.
  let imAdminToken = config.imAdminToken;
  let graphiql: GraphiQLDemo = { headers: { app_id: config.imAppId } };
  // With the emulator in process, its message callbacks drive the subscriptions (push, not only polls).
  let callbackSecret = config.callbackSecret;
  let emulator: Emulator | undefined;

  if (!imBaseUrl) {
    const adminToken = config.imAdminToken ?? randomBytes(18).toString('base64url');
    imAdminToken = adminToken;
    callbackSecret ??= config.emulatorCallbackSecret ?? randomBytes(18).toString('base64url');
    emulator = createEmulator({
      adminToken,
      appId: config.imAppId,
      port: config.emulatorPort,
      maxUploadBytes: config.maxUploadBytes,
    });
    imBaseUrl = await emulator.start();
    const started = emulator;
    stops.unshift(() => started.stop());
    log().info({ url: imBaseUrl, app_id: config.imAppId }, `IM emulator   ${imBaseUrl}   app_id ${config.imAppId}`);
    // Generated for this run and needed by whoever tries the emulator: shown in the message, not as a field.
    if (!config.imAdminToken) log().info(`              admin token (generated): ${adminToken}`);
    if (config.emulatorSeed) {
      const demo = await seedDemo(imBaseUrl, config.imAppId, adminToken);
      graphiql = {
        headers: { app_id: config.imAppId, 'access-token': demo.token },
        variables: demo.variables,
        adminHeaders: { app_id: config.imAppId, 'access-token': adminToken },
      };
      log().info(
        `              demo users: ${demo.users.map((u) => u.username).join(', ')} (password ${demo.password}); GraphiQL acts as ${demo.users[0]!.username}`,
      );
    }
  }

  const gateway = createGateway({ ...config, imAdminToken, callbackSecret }, { imBaseUrl, graphiql });
  const url = await gateway.start();
  if (emulator && callbackSecret) {
    // Attached once the gateway listens: the demo data seeded above is history, not news.
    const urls = [`${loopback(url)}${config.callbackPath}`, ...config.emulatorCallbackUrls];
    emulator.callBack({ urls, secret: config.emulatorCallbackSecret ?? callbackSecret, faults: config.emulatorCallbackFaults });
    log().info(`              the emulator calls back every message to ${urls.join(', ')}`);
  }
  log().info(
    { url: `${url}/graphql` },
    `GraphQL       ${url}/graphql   (${config.graphiql ? 'GraphiQL in a browser; ' : ''}WebSocket on the same path)`,
  );
  if (gateway.metricsUrl) log().info({ url: gateway.metricsUrl }, `Metrics       ${gateway.metricsUrl}`);
  if (config.imBaseUrl) log().info({ url: config.imBaseUrl }, `IM service    ${config.imBaseUrl}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    // A second signal: whoever sent it will not wait for the drain.
    if (stopping) {
      log().error(`${signal} while stopping: exiting at once`);
      process.exit(1);
    }
    stopping = true;
    const began = Date.now();
    log().info(`${signal}: stopping (draining for up to ${config.shutdownTimeoutMs} ms)`);
    // Should stopping itself hang past the drain (Redis not answering, say), the process ends anyway.
    const force = setTimeout(() => {
      log().error(`still stopping ${STOP_MARGIN_MS} ms after SHUTDOWN_TIMEOUT_MS: exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs + STOP_MARGIN_MS);
    force.unref();
    void (async () => {
      const { cut } = await gateway.stop(config.shutdownTimeoutMs).catch((err: unknown) => {
        log().error({ err }, 'stop failed');
        return { cut: ['(unknown: the drain failed)'] };
      });
      if (cut.length > 0) {
        log().error(`SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms) passed: cut ${cut.length} request(s) in flight: ${tally(cut)}`);
      } else {
        // The operator's sign that the replica is done and may go.
        log().info(`drain ended: every request in flight answered, every connection closed (${Date.now() - began} ms after ${signal})`);
      }
      for (const stop of stops) await stop().catch((err: unknown) => log().error({ err }, 'stop failed'));
      process.exit(cut.length > 0 ? 1 : 0);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    // Before the logger is configured (LOG_LEVEL may be the bad value): one plain line.
    process.stderr.write(`Configuration error: ${err.message}\n`);
  } else if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
    log().fatal(`Cannot start: ${err.message} (set PORT or EMULATOR_PORT to a free port)`);
  } else {
    log().fatal({ err }, 'Cannot start');
  }
  process.exit(1);
});
