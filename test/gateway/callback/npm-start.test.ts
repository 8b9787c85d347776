// `npm start` with the built-in emulator is push-driven out of the box (issue 41 item 5): the
// emulator's callbacks reach the gateway's callback route with a secret generated for the run.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { metric } from '../../helpers/callbacks';
import { freePort } from '../../helpers/free-port';
import { until } from '../../helpers/wait';
import { waitForLine } from '../../helpers/wait-for-line';

let child: ChildProcess | undefined;
afterAll(async () => {
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((resolve) => child!.once('exit', resolve));
  process.kill(child.pid!, 'SIGTERM');
  await gone;
});

describe('npm start with the emulator in process', () => {
  it("wires the emulator's callbacks to the gateway's route", async () => {
    const [port, emulatorPort] = [await freePort(), await freePort()];
    const adminToken = 'admin-npm-start-callbacks';
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: String(port), EMULATOR_PORT: String(emulatorPort), IM_ADMIN_TOKEN: adminToken, EMULATOR_SEED: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const out = await waitForLine(child, /the emulator calls back every message to/);
    expect(out).toContain(`http://127.0.0.1:${port}/im/callback`);
    // No secret was configured: the route is on with the generated one, and the emulator signs with it.
    const im = `http://127.0.0.1:${emulatorPort}`;
    const rest = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${im}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', app_id: 'im-demo', ...headers },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { code: number; data: Record<string, unknown> };
    };
    const ids: number[] = [];
    for (const name of ['cb_alice', 'cb_bob']) {
      expect((await rest('/user/register/v2', { username: name, password: 'secret-1' })).code).toBe(200);
      ids.push(Number((await rest('/token/user', { name, password: 'secret-1' })).data.user_id));
    }
    const gateway = `http://127.0.0.1:${port}`;
    const before = await metric(gateway, 'im_gateway_callbacks_received_total', 'type="CHAT"');
    const sent = await rest(
      '/message/send',
      { type: 1, targets: [ids[1]], content_type: 0, content: 'hi', from_user_id: ids[0] },
      { 'access-token': adminToken },
    );
    expect(sent.code).toBe(200);
    await until(
      'the callback received by the gateway',
      async () => (await metric(gateway, 'im_gateway_callbacks_received_total', 'type="CHAT"')) === before + 1,
    );
    expect(await metric(gateway, 'im_gateway_callbacks_refused_total', 'reason="signature"')).toBe(0);
  });
});
