// The shipped deployment trusts X-Forwarded-For from its proxy alone (issue 40): a range of
// private addresses would let any client inside it name its own address and slip past the rate
// limit. deploy/gateway.env's TRUSTED_PROXIES is single addresses, and the one it names is the
// address compose.yaml fixes for nginx.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

it("deploy/gateway.env trusts nginx's own address and no range", () => {
  const line = /^TRUSTED_PROXIES=(.*)$/m.exec(read('deploy/gateway.env'))?.[1];
  expect(line).toBeDefined();
  const entries = line!.split(',').map((e) => e.trim());
  for (const entry of entries) expect(entry, entry).toMatch(/^\d{1,3}(\.\d{1,3}){3}(\/32)?$/);
  const nginx = /nginx:[\s\S]*?ipv4_address:\s*([\d.]+)/.exec(read('compose.yaml'))?.[1];
  expect(entries.map((e) => e.replace(/\/32$/, ''))).toEqual([nginx]);
});
