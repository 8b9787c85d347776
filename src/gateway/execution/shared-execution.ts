// Identical queries in flight run once. A query whose parsed document (yoga's parse cache hands
// out one object per text), operation name, variables, identity (its text: app, token, user and
// group, src/identity.ts; not digested, since the key lives only while the execution runs) and ID format match one that is executing waits for it and answers its result. A burst of the
// same screen's query (a chat app's home after a push, many tabs of one user) then costs one
// execution, where coalescing (src/rest/coalesce.ts) spared only the REST calls.
// Nothing is kept once the execution ends: this is not a cache. Every request still passes its own
// limits (rate, cost, depth) before execution, and its own hooks after it: each gets a copy of the
// result's top level to set its own errors or extensions on (they never change the data in place).
// Never shared: mutations, subscriptions, @defer/@stream answers, and a synchronous execution
// (nothing to wait for). A query that starts after a mutation started or ended never joins one that
// started before (read your writes): each mutation's start and end tick the write clock that REST
// coalescing shares (rest/write-clock.ts), and the clock's time is part of the key.
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import type { WriteClock } from '../../rest/write-clock';
import { usesIncrementalDelivery } from './incremental';

interface SharingOptions {
  /** Read your writes: ticked by each mutation's start and end, shared with REST coalescing. */
  writes: WriteClock;
  /** Each request answered by another's execution (metrics). */
  onShared?: () => void;
}

const SEP = '\u0000';

/** How an operation runs: shared with identical ones, alone, or alone and starting a new epoch (a mutation). */
type Kind = 'shared' | 'alone' | 'write';

/** Which executions may be shared: same time on the write clock, operation, identity, ID format and variables. */
export function executionKey(args: ExecutionArgs, epoch: number): string {
  const { identity, idFormat } = args.contextValue as GatewayContext;
  const variables = args.variableValues ? JSON.stringify(args.variableValues) : '';
  return [epoch, args.operationName ?? '', identity.text, idFormat, variables].join(SEP);
}

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as Promise<unknown> | null)?.then === 'function';
const copyOf = (result: ExecutionResult): ExecutionResult => ({ ...result });

export function useSharedExecution({ writes, onShared }: SharingOptions): Plugin {
  /** Per document and operation name: whether it is a query answered in one payload (else a mutation, say). */
  const shareable = new WeakMap<DocumentNode, Map<string, Kind>>();
  const newEpoch = () => writes.tick();
  const running = new WeakMap<DocumentNode, Map<string, Promise<ExecutionResult>>>();

  const kindOf = (args: ExecutionArgs): Kind => {
    let byName = shareable.get(args.document);
    if (!byName) shareable.set(args.document, (byName = new Map()));
    const name = args.operationName ?? '';
    let known = byName.get(name);
    if (known === undefined) {
      const type = getOperationAST(args.document, args.operationName)?.operation;
      known = type === 'mutation' ? 'write' : type === 'query' && !usesIncrementalDelivery(args.document) ? 'shared' : 'alone';
      byName.set(name, known);
    }
    return known;
  };

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const kind = kindOf(args);
      if (kind === 'write') {
        newEpoch();
        return { onExecuteDone: newEpoch };
      }
      if (kind === 'alone') return;
      const key = executionKey(args, writes.now);
      setExecuteFn((execution: ExecutionArgs) => {
        let inFlight = running.get(execution.document);
        const earlier = inFlight?.get(key);
        if (earlier) {
          onShared?.();
          return earlier.then(copyOf);
        }
        const result = executeFn(execution);
        if (!isPromise(result)) return result;
        const shared = result as Promise<ExecutionResult>;
        if (!inFlight) running.set(execution.document, (inFlight = new Map()));
        const entries = inFlight;
        entries.set(key, shared);
        const forget = () => {
          if (entries.get(key) === shared) entries.delete(key);
        };
        shared.then(forget, forget);
        return shared.then(copyOf);
      });
    },
  };
}
