// The gateway's plugins as yoga runs them: the hooks every request passes through (onRequestParse,
// onParams, onExecute and its onExecuteDone, onResultProcess, onResponse) fused into one hook per
// kind, which calls the plugins' own in their order. Why: yoga and envelop run each plugin's hook
// through a chain of promise-like objects and closures (@whatwg-node/promise-helpers'
// iterateAsync), about ten allocations per hook per request even when the hook does nothing;
// with ~35 such hooks per query that chain was the largest allocation site of the process and a
// tenth of its CPU on a cheap query. A fused hook is a plain loop that stays synchronous while its
// members are, and awaits a member's promise only when one returns one.
//
// What each member sees is what yoga and envelop would have shown it as a plugin of its own: the
// current value of whatever an earlier member replaced (the execute function, the request parser,
// the params, the result), the same setters (also passed on to yoga's), and no further member runs
// once one ended the phase (endResponse, setResultAndStopExecution), as yoga's loop stops there.
// The fused plugin takes the place of the first plugin, and every plugin keeps its other hooks
// where it was: the gateway's plugins are one block of yoga's list, so no hook of another plugin
// runs in between either way. Hooks other than these (onSubscribe, onParse, onValidate, onRequest,
// ...) are left to yoga: per request they are few, or already a plain loop in envelop.
import type { Plugin } from 'graphql-yoga';

type AnyPlugin = Plugin<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>>;
type Hook<K extends keyof AnyPlugin> = NonNullable<AnyPlugin[K]>;
/** What a hook returns besides nothing: the hooks it adds to a later step. */
type Later<F extends (...args: never[]) => unknown> = Exclude<Awaited<ReturnType<F>>, void | undefined>;

type ExecuteDone = NonNullable<Later<Hook<'onExecute'>>['onExecuteDone']>;
type ExecuteDoneResult = Later<ExecuteDone>;
type OnNext = NonNullable<ExecuteDoneResult['onNext']>;
type ParseDone = NonNullable<Later<Hook<'onRequestParse'>>['onRequestParseDone']>;

/** The hooks fused: those every HTTP request or every operation passes through. */
const FUSED = ['onRequestParse', 'onParams', 'onExecute', 'onResultProcess', 'onResponse'] as const;
type FusedKind = (typeof FUSED)[number];

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

// The defaults as constants: a default written as an arrow is a new closure on every call (hot: every request).
const ignoreOutput = (): void => undefined;
const neverStopped = (): boolean => false;

/**
 * Runs `run` on each of `items` in order, handing each output to `take`, until `stopped()`:
 * synchronously while the outputs are plain values, else from the first promise on (awaited).
 */
export function inOrder<T>(
  items: readonly T[],
  run: (item: T) => unknown,
  take: (output: unknown) => void = ignoreOutput,
  stopped: () => boolean = neverStopped,
  from = 0,
): void | Promise<void> {
  for (let i = from; i < items.length && !stopped(); i++) {
    const output = run(items[i]!);
    if (isThenable(output)) {
      return Promise.resolve(output).then((value) => {
        take(value);
        return inOrder(items, run, take, stopped, i + 1);
      });
    }
    take(output);
  }
  return undefined;
}

/** A setter that remembers the value for the members after, and passes it on to yoga's own. */
const relay =
  <A extends unknown[]>(remember: (...args: A) => void, set: (...args: A) => void) =>
  (...args: A): void => {
    remember(...args);
    set(...args);
  };

/** The hooks the members hand on to a later step (`key` of what each returned), in their order. */
function laterHooks<H>(key: string): { hooks: H[]; take: (output: unknown) => void } {
  const hooks: H[] = [];
  return {
    hooks,
    take: (output) => {
      const hook = (output as Record<string, H | undefined> | undefined)?.[key];
      if (hook) hooks.push(hook);
    },
  };
}

/** `then` after `ran`, without a promise when `ran` was synchronous. */
const afterRun = <R>(ran: void | Promise<void>, then: () => R): R | Promise<R> => (ran ? ran.then(then) : then());

function fusedExecuteDone(dones: readonly ExecuteDone[]): ExecuteDone {
  return (payload) => {
    let result = payload.result;
    const setResult = relay((next: typeof result) => (result = next), payload.setResult);
    // Made only when a member hands on a later hook (a stream's): most results are single.
    let nexts: OnNext[] | undefined;
    let ends: (() => void)[] | undefined;
    const ran = inOrder(
      dones,
      (done) => done({ args: payload.args, result, setResult }),
      (output) => {
        const hooks = output as ExecuteDoneResult | undefined;
        if (hooks?.onNext) (nexts ??= []).push(hooks.onNext);
        if (hooks?.onEnd) (ends ??= []).push(hooks.onEnd);
      },
    );
    return afterRun(ran, (): ExecuteDoneResult | undefined => {
      if (!nexts && !ends) return undefined;
      const onEnds = ends;
      return {
        ...(nexts ? { onNext: fusedOnNext(nexts) } : {}),
        ...(onEnds ? { onEnd: () => onEnds.forEach((end) => end()) } : {}),
      };
    });
  };
}

