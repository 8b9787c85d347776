// The subscription limits at the GraphQL edge: the refusal clients get (SUBSCRIPTION_LIMIT, the
// limit and which one), and the per-identity limit for subscriptions over HTTP (SSE, multipart):
// a slot is taken before the subscription starts (no REST call when refused) and released when
// its stream ends, however it ends. WebSocket subscriptions take theirs in the WebSocket server
// (ws/socket-slots.ts), where each operation counts even when it shares an execution with others;
// their executions are marked so that this plugin does not count them twice.
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import type { SubscriptionSlots } from '../../subscriptions/slots';

export type LimitScope = 'socket' | 'identity';

/** Marks an execution context whose transport holds its subscription slot already. */
export const SLOT_HELD = Symbol('subscription slot held by the transport');

export function subscriptionLimitError(scope: LimitScope, limit: number): GraphQLError {
  const where =
    scope === 'socket' ? 'on one WebSocket (MAX_SUBSCRIPTIONS_PER_SOCKET)' : 'for one identity (MAX_SUBSCRIPTIONS_PER_IDENTITY)';
  return new GraphQLError(`Too many subscriptions: at most ${limit} may be open at once ${where}. End one to start another.`, {
    extensions: { code: 'SUBSCRIPTION_LIMIT', limit, scope },
  });
}

type Subscribed = AsyncIterable<ExecutionResult> | ExecutionResult;

/** The stream, releasing once when it ends: done, returned, thrown or failed. */
export function releasing(source: AsyncIterable<ExecutionResult>, release: () => void): AsyncIterableIterator<ExecutionResult> {
  const it = source[Symbol.asyncIterator]();
  const settle = <R>(step: Promise<IteratorResult<ExecutionResult, R>>) =>
    step.then(
      (r) => {
        if (r.done) release();
        return r;
      },
      (err: unknown) => {
        release();
        throw err;
      },
    );
  return {
    next: () => settle(it.next()),
    return: (value?: unknown) => {
      release();
      return it.return ? it.return(value) : Promise.resolve({ done: true, value: undefined });
    },
    throw: (err?: unknown) => {
      release();
      return it.throw ? it.throw(err) : Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export function useSubscriptionLimits(slots: SubscriptionSlots): Plugin<GatewayContext> {
  return {
    async onSubscribe({ args, subscribeFn, setSubscribeFn, setResultAndStopExecution }) {
      const context = args.contextValue as GatewayContext & { [SLOT_HELD]?: true };
      if (context[SLOT_HELD]) return;
      const admission = await slots.acquire(context.identity);
      if (!admission.admitted) {
        setResultAndStopExecution({ errors: [subscriptionLimitError('identity', admission.limit)] });
        return;
      }
      const { release } = admission;
      let started = false;
      setSubscribeFn(async (subscribeArgs) => {
        started = true;
        let result: Subscribed;
        try {
          result = (await subscribeFn(subscribeArgs)) as Subscribed;
        } catch (err) {
          release();
          throw err;
        }
        if (!(Symbol.asyncIterator in result)) {
          release(); // refused or failed before its first event
          return result;
        }
        return releasing(result, release);
      });
      // A plugin after this one ended the execution with a result of its own: nothing started.
      return {
        onSubscribeResult() {
          if (!started) release();
        },
      };
    },
  };
}
