// `npm run emulator [-- --seed]`: the local IM service alone, for client developers who want
// the raw REST interface.
import { randomBytes } from 'node:crypto';
import { ConfigError, loadEmulatorConfig } from '../config';
import { createLogger, log, setLogger } from '../log/logger';
import { createEmulator } from './index';
import { seedDemo } from './seed';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  setLogger(createLogger({ level: config.logLevel }));
  const adminToken = config.adminToken ?? randomBytes(18).toString('base64url');
  const emulator = createEmulator({
    adminToken,
    appId: config.appId,
    host: config.host,
    port: config.port,
    ...(config.callbacks ? { callbacks: config.callbacks } : {}),
  });
  const url = await emulator.start();
  log().info({ url, app_id: config.appId }, `IM emulator   ${url}   app_id ${config.appId}`);
  if (config.callbacks) log().info(`callbacks     ${config.callbacks.urls.join(', ')}`);
  // Generated for this run and needed by whoever tries the emulator: shown in the message, not as a field.
  log().info(`admin token   ${config.adminToken ? '(from IM_ADMIN_TOKEN)' : adminToken}`);
  if (process.argv.includes('--seed')) {
    const demo = await seedDemo(url, config.appId, adminToken);
    log().info(`demo users    ${demo.users.map((u) => `${u.username} (id ${u.id})`).join(', ')}; password ${demo.password}`);
    log().info(`demo group    ${demo.groupId}`);
  }
  const stop = () =>
    void emulator.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log().error({ err }, 'emulator: stopping failed');
        process.exit(1);
      },
    );
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  // Before the logger is configured (LOG_LEVEL may be the bad value): one plain line.
  if (err instanceof ConfigError) process.stderr.write(`Configuration error: ${err.message}\n`);
  else log().fatal({ err }, 'emulator: cannot start');
  process.exit(1);
});