function fusedOnNext(nexts: readonly OnNext[]): OnNext {
  return (payload) => {
    let result = payload.result;
    const setResult = relay((next: typeof result) => (result = next), payload.setResult);
    return inOrder(nexts, (next) => next({ args: payload.args, result, setResult }));
  };
}

const fusers: { [K in FusedKind]: (hooks: Hook<K>[]) => Hook<K> } = {
  onExecute: (hooks) => (payload) => {
    let executeFn = payload.executeFn;
    let stopped = false;
    const setExecuteFn = relay((fn: typeof executeFn) => (executeFn = fn), payload.setExecuteFn);
    const setResultAndStopExecution = relay((_result: unknown) => (stopped = true), payload.setResultAndStopExecution);
    const later = laterHooks<ExecuteDone>('onExecuteDone');
    const ran = inOrder(
      hooks,
      (hook) =>
        hook({
          executeFn,
          setExecuteFn,
          setResultAndStopExecution,
          context: payload.context,
          extendContext: payload.extendContext,
          args: payload.args,
        }),
      later.take,
      () => stopped,
    );
    const dones = later.hooks;
    return afterRun(ran, () =>
      dones.length === 0 ? undefined : { onExecuteDone: dones.length === 1 ? dones[0] : fusedExecuteDone(dones) },
    );
  },

  onRequestParse: (hooks) => (payload) => {
    let requestParser = payload.requestParser;
    let ended = false;
    const setRequestParser = relay((parser: NonNullable<typeof requestParser>) => (requestParser = parser), payload.setRequestParser);
    const endResponse = relay((_response: Response) => (ended = true), payload.endResponse);
    const later = laterHooks<ParseDone>('onRequestParseDone');
    const ran = inOrder(
      hooks,
      (hook) =>
        hook({
          request: payload.request,
          url: payload.url,
          requestParser,
          serverContext: payload.serverContext,
          setRequestParser,
          fetchAPI: payload.fetchAPI,
          endResponse,
        }),
      later.take,
      () => ended,
    );
    const dones = later.hooks;
    return afterRun(ran, () => {
      if (dones.length === 0) return undefined;
      if (dones.length === 1) return { onRequestParseDone: dones[0] };
      const onRequestParseDone: ParseDone = (done) => {
        let requestParserResult = done.requestParserResult;
        const setRequestParserResult = relay(
          (next: typeof requestParserResult) => (requestParserResult = next),
          done.setRequestParserResult,
        );
        return inOrder(dones, (hook) => hook({ requestParserResult, setRequestParserResult }));
      };
      return { onRequestParseDone };
    });
  },

  onParams: (hooks) => (payload) => {
    let { params, paramsHandler } = payload;
    const setParams = relay((next: typeof params) => (params = next), payload.setParams);
    const setParamsHandler = relay((next: typeof paramsHandler) => (paramsHandler = next), payload.setParamsHandler);
    // Yoga's loop does not stop at setResult: every hook runs.
    return inOrder(hooks, (hook) =>
      hook({
        request: payload.request,
        params,
        setParams,
        paramsHandler,
        setParamsHandler,
        setResult: payload.setResult,
        fetchAPI: payload.fetchAPI,
        context: payload.context,
      }),
    );
  },

  onResultProcess: (hooks) => (payload) => {
    let { result, resultProcessor } = payload;
    const setResult = relay((next: typeof result) => (result = next), payload.setResult);
    const setResultProcessor = relay(
      (processor: NonNullable<typeof resultProcessor>, _mediaType: string) => (resultProcessor = processor),
      payload.setResultProcessor,
    );
    return inOrder(hooks, (hook) =>
      hook({
        request: payload.request,
        result,
        setResult,
        resultProcessor,
        // The same array: each hook adds the media types it could answer with.
        acceptableMediaTypes: payload.acceptableMediaTypes,
        setResultProcessor,
        serverContext: payload.serverContext,
      }),
    );
  },

  onResponse: (hooks) => (payload) => {
    let response = payload.response;
    const setResponse = relay((next: Response) => (response = next), payload.setResponse);
    return inOrder(hooks, (hook) =>
      hook({ request: payload.request, serverContext: payload.serverContext, response, setResponse, fetchAPI: payload.fetchAPI }),
    );
  },
};

/**
 * The plugins with their per-request hooks fused (see the top of this file): one plugin holding
 * the fused hooks first, then each plugin with what remains of it (none left out that had more).
 */
export function fusePlugins<P extends AnyPlugin>(plugins: readonly P[]): P[] {
  const fused: Record<string, unknown> = {};
  for (const kind of FUSED) {
    const hooks = plugins.flatMap((plugin) => (plugin[kind] ? [plugin[kind]] : [])) as Hook<typeof kind>[];
    if (hooks.length === 1) fused[kind] = hooks[0];
    else if (hooks.length > 1) fused[kind] = (fusers[kind] as (hooks: unknown[]) => unknown)(hooks);
  }
  const rest = plugins.flatMap((plugin) => {
    const kept = Object.fromEntries(Object.entries(plugin).filter(([key]) => !(FUSED as readonly string[]).includes(key)));
    return Object.keys(kept).length > 0 ? [kept as P] : [];
  });
  return Object.keys(fused).length > 0 ? [fused as P, ...rest] : rest;
}
