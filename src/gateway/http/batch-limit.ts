// Batched operations: a JSON array body of operations (Apollo's BatchHttpLink), each run as a
// request of its own (own context, cost limit and REST-call budget), answered as an array in
// order. At most MAX_BATCH per request; MAX_BATCH=1 turns batching off. Checked as soon as the
// body is read, before the rate limit takes anything for it and before any operation is parsed:
// yoga's own check answers 413 for a long batch and 400 without naming the limit.
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const refusal = (message: string, maxBatch: number, code = 'BATCH_LIMIT_EXCEEDED') =>
  createGraphQLError(message, { extensions: { code, limit: maxBatch, http: { status: 400 } } });

export function useBatchLimit(maxBatch: number): Plugin {
  return {
    onRequestParse() {
      return {
        onRequestParseDone({ requestParserResult }) {
          if (!Array.isArray(requestParserResult)) return;
          if (maxBatch <= 1) throw refusal('Batching is off (MAX_BATCH=1): send one operation per request', maxBatch);
          if (requestParserResult.length === 0) throw refusal('The batch holds no operation', maxBatch, 'BAD_REQUEST');
          if (requestParserResult.length > maxBatch) {
            throw refusal(`The batch holds ${requestParserResult.length} operations, over the limit of ${maxBatch} per request`, maxBatch);
          }
        },
      };
    },
  };
}

/** yoga's own batching option, off when MAX_BATCH=1 (useBatchLimit refuses first, with its code). */
export const yogaBatching = (maxBatch: number) => (maxBatch > 1 ? { limit: maxBatch } : false);
