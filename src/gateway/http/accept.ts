// The writer of an answer is decided before the operation runs. Yoga picks its result processor
// by the Accept header only once the operation has executed, so an Accept it cannot serve (a
// mutation with `Accept: image/png`, a subscription with `Accept: application/json`) used to run
// the write and then answer 406: the message was sent, and a client retrying the refusal sent it
// twice. This check refuses such a request with 406 before execution, on every transport that
// has an Accept header (graphql-ws has none and is left alone).
//
// It reads Accept as yoga's processors do (graphql-yoga 5.24, pinned): media ranges split on
// commas, white space dropped, any charset but utf-8 skipped, wildcards in the asked type; queries
// and mutations are written as JSON, SSE or multipart, subscriptions as SSE only.
// test/gateway/http/accept-contract.test.ts holds this reading to yoga's own verdicts.
// Two answers are ours, not yoga's: subscriptions as Apollo's multipart (a `multipart/mixed`
// range with `subscriptionSpec=1.0`: multipart-subscriptions.ts), and documents with @defer or
// @stream, which need SSE or multipart; a client that accepts only JSON gets the same document
// without them, in one answer (execution/incremental.ts), rather than a refusal.
import type { ExecutionArgs } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { usesIncrementalDelivery, withoutIncrementalDelivery } from '../execution/incremental';

type Kind = 'single' | 'incremental' | 'stream';

const SINGLE_RESULT_TYPES = ['text/event-stream', 'multipart/mixed', 'application/graphql-response+json', 'application/json'];
const OFFERED: Record<Kind, string[]> = {
  single: SINGLE_RESULT_TYPES,
  incremental: ['text/event-stream', 'multipart/mixed'],
  stream: ['text/event-stream', 'multipart/mixed;subscriptionSpec=1.0'],
};

/** The media ranges an Accept header asks for, as yoga reads them (no header: any), with their parameters. */
function askedRanges(accept: string | null): { type: string; params: string[] }[] {
  return (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .flatMap((range) => {
      const [type, ...params] = range.split(';');
      const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
      return charset === 'charset=utf-8' && type !== undefined ? [{ type, params }] : [];
    });
}

/** Whether Accept asks for Apollo's multipart subscriptions: `multipart/mixed` with `subscriptionSpec=1.0` (quoted or not). */
export const acceptsApolloMultipart = (accept: string | null): boolean =>
  askedRanges(accept).some((r) => r.type === 'multipart/mixed' && r.params.some((p) => p.replace(/"/g, '') === 'subscriptionspec=1.0'));

const matches = (asked: string, offered: string) => {
  const [askedMain, askedSub] = asked.split('/');
  const [main, sub] = offered.split('/');
  return (askedMain === '*' || askedMain === main) && (askedSub === '*' || askedSub === sub);
};

/** Verdicts by Accept header and kind: clients send a handful of distinct headers. */
const verdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 256;

/** Whether an answer of this kind can be written for this Accept header. */
export function canWrite(accept: string | null, kind: Kind): boolean {
  const key = `${kind} ${accept ?? ''}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const offered = OFFERED[kind].filter((type) => !type.includes(';'));
    verdict =
      askedRanges(accept).some((asked) => offered.some((type) => matches(asked.type, type))) ||
      (kind === 'stream' && acceptsApolloMultipart(accept));
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(key, verdict);
  }
  return verdict;
}

function notAcceptable(kind: Kind) {
  const types = OFFERED[kind];
  return {
    errors: [
      createGraphQLError(`The Accept header allows no answer this operation can have: accept one of ${types.join(', ')}`, {
        extensions: { code: 'NOT_ACCEPTABLE', http: { status: 406 } },
      }),
    ],
  };
}

interface Operation {
  args: ExecutionArgs & { contextValue: { request?: Request } };
  setResultAndStopExecution(result: ReturnType<typeof notAcceptable>): void;
}

export function useAcceptCheck(): Plugin<{ request?: Request }> {
  return {
    onExecute({ args, setResultAndStopExecution, executeFn, setExecuteFn }) {
      const accept = args.contextValue.request?.headers.get('accept');
      if (accept === undefined) return;
      if (usesIncrementalDelivery(args.document)) {
        if (canWrite(accept, 'incremental')) return;
        if (canWrite(accept, 'single')) {
          const document = withoutIncrementalDelivery(args.document);
          setExecuteFn((execution) => executeFn({ ...execution, document }));
          return;
        }
      }
      if (!canWrite(accept, 'single')) setResultAndStopExecution(notAcceptable('single'));
    },
    onSubscribe({ args, setResultAndStopExecution }: Operation) {
      const accept = args.contextValue.request?.headers.get('accept');
      if (accept !== undefined && !canWrite(accept, 'stream')) setResultAndStopExecution(notAcceptable('stream'));
    },
  };
}
