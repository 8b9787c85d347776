// `npm run emulator [-- --seed]`: the local IM service alone, for client developers who want
// the raw REST interface.
import { randomBytes } from 'node:crypto';
import { ConfigError, loadEmulatorConfig } from '../config';
import { createEmulator } from './index';
import { seedDemo } from './seed';

async function main(): Promise<void> {
  const config = loadEmulatorConfig();
  const adminToken = config.adminToken ?? randomBytes(18).toString('base64url');
  const emulator = createEmulator({ adminToken, appId: config.appId, host: config.host, port: config.port });
  const url = await emulator.start();
  console.log(`IM emulator   ${url}   app_id ${config.appId}`);
  console.log(`admin token   ${config.adminToken ? '(from IM_ADMIN_TOKEN)' : adminToken}`);
  if (process.argv.includes('--seed')) {
    const demo = await seedDemo(url, config.appId, adminToken);
    console.log(`demo users    ${demo.users.map((u) => `${u.username} (id ${u.id})`).join(', ')}; password ${demo.password}`);
    console.log(`demo group    ${demo.groupId}`);
  }
  const stop = () =>
    void emulator.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('emulator: stopping failed:', err);
        process.exit(1);
      },
    );
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err);
  process.exit(1);
});
