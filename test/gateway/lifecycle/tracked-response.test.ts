// The drain's list of responses in flight: responses join as their requests arrive and leave as
// they close (answered or aborted), in any order; the list says when the last one has left.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InFlight, TrackedResponse } from '../../../src/gateway/lifecycle/tracked-response';
import { until } from '../../helpers/wait';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose responses join `list` and are answered only when the test says so. */
async function holdingServer(list: InFlight) {
  const waiting = new Map<string, TrackedResponse>();
  server = createServer({ ServerResponse: TrackedResponse }, (req, res) => {
    list.add(res as TrackedResponse);
    waiting.set(req.url!, res as TrackedResponse);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const ask = (path: string) => {
    const req = request({ port, host: '127.0.0.1', path, agent: false });
    const answered = new Promise<string>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
    });
    req.end();
    return { req, answered };
  };
  return { waiting, ask };
}

describe('InFlight', () => {
  it('holds every response until it closes, in whatever order they close, and calls onIdle once the last has left', async () => {
    let idle = 0;
    const list = new InFlight(() => idle++);
    const { waiting, ask } = await holdingServer(list);
    const asked = ['/a', '/b', '/c'].map(ask);
    await until('three in flight', () => list.size === 3);
    expect(
      list
        .all()
        .map((res) => res.req.url)
        .sort(),
    ).toEqual(['/a', '/b', '/c']);

    // The middle one first, then the newest, then the oldest.
    waiting.get('/b')!.end('b');
    expect(await asked[1]!.answered).toBe('b');
    await until('b gone', () => list.size === 2);
    expect(list.all().map((res) => res.req.url)).not.toContain('/b');
    waiting.get('/c')!.end('c');
    await until('c gone', () => list.size === 1);
    expect(idle).toBe(0);
    waiting.get('/a')!.end('a');
    await until('a gone', () => list.size === 0);
    expect(idle).toBe(1);
    expect(list.all()).toEqual([]);
  });

  it('lets a response whose client went away leave the list', async () => {
    let idle = 0;
    const list = new InFlight(() => idle++);
    const { ask } = await holdingServer(list);
    const { req, answered } = ask('/gone');
    answered.catch(() => {});
    await until('in flight', () => list.size === 1);
    req.destroy();
    await until('gone', () => list.size === 0);
    expect(idle).toBe(1);
  });

  it('takes a response out once however often it closes', () => {
    let idle = 0;
    const list = new InFlight(() => idle++);
    const other = new InFlight(() => {});
    const fake = (name: string) =>
      Object.assign(Object.create(TrackedResponse.prototype) as TrackedResponse, { name, once: () => undefined });
    const [a, b] = [fake('a'), fake('b')];
    for (const res of [a, b]) {
      res.inFlight = res.previous = res.next = undefined;
      list.add(res);
    }
    list.remove(a);
    list.remove(a);
    other.remove(b);
    expect(list.size).toBe(1);
    expect(idle).toBe(0);
    list.remove(b);
    expect(list.size).toBe(0);
    expect(idle).toBe(1);
  });
});
