import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { fusePlugins, inOrder } from '../../src/gateway/hook-fusion';

type AnyPlugin = Plugin<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>>;
type ExecutePayload = Parameters<NonNullable<AnyPlugin['onExecute']>>[0];

/** An onExecute payload as envelop makes it, recording what the fused hook passes on. */
function executePayload() {
  const seen = { executeFn: undefined as unknown, stoppedWith: undefined as unknown };
  const executeFn = (() => ({ data: { from: 'graphql' } })) as unknown as ExecutePayload['executeFn'];
  const payload = {
    executeFn,
    setExecuteFn: (fn: unknown) => (seen.executeFn = fn),
    setResultAndStopExecution: (result: unknown) => (seen.stoppedWith = result),
    context: {},
    extendContext: () => undefined,
    args: {},
  } as unknown as ExecutePayload;
  return { payload, seen, executeFn };
}

describe('hook fusion', () => {
  it('runs members in order, synchronously while none returns a promise', () => {
    const order: number[] = [];
    const ran = inOrder([1, 2, 3], (n) => order.push(n));
    expect(ran).toBeUndefined();
    expect(order).toEqual([1, 2, 3]);
  });

  it('waits for a member that returns a promise before running the next', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran = inOrder(['a', 'b', 'c'], (name) => {
      order.push(name);
      return name === 'a' ? gate : undefined;
    });
    expect(order).toEqual(['a']);
    release();
    await ran;
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('shows each onExecute member the execute function the members before it set, and passes it on', () => {
    const wrapped: unknown[] = [];
    const wrap = (name: string): AnyPlugin =>
      ({
        onExecute({ executeFn, setExecuteFn }) {
          wrapped.push(executeFn);
          setExecuteFn(((args: unknown) => ({ ...(executeFn(args as never) as object), [name]: true })) as typeof executeFn);
        },
      }) as AnyPlugin;
    const [fused] = fusePlugins([wrap('first'), wrap('second')]);
    const { payload, seen, executeFn } = executePayload();
    expect(fused!.onExecute!(payload)).toBeUndefined();
    expect(wrapped[0]).toBe(executeFn);
    expect(wrapped[1]).not.toBe(executeFn);
    expect((seen.executeFn as (a: unknown) => unknown)({})).toEqual({ data: { from: 'graphql' }, first: true, second: true });
  });

  it('runs no onExecute member after one stops execution, and keeps the done hooks of those that ran', () => {
    const calls: string[] = [];
    const plugins: AnyPlugin[] = [
      { onExecute: () => ({ onExecuteDone: () => void calls.push('done 1') }) },
      {
        onExecute: ({ setResultAndStopExecution }) => {
          calls.push('stop');
          setResultAndStopExecution({ data: null });
          return { onExecuteDone: () => void calls.push('done 2') };
        },
      },
      { onExecute: () => void calls.push('never') },
    ];
    const [fused] = fusePlugins(plugins);
    const { payload, seen } = executePayload();
    const after = fused!.onExecute!(payload) as { onExecuteDone: (p: unknown) => unknown };
    expect(calls).toEqual(['stop']);
    expect(seen.stoppedWith).toEqual({ data: null });
    after.onExecuteDone({ args: {}, result: { data: null }, setResult: () => undefined });
    expect(calls).toEqual(['stop', 'done 1', 'done 2']);
  });

  it('hands each onExecuteDone member the result the members before it set, and combines their stream hooks', async () => {
    const ends: string[] = [];
    const plugins: AnyPlugin[] = [
      {
        onExecute: () => ({
          onExecuteDone: ({ result, setResult }) => {
            setResult({ ...(result as object), first: 1 } as never);
            return { onEnd: () => void ends.push('first') };
          },
        }),
      },
      {
        onExecute: async () => ({
          onExecuteDone: async ({ result, setResult }) => {
            setResult({ ...(result as object), second: 2 } as never);
            return {
              onNext: ({ result: event, setResult: setEvent }) => setEvent({ ...(event as object), seen: true } as never),
              onEnd: () => void ends.push('second'),
            };
          },
        }),
      },
    ];
    const [fused] = fusePlugins(plugins);
    const { payload } = executePayload();
    const after = (await fused!.onExecute!(payload)) as { onExecuteDone: (p: unknown) => unknown };
    let final: unknown = { data: {} };
    const hooks = (await after.onExecuteDone({ args: {}, result: final, setResult: (r: unknown) => (final = r) })) as {
      onNext: (p: unknown) => unknown;
      onEnd: () => void;
    };
    expect(final).toEqual({ data: {}, first: 1, second: 2 });
    let event: unknown = { data: { n: 1 } };
    await hooks.onNext({ args: {}, result: event, setResult: (r: unknown) => (event = r) });
    expect(event).toEqual({ data: { n: 1 }, seen: true });
    hooks.onEnd();
    expect(ends).toEqual(['first', 'second']);
  });

  it('stops onRequestParse members at endResponse and shows each the parser set before it', () => {
    const parsers: unknown[] = [];
    const own = () => ({ query: '{ a }' });
    const plugins: AnyPlugin[] = [
      { onRequestParse: ({ setRequestParser }) => setRequestParser(own) },
      {
        onRequestParse: ({ requestParser, endResponse }) => {
          parsers.push(requestParser);
          endResponse(new Response('no'));
        },
      },
      { onRequestParse: () => void parsers.push('never') },
    ];
    const [fused] = fusePlugins(plugins);
    let set: unknown;
    let ended: unknown;
    fused!.onRequestParse!({
      request: new Request('http://x/graphql'),
      url: new URL('http://x/graphql'),
      requestParser: undefined,
      serverContext: {} as never,
      setRequestParser: (p) => (set = p),
      fetchAPI: {} as never,
      endResponse: (r) => (ended = r),
    });
    expect(parsers).toEqual([own]);
    expect(set).toBe(own);
    expect(ended).toBeInstanceOf(Response);
  });

  it('keeps every plugin’s other hooks, and puts the fused hooks first', () => {
    const onSubscribe = () => undefined;
    const onExecute = () => undefined;
    const fused = fusePlugins<AnyPlugin>([{ onExecute }, { onExecute, onSubscribe }, { onParams: () => undefined }]);
    expect(fused).toHaveLength(2);
    expect(Object.keys(fused[0]!).sort()).toEqual(['onExecute', 'onParams']);
    expect(fused[1]).toEqual({ onSubscribe });
  });

  it('answers through yoga as the plugins unfused do', async () => {
    const schema = createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'hi' } } });
    const plugins: AnyPlugin[] = [
      { onParams: ({ params, setParams }) => setParams({ ...params, query: '{ hello }' }) },
      {
        onExecute: ({ executeFn, setExecuteFn }) =>
          setExecuteFn(async (args) => ({ ...((await executeFn(args)) as object), extensions: { wrapped: 1 } })),
      },
      {
        onExecute: () => ({
          onExecuteDone: ({ result, setResult }) => setResult({ ...(result as object), extensions: { done: 2 } } as never),
        }),
      },
      { onResponse: ({ response }) => void response.headers.set('x-seen', 'yes') },
      { onResponse: ({ response }) => void response.headers.set('x-order', response.headers.get('x-seen') ?? 'no') },
    ];
    const answer = async (list: AnyPlugin[]) => {
      const yoga = createYoga({ schema, logging: false, plugins: list });
      const res = await yoga.fetch('http://x/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      return { body: await res.json(), seen: res.headers.get('x-seen'), order: res.headers.get('x-order') };
    };
    const unfused = await answer(plugins);
    expect(unfused).toEqual({ body: { data: { hello: 'hi' }, extensions: { done: 2 } }, seen: 'yes', order: 'yes' });
    expect(await answer(fusePlugins(plugins))).toEqual(unfused);
  });
});
