// Speculative reads, one mechanism for every domain: a read started before the field that needs it
// resolves, so the field finds it in flight (the request's memo of identical GETs) instead of
// starting it one round trip later. Three ways in:
// - a parent's resolver starts the reads its selected fields registered (`startsAhead`, keyed by
//   the type and field, for any parent: group(id:) for a Group, node(id:) for a global kind), and a
//   field's start those of the fields below it (`startNestedReads`: a Member's user's profile);
// - a query starts, as it begins, the reads registered for an endpoint its fields declare
//   (`startsWithQuery`: the caller's proof);
// - a resolver starts a read beside another (`startedRead`).
// A started read is speculative: it may go unused (a missing group), or fail before its field asks.
// Its failure is handled once, here: recorded with the request (`speculationOf`), and reported by
// the field that awaits it; an attempt's failure is in the call log and metrics (rest/observer.ts).
import { type FieldNode, getArgumentValues, type GraphQLResolveInfo, isObjectType } from 'graphql';
import type { GatewayContext } from '../../context';
import type { EndpointName } from '../../rest/endpoints';
import { selectedFields } from './selection';

/** What a field's start is given beside its parent: its field node and the arguments written there. */
export interface SelectedField {
  node: FieldNode;
  args: Record<string, unknown>;
  info: GraphQLResolveInfo;
}

/** Starts a field's reads from what its parent's resolver knows (`P`: a Group's ID, a global kind's ID parts). */
export type Start<P> = (parent: P, ctx: GatewayContext, field: SelectedField) => Promise<unknown> | undefined;

/** A GraphQL object type, or its Pothos ref: the key of its fields' starts. */
type TypeKey = string | { readonly name: string };
const nameOf = (type: TypeKey) => (typeof type === 'string' ? type : type.name);

const starts = new Map<string, Map<string, Start<never>>>();

/** Registers the reads `field` of `type` makes, with the very call its resolver makes, for its parent to start early. */
export function startsAhead<P>(type: TypeKey, field: string, start: Start<P>): void {
  const name = nameOf(type);
  let fields = starts.get(name);
  if (!fields) starts.set(name, (fields = new Map()));
  if (fields.has(field)) throw new Error(`speculative read of ${name}.${field} registered twice`);
  fields.set(field, start);
}

/**
 * Starts the registered reads of every field of `type` that the field being resolved selects
 * (through fragments on that type), from `parent`. A field without an entry starts when it resolves.
 */
export function startSelectedReads<P>(type: TypeKey, parent: P, ctx: GatewayContext, info: GraphQLResolveInfo): void {
  startReadsBelow(type, parent, ctx, info, info.fieldNodes);
}

/**
 * The same one level down, from a field's start: the reads of the fields `field` selects on its
 * type `type`, from the parent that field will resolve to (a Member's `user`, the User by its ID).
 */
export function startNestedReads<P>(type: TypeKey, parent: P, ctx: GatewayContext, field: SelectedField): void {
  startReadsBelow(type, parent, ctx, field.info, [field.node]);
}

function startReadsBelow<P>(type: TypeKey, parent: P, ctx: GatewayContext, info: GraphQLResolveInfo, below: readonly FieldNode[]): void {
  const name = nameOf(type);
  const fields = starts.get(name) as Map<string, Start<P>> | undefined;
  const def = info.schema.getType(name);
  if (!fields || !isObjectType(def)) return;
  for (const node of selectedFields(info, name, below)) {
    const start = fields.get(node.name.value);
    const field = def.getFields()[node.name.value];
    // A directive (@include, @skip) may leave the field out: it starts when it resolves.
    if (!start || !field || node.directives?.length) continue;
    let read: Promise<unknown> | undefined;
    try {
      read = start(parent, ctx, { node, args: getArgumentValues(field, node, info.variableValues), info });
    } catch {
      // Bad arguments: the field reports them when it resolves.
    }
    if (read) void startedRead(ctx, read);
  }
}

/** What a query starts as it begins, when one of its fields declares `endpoint`. */
export interface QueryStart {
  readonly endpoint: EndpointName;
  readonly start: (ctx: GatewayContext) => Promise<unknown> | undefined;
}

const queryStarts: QueryStart[] = [];

/** Registers a read a query starts as it begins, when one of its fields declares `endpoint` (gateway/execution/early-proof.ts). */
export function startsWithQuery(endpoint: EndpointName, start: QueryStart['start']): void {
  queryStarts.push({ endpoint, start });
}

/** Starts the reads registered for a query whose fields declare these endpoints. */
export function startQueryReads(ctx: GatewayContext, declared: ReadonlySet<EndpointName>): void {
  for (const { endpoint, start } of queryStarts) {
    if (!declared.has(endpoint)) continue;
    const read = start(ctx);
    if (read) void startedRead(ctx, read);
  }
}

/** A request's record of its speculative reads. */
export interface Speculation {
  /** Reads started ahead (each promise once). */
  started: number;
  /** The failures of those reads, whether or not a field awaited them. */
  readonly failures: unknown[];
}

const SPECULATION = Symbol('speculative reads');
/** Promises already handled: a read shared by the request's memo is started by many, handled once. */
const handled = new WeakSet<Promise<unknown>>();

/** The request's record of its speculative reads (made on first use, forgotten with its loaders). */
export function speculationOf(ctx: GatewayContext): Speculation {
  let record = ctx.loaders.get(SPECULATION) as Speculation | undefined;
  if (!record) ctx.loaders.set(SPECULATION, (record = { started: 0, failures: [] }));
  return record;
}

/**
 * A read started ahead of the field that awaits it, handed back as it is. Its failure is handled
 * once, here (recorded with the request), so a read nobody awaits after all never surfaces as an
 * unhandled rejection; the field that awaits it reports the failure where it belongs.
 */
export function startedRead<T>(ctx: GatewayContext, read: Promise<T>): Promise<T> {
  if (handled.has(read)) return read;
  handled.add(read);
  const record = speculationOf(ctx);
  record.started++;
  read.then(undefined, (err: unknown) => void record.failures.push(err));
  return read;
}

/** Reads started early that fields share failures included, beside the request's loaders (forgotten with them). */
const SHARED = Symbol('reads shared with their failures');

/**
 * A read shared by the request under `key`, its failure too: for a read that often fails as an
 * answer (a group without announcements), so the field does not ask again after an early start.
 */
export function sharedRead<T>(ctx: GatewayContext, key: string, read: () => Promise<T>): Promise<T> {
  let reads = ctx.loaders.get(SHARED) as Map<string, Promise<unknown>> | undefined;
  if (!reads) ctx.loaders.set(SHARED, (reads = new Map()));
  let answer = reads.get(key) as Promise<T> | undefined;
  if (!answer) reads.set(key, (answer = read()));
  return answer;
}
