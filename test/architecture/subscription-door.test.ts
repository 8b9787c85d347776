// One subscription mechanism: the hub serves any field's declaration (a LiveSource beside the
// field in src/schema/<domain>/) through one `subscribe`, and neither the hub nor the context
// knows a field. A new field therefore touches its domain folder alone: shown by the imports, and
// by a source declared here, in a test file, served through the one door.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../src/rest/client';
import { createSubscriptionHub } from '../../src/subscriptions/hub';
import type { LiveSource } from '../../src/subscriptions/live-source';
import { until } from '../helpers/wait';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every src/ file `file` loads, itself included, following relative imports (type-only too). */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/\bfrom\s*'(\.{1,2}\/[^']+)'|\bimport\(\s*'(\.{1,2}\/[^']+)'/g)) {
    const base = path.resolve(path.dirname(file), (m[1] ?? m[2])!);
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
    if (target) reach(target, seen);
  }
  return seen;
}

/** Whether a file declares a field's poll (a Source) or names a subscription field. */
const declaresAField = (text: string) =>
  /export\s+(?:const|function)\s+\w+[^=\n]*(?::|\)\s*:)\s*Source</.test(text) ||
  /\b(unreadCounts|conversationEvents|friendEvents|friendRequestReceived)\b/.test(text);

describe('one subscription door', () => {
  it("the hub and the context reach no field's source and name no field", () => {
    for (const root of ['subscriptions/hub.ts', 'context.ts']) {
      const reached = [...reach(path.join(SRC, root))].map((f) => path.relative(SRC, f));
      expect(reached.filter((f) => f.startsWith('schema/'))).toEqual([]);
      const fieldish = reached.filter(
        (f) => /^(subscriptions\/|context)/.test(f) && declaresAField(readFileSync(path.join(SRC, f), 'utf8')),
      );
      expect(fieldish, `${root} reaches`).toEqual([]);
    }
  });

  it('serves a source declared outside src/subscriptions through the one subscribe, polled once for subscribers of one identity', async () => {
    let rounds = 0;
    const ticks: LiveSource<number[], number> = {
      source: {
        name: 'ticks',
        replay: false,
        poll: (_rest, _caller, state) => {
          rounds++;
          const n = state === undefined ? 0 : Number(state) + 1;
          return Promise.resolve({ state: String(n), ...(n > 0 ? { payload: [n] } : {}) });
        },
      },
      feed: 'polled',
      buffer: 'stream',
      explode: (payload) => payload,
    };
    const hub = createSubscriptionHub({ rest: {} as RestClient, intervalMs: 20 });
    await hub.start();
    const identity = { key: 'test-identity', caller: { token: 't' } };
    const [a, b] = [hub.subscribe(identity, ticks), hub.subscribe(identity, ticks)];
    const first = await Promise.all([a.next(), b.next()]);
    expect(first.map((r) => (r.done ? undefined : r.value))).toEqual([{ value: expect.any(Number) }, { value: expect.any(Number) }]);
    await until('a few rounds', () => rounds >= 3);
    // One topic for both: the rounds are one poll's, not two.
    expect(hub.stats().topics).toBe(1);
    await Promise.all([a.return?.(), b.return?.()]);
    await hub.close();
  });
});
