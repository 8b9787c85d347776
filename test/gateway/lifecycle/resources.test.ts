// The gateway's subsystems as one list (src/gateway/lifecycle/resources.ts): started in the order
// made, drained and then closed in reverse, with the requests in flight settling between the two.
import { describe, expect, it } from 'vitest';
import { type Resource, resources } from '../../../src/gateway/lifecycle/resources';

describe('gateway resources', () => {
  it('start in order, drain in reverse, settle, then close in reverse, skipping what is switched off', async () => {
    const seen: string[] = [];
    const resource = (name: string, drains = false): Resource => ({
      name,
      start: () => void seen.push(`start ${name}`),
      ...(drains ? { drain: () => void seen.push(`drain ${name}`) } : {}),
      close: ({ cut }) => void seen.push(`close ${name} (${cut.length} cut)`),
    });
    const list = resources([resource('store'), undefined, resource('hub', true), false, resource('http', true)]);
    expect(list.names).toEqual(['store', 'hub', 'http']);
    await list.start();
    const outcome = await list.stop(async () => {
      seen.push('settle');
      return { cut: ['GET /graphql'] };
    });
    expect(outcome).toEqual({ cut: ['GET /graphql'] });
    expect(seen).toEqual([
      'start store',
      'start hub',
      'start http',
      'drain http',
      'drain hub',
      'settle',
      'close http (1 cut)',
      'close hub (1 cut)',
      'close store (1 cut)',
    ]);
  });
});
