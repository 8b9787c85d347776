// The nesting bound (MAX_JSON_DEPTH) on a request's `variables` and `extensions` once parsed, for
// the requests whose text the front does not scan: a GET's query string, a multipart request's
// `operations` field, a WebSocket `subscribe` message. A JSON body is refused earlier, from its
// bytes (body-limits.ts). Checked before anything reads the values: the shared-execution key, the
// resume key and graphql-js's coercion all walk them recursively, and 100,000 nested arrays
// (0.2 MB) overflowed the stack there (HTTP 500 with a stack; over WebSocket, a 4500 close).
import type { Plugin } from 'graphql-yoga';
import { MAX_JSON_DEPTH, nestedTooDeep } from './body-limits';

/** An array or a plain object, as JSON makes them: not an upload's file (a stream, with cycles) put in by the multipart parser. */
function isJsonContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

/** Whether a parsed JSON value nests arrays and objects deeper than `max`; walked without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (!isJsonContainer(value)) return false;
  const stack: { value: object; depth: number }[] = [{ value, depth: 1 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next.depth > max) return true;
    for (const child of Object.values(next.value)) if (isJsonContainer(child)) stack.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

/** The refusal of an operation whose variables or extensions nest too deep, else undefined. */
export function paramsDepthRefusal(params: { variables?: unknown; extensions?: unknown }): Error | undefined {
  if (nestsDeeperThan(params.variables, MAX_JSON_DEPTH)) return nestedTooDeep('`variables`');
  if (nestsDeeperThan(params.extensions, MAX_JSON_DEPTH)) return nestedTooDeep('`extensions`');
  return undefined;
}

/** Refuses (HTTP 400) an operation whose parameters nest too deep, before anything else reads them (put it first of onParams). */
export function useParamsDepth(): Plugin {
  return {
    onParams({ params }) {
      const refusal = paramsDepthRefusal(params);
      if (refusal) throw refusal;
    },
  };
}
