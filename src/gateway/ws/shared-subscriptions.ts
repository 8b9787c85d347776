// WebSocket subscribers that run the same operation (same text, variables and operation name)
// for the same identity share one execution: the operation is subscribed once, through yoga's
// envelop like any other, and each of its results goes to every member. A member costs a small
// iterator instead of a pipeline of its own (context, envelop's wrappers, graphql-js's mapped
// iterator, the hub's repeater), which is what lets one process hold 10,000 subscribers. A
// member who joins late gets the latest result at once when the operation's field replays its
// state (`extensions.replaysLatest`, as unreadCounts does), as it would from its own execution.
import { type ExecutionArgs, type ExecutionResult, getOperationAST, GraphQLError } from 'graphql';
import type { Identity } from '../../identity';
import { log } from '../../log/logger';

type Subscribed = AsyncIterable<ExecutionResult> | ExecutionResult;

/** Results a member may have waiting (a client that stopped reading): beyond, it is dropped. */
const BACKLOG = 256;
const TOO_SLOW: ExecutionResult = { errors: [new GraphQLError('The subscriber fell too far behind.')] };

type Run = (args: ExecutionArgs) => Promise<Subscribed> | Subscribed;

export interface SharedSubscriptions {
  /**
   * The operation's results, shared with the subscribers of the same operation and identity
   * (`run` subscribes it for real, once for all of them). graphql-ws keeps `args` while the
   * subscription lasts: their context and enveloped functions are let go once no longer needed.
   */
  subscribe(args: ExecutionArgs, run: Run): Promise<Subscribed> | Subscribed;
  stats(): { executions: number; members: number };
}

