// The payloads of one execution: a whole result, or with @defer/@stream (incremental delivery)
// a first payload with `data`, then later ones with `incremental: [{ data | items, errors, path }]`.
// Errors live at both levels: whatever words or caps errors goes through mapPayloadErrors.
import type { ExecutionResult, GraphQLError } from 'graphql';

/** One part of a later payload: a deferred fragment's data or a streamed list's items. */
export interface IncrementalPart {
  data?: unknown;
  items?: unknown;
  errors?: readonly GraphQLError[];
  path?: readonly (string | number)[];
  extensions?: unknown;
}

/** A payload of an execution: a whole result, the first payload of several, or a later one. */
export type Payload = ExecutionResult & { incremental?: readonly IncrementalPart[]; hasNext?: boolean };

/**
 * The payload with `map` applied to each list of errors it carries (its own, and each incremental
 * part's); the same payload when `map` changed none.
 */
export function mapPayloadErrors(payload: Payload, map: (errors: readonly GraphQLError[]) => readonly GraphQLError[] | undefined): Payload {
  const own = payload.errors && map(payload.errors);
  let parts: IncrementalPart[] | undefined;
  payload.incremental?.forEach((part, i) => {
    const errors = part.errors && map(part.errors);
    if (!errors) return;
    parts ??= [...payload.incremental!];
    parts[i] = { ...part, errors };
  });
  if (!own && !parts) return payload;
  return { ...payload, ...(own ? { errors: own } : {}), ...(parts ? { incremental: parts } : {}) };
}
