// `npm run emulator -- --seed`: the emulator alone, printing how to use it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port';
import { waitForLine } from '../helpers/wait-for-line';

describe('emulator command', () => {
  it('prints the admin token and the demo users it created, and serves them', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/main.ts', '--seed'], {
      env: { ...process.env, EMULATOR_PORT: String(port), IM_ADMIN_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const out = await waitForLine(child, /demo group/);
      const token = out.match(/admin token\s+([\w-]+)/)?.[1]; // a JSON log line: the token ends at its quote
      expect(token).toMatch(/^[\w-]{20,}$/);
      expect(out).toMatch(/demo users\s+alice \(id \d+\), bob \(id \d+\), carol \(id \d+\), dave \(id \d+\); password demo-password/);
      const aliceId = out.match(/alice \(id (\d+)\)/)?.[1];
      const res = await fetch(`http://127.0.0.1:${port}/user/profile`, {
        headers: { app_id: 'im-demo', 'access-token': token!, user_id: aliceId! },
      });
      expect(await res.json()).toMatchObject({ code: 200, data: { username: 'alice', nick_name: 'Alice' } });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