export function sharedSubscriptions(): SharedSubscriptions {
  const groups = new Map<string, Group>();
  let members = 0;

  class Group {
    readonly members = new Set<Member>();
    latest: ExecutionResult | undefined;
    /** The real subscription's result once it is known. */
    readonly started: Promise<Subscribed>;
    private source: AsyncIterator<ExecutionResult> | undefined;
    private ended = false;

    constructor(
      private readonly key: string,
      private readonly replay: boolean,
      start: () => Promise<Subscribed> | Subscribed,
    ) {
      this.started = Promise.resolve()
        .then(start)
        .then(
          (subscribed) => {
            if (isAsyncIterable(subscribed)) void this.run(subscribed[Symbol.asyncIterator]());
            else this.end(); // an error before any event: each member gets it as its result
            return subscribed;
          },
          (err: unknown) => {
            this.end();
            throw err;
          },
        );
    }

    private async run(source: AsyncIterator<ExecutionResult>): Promise<void> {
      this.source = source;
      if (this.members.size === 0) return this.stop();
      let failure: unknown;
      try {
        for (;;) {
          const { done, value } = await source.next();
          if (done) break;
          if (this.replay && value.data) this.latest = value;
          for (const m of this.members) m.push(value);
        }
      } catch (err) {
        failure = err ?? new Error('subscription failed');
      }
      this.end();
      for (const m of [...this.members]) m.finish(failure);
    }

    leave(member: Member): void {
      if (!this.members.delete(member)) return;
      members--;
      if (this.members.size === 0) this.stop();
    }

    private stop(): void {
      this.end();
      // Nobody waits for the source to close; a failure to close it (its own cleanup throwing) is
      // logged rather than left an unhandled rejection, which would end the process.
      this.source?.return?.().catch((err: unknown) => log().error({ err }, 'shared subscription: closing its source failed'));
    }

    private end(): void {
      if (this.ended) return;
      this.ended = true;
      if (groups.get(this.key) === this) groups.delete(this.key);
    }
  }

  /** One subscriber's view of its group: an async iterator with a small queue. */
  class Member implements AsyncIterableIterator<ExecutionResult> {
    private queue: ExecutionResult[] | undefined;
    private waiting: { resolve(r: IteratorResult<ExecutionResult>): void; reject(err: unknown): void } | undefined;
    private done = false;
    private failure: unknown;

    constructor(private readonly group: Group) {
      group.members.add(this);
      members++;
      if (group.latest) this.push(group.latest);
    }

    push(result: ExecutionResult): void {
      if (this.done) return;
      const waiting = this.waiting;
      if (waiting) {
        this.waiting = undefined;
        waiting.resolve({ value: result, done: false });
      } else if ((this.queue ??= []).push(result) > BACKLOG) {
        this.queue = [TOO_SLOW];
        this.finish();
      }
    }

    /** No more results: what is queued still goes out, then the end (or the failure). */
    finish(failure?: unknown): void {
      if (this.done) return;
      this.done = true;
      this.failure = failure;
      this.group.leave(this);
      const waiting = this.waiting;
      this.waiting = undefined;
      if (!waiting) return;
      if (failure === undefined) waiting.resolve({ value: undefined, done: true });
      else waiting.reject(failure);
    }

    next(): Promise<IteratorResult<ExecutionResult>> {
      const queued = this.queue?.shift();
      if (queued) return Promise.resolve({ value: queued, done: false });
      if (this.done) {
        const failure = this.failure;
        this.failure = undefined;
        return failure === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(failure);
      }
      return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
    }

    /** Ends this subscriber now: what is queued is dropped. */
    close(): void {
      this.queue = undefined;
      this.finish();
    }

    return(): Promise<IteratorResult<ExecutionResult>> {
      this.close();
      return Promise.resolve({ value: undefined, done: true });
    }

    throw(): Promise<IteratorResult<ExecutionResult>> {
      return this.return();
    }

    [Symbol.asyncIterator](): this {
      return this;
    }
  }

  return {
    subscribe(args, run) {
      const { key, replay } = shareOf(args);
      if (key === undefined) return run(args);
      let group = groups.get(key);
      if (!group) {
        const own = { ...args };
        group = new Group(key, replay, () => run(own));
        groups.set(key, group);
      }
      // The group runs on its own copy: this subscriber's context is garbage from now on.
      args.contextValue = undefined;
      args.rootValue = undefined;
      const member = new Member(group);
      return group.started.then(
        (subscribed) => {
          if (isAsyncIterable(subscribed)) return member;
          member.close();
          return subscribed;
        },
        (err: unknown) => {
          member.close();
          throw err;
        },
      );
    },
    stats: () => ({ executions: groups.size, members }),
  };
}

/**
 * Which subscribers may share an execution: the same identity running the same operation with
 * the same variables and resume positions (and client key, for clients that name one) (key undefined: not shared), and whether its field replays its state.
 */
export function shareOf(args: ExecutionArgs): { key: string | undefined; replay: boolean } {
  const context = args.contextValue as
    | { identity?: Identity; resumeAfter?: unknown; resume?: { key: string; holder: string; from?: string | undefined }; idFormat?: string }
    | undefined;
  const identity = context?.identity;
  const text = args.document.loc?.source.body;
  const operation = getOperationAST(args.document, args.operationName);
  const field = operation?.selectionSet.selections[0];
  if (!identity || text === undefined || operation?.operation !== 'subscription' || field?.kind !== 'Field')
    return { key: undefined, replay: false };
  const definition = args.schema.getSubscriptionType()?.getFields()[field.name.value];
  // A connection that resumes (connectionParams.resumeAfter) starts elsewhere than one that does not.
  const resume = context?.resumeAfter ?? null;
  // One client's retried subscription resumes where its own slot says (resume-on-retry.ts), and
  // each socket of a client key marks its own position: shared within the socket only.
  const slot = context?.resume ? [context.resume.key, context.resume.holder, context.resume.from ?? null] : null;
  const ids = context?.idFormat ?? null;
  const key = `${JSON.stringify([identity.key, args.operationName ?? null, args.variableValues ?? null, resume, ids, slot])}\n${text}`;
  return { key, replay: definition?.extensions.replaysLatest === true };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
