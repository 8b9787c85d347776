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
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const SINGLE_RESULT_TYPES = ['text/event-stream', 'multipart/mixed', 'application/graphql-response+json', 'application/json'];
const STREAM_TYPES = ['text/event-stream'];

/** The media ranges an Accept header asks for, as yoga reads them (no header: any). */
function askedTypes(accept: string | null): string[] {
  return (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .flatMap((range) => {
      const [type, ...params] = range.split(';');
      const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
      return charset === 'charset=utf-8' && type !== undefined ? [type] : [];
    });
}

const matches = (asked: string, offered: string) => {
  const [askedMain, askedSub] = asked.split('/');
  const [main, sub] = offered.split('/');
  return (askedMain === '*' || askedMain === main) && (askedSub === '*' || askedSub === sub);
};

/** Verdicts by Accept header and kind: clients send a handful of distinct headers. */
const verdicts = new Map<string, boolean>();
const VERDICTS_KEPT = 256;

/** Whether an answer of this kind can be written for this Accept header. */
export function canWrite(accept: string | null, kind: 'single' | 'stream'): boolean {
  const key = `${kind} ${accept ?? ''}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const offered = kind === 'stream' ? STREAM_TYPES : SINGLE_RESULT_TYPES;
    verdict = askedTypes(accept).some((asked) => offered.some((type) => matches(asked, type)));
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(key, verdict);
  }
  return verdict;
}

function notAcceptable(kind: 'single' | 'stream') {
  const types = kind === 'stream' ? STREAM_TYPES : SINGLE_RESULT_TYPES;
  return {
    errors: [
      createGraphQLError(`The Accept header allows no answer this operation can have: accept one of ${types.join(', ')}`, {
        extensions: { code: 'NOT_ACCEPTABLE', http: { status: 406 } },
      }),
    ],
  };
}

interface Operation {
  args: { contextValue: { request?: Request } };
  setResultAndStopExecution(result: ReturnType<typeof notAcceptable>): void;
}

export function useAcceptCheck(): Plugin<{ request?: Request }> {
  const check =
    (kind: 'single' | 'stream') =>
    ({ args, setResultAndStopExecution }: Operation) => {
      const request = args.contextValue.request;
      if (request && !canWrite(request.headers.get('accept'), kind)) setResultAndStopExecution(notAcceptable(kind));
    };
  return { onExecute: check('single'), onSubscribe: check('stream') };
}
