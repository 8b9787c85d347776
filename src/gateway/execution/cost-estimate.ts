// The static estimate of the REST calls an operation can make, read from the schema before it
// runs. A field's calls are the endpoints it declares (`extensions.endpoints`, set by `reaches`
// where the field is defined; the schema coverage test keeps them complete), so the estimate
// cannot drift from the resolvers' declarations:
// - no endpoints: read from the parent's record, 0 calls;
// - an endpoint: one call per parent object. Fields without arguments that read the same endpoint
//   on one parent share one call (nickName and avatar: one profile); a field with arguments costs
//   its own call under each alias;
// - a batch endpoint (BATCH_SIZES): one call per batch of the objects of the whole operation;
// - a list field multiplies the objects below it by its size: a list argument's length (`ids`;
//   its distinct IDs: a repeated ID costs no call, loaders and the request's memo collapse it),
//   else `first`/`last` of the field or of the connection around it (variables and defaults
//   count), else the longest list in its arguments (a mutation's `input.userIds` gives the size
//   of its `results`), else the field's entry in LIST_SIZES.
// - a field whose endpoints are alternatives (node(id:) reads one kind's) says how many calls it
//   makes at most in `extensions.maxCalls`, which counts instead of its endpoints;
// Fragments and inline fragments count (all of them, whatever the runtime type: an upper bound).
// Beside the calls, the bytes of the upstream bodies a mutation builds by copying its input per
// recipient (its `upstreamBytes` declaration, schema/core/fan-out.ts): admission weighs them too.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  getOperationAST,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValueNode,
  valueFromASTUntyped,
} from 'graphql';
import type { EndpointName } from '../../rest/endpoints';
import { distinctEntries, fanOutOf } from '../../schema/core/fan-out';
import { MAX_PAGE } from '../../schema/core/connection';
import { GROUP_BATCH_SIZE } from '../../schema/group/loaders';
import { PUSH_TASK_BATCH_SIZE } from '../../schema/push/push';
import { ROSTER_BATCH_SIZE } from '../../schema/roster/loaders';

/** Endpoints read through a DataLoader that batches the whole request's keys, and its batch size. */
export const BATCH_SIZES: ReadonlyMap<EndpointName, number> = new Map<EndpointName, number>([
  ['POST /group/info/batch', GROUP_BATCH_SIZE],
  ['POST /push/task/detail', PUSH_TASK_BATCH_SIZE],
  ['POST /roster/list', ROSTER_BATCH_SIZE],
]);

/**
 * Endpoints a field names only as a fallback of another it also names: not counted beside it.
 * GET /group/info answers a summary field only for a group the batch left out (an unknown ID).
 */
export const FALLBACKS: ReadonlyMap<EndpointName, EndpointName> = new Map<EndpointName, EndpointName>([
  ['GET /group/info', 'POST /group/info/batch'],
]);

/** The size of a list nothing bounds: the largest page the schema serves. */
const UNBOUNDED_LIST = MAX_PAGE;

/**
 * Lists of objects that no argument sizes and no connection pages, by `Type.field`: how many
 * items the service answers at most, as far as the spec and the emulator tell (the run-time
 * budget holds if it answers more). A test requires an entry for every such list.
 */
export const LIST_SIZES: ReadonlyMap<string, number> = new Map([
  // GET /message/unread: "recent conversations"; a chat list's worth.
  ['User.unreadConversations', 50],
  ['Subscription.unreadCounts', 50],
  // The messages one read receipt covers.
  ['MessageRead.messages', 20],
  // One per push vendor.
  ['PushTask.channels', 10],
  // An upload form's fields (nothing below them calls).
  ['UploadTarget.formFields', 20],
  // Deprecated by the service, unbounded.
  ['Query.publicGroups', UNBOUNDED_LIST],
  // One result per ID of the mutation's input (sized by it when the input is known).
  // One reply per user target of the input (sized by it when the input is known).
  ['AskAssistantPayload.replies', UNBOUNDED_LIST],
  ['GroupFilesPayload.results', UNBOUNDED_LIST],
  ['GroupUsersPayload.results', UNBOUNDED_LIST],
  ['SendFriendRequestsPayload.results', UNBOUNDED_LIST],
  ['UserBatchPayload.results', UNBOUNDED_LIST],
  ['UsersPayload.users', UNBOUNDED_LIST],
]);
const PAGE_ARGS = ['first', 'last'];

export interface CostEstimate {
  /** REST calls the operation can make at most. */
  readonly calls: number;
  /** Bytes of the upstream bodies it builds by copying input per recipient (0 for most operations). */
  readonly upstreamBytes: number;
}

type Variables = Readonly<Record<string, unknown>>;

/** The endpoints a field counts (those declared, less fallbacks of another declared one). */
export function countedEndpoints(field: GraphQLField<unknown, unknown>): EndpointName[] {
  const declared = (field.extensions as { endpoints?: EndpointName[] }).endpoints ?? [];
  return declared.filter((e) => {
    const primary = FALLBACKS.get(e);
    return primary === undefined || !declared.includes(primary);
  });
}

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Variables;
  /** Variables' defaults, for those the request leaves out. */
  readonly defaults: Variables;
  calls: number;
  upstreamBytes: number;
  /** Objects each batch endpoint is asked about, over the whole operation. */
  readonly batched: Map<EndpointName, number>;
}

function argumentValue(walk: Walk, node: ValueNode): unknown {
  if (node.kind === Kind.VARIABLE) {
    const name = node.name.value;
    return name in walk.variables ? walk.variables[name] : walk.defaults[name];
  }
  return valueFromASTUntyped(node, { ...walk.defaults, ...walk.variables });
}

/** Input objects nest at most this deep here; deeper lists are not looked for. */
const MAX_INPUT_DEPTH = 8;

/**
 * The longest list anywhere in a value (input objects included); undefined when there is none.
 * Only plain objects are entered: an upload's variable holds a stream, whose fields loop back.
 */
function longestList(value: unknown, depth = 0): number | undefined {
  if (depth > MAX_INPUT_DEPTH || value === null || typeof value !== 'object') return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  const items = Array.isArray(value) ? value : prototype === Object.prototype || prototype === null ? Object.values(value) : [];
  let longest = Array.isArray(value) ? value.length : undefined;
  for (const item of items) {
    const length = longestList(item, depth + 1);
    if (length !== undefined) longest = Math.max(longest ?? 0, length);
  }
  return longest;
}

const asCount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(Math.floor(value), 0), UNBOUNDED_LIST) : undefined;

/** The argument values of a field node as given (or defaulted), uncoerced. */
function argumentsOf(walk: Walk, def: GraphQLField<unknown, unknown>, node: FieldNode): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const arg of def.args) {
    const given = node.arguments?.find((a) => a.name.value === arg.name);
    // A variable the request leaves out leaves the argument to its default; resolvers read null so too.
    const value = (given ? argumentValue(walk, given.value) : undefined) ?? arg.defaultValue;
    if (value !== undefined) values.set(arg.name, value);
  }
  return values;
}

/** A mutation's `input` as given (uncoerced): {} when it is not an object. */
function inputOf(args: ReadonlyMap<string, unknown>): Readonly<Record<string, unknown>> {
  const input = args.get('input');
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** The size a field's arguments give the list it is or wraps: ids' length, first/last, or the longest list. */
function sizeFromArguments(def: GraphQLField<unknown, unknown>, args: ReadonlyMap<string, unknown>): number | undefined {
  for (const arg of def.args) {
    if (isListType(getNullableType(arg.type)) && args.has(arg.name)) {
      const value = args.get(arg.name);
      // Repeated IDs cost no more calls (loaders and the request's memo ask once per ID).
      return Array.isArray(value) ? distinctEntries(value) : 1;
    }
  }
  for (const name of PAGE_ARGS) {
    const count = asCount(args.get(name));
    if (count !== undefined) return count;
  }
  // A field paged both ways declares no default count (`first` with `last` is refused): it says its page.
  const defaultPage = asCount(def.extensions.defaultPage);
  if (defaultPage !== undefined && def.args.some((arg) => PAGE_ARGS.includes(arg.name))) return defaultPage;
  let longest: number | undefined;
  for (const arg of def.args) {
    const length = isInputObjectType(getNamedType(arg.type)) ? longestList(args.get(arg.name)) : undefined;
    if (length !== undefined) longest = Math.max(longest ?? 0, length);
  }
  return longest === undefined ? undefined : Math.min(longest, UNBOUNDED_LIST);
}

/** The fields a selection set selects, each with the type it is selected on, through fragments. */
function collectFields(
  walk: Walk,
  type: GraphQLNamedType,
  selectionSet: SelectionSetNode,
  into: { node: FieldNode; on: GraphQLNamedType }[],
  spread: ReadonlySet<string>,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      into.push({ node: selection, on: type });
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? (walk.schema.getType(selection.typeCondition.name.value) ?? type) : type;
      collectFields(walk, on, selection.selectionSet, into, spread);
    } else {
      // Validation refuses cycles; `spread` guards anyway.
      const fragment = walk.fragments.get(selection.name.value);
      if (!fragment || spread.has(fragment.name.value)) continue;
      const on = walk.schema.getType(fragment.typeCondition.name.value) ?? type;
      collectFields(walk, on, fragment.selectionSet, into, new Set([...spread, fragment.name.value]));
    }
  }
}

/**
 * Counts a selection set selected on `count` objects of `type`; `page` is the size the nearest
 * connection above gave its lists (its `first`), until a list takes it.
 */
function walkSelections(walk: Walk, type: GraphQLNamedType, selectionSet: SelectionSetNode, count: number, page: number | undefined) {
  const fields: { node: FieldNode; on: GraphQLNamedType }[] = [];
  collectFields(walk, type, selectionSet, fields, new Set());
  const perObject = new Set<string>();
  const batched = new Set<EndpointName>();
  for (const { node, on } of fields) {
    if (!isObjectType(on) && !isInterfaceType(on)) continue;
    const def = on.getFields()[node.name.value];
    if (!def) continue;
    const args = argumentsOf(walk, def, node);
    const responseKey = node.alias?.value ?? node.name.value;
    const copies = fanOutOf(def)?.upstreamBytes;
    if (copies) walk.upstreamBytes += count * copies(inputOf(args));
    const fixed = (def.extensions as { maxCalls?: number }).maxCalls;
    if (fixed !== undefined) walk.calls += count * fixed;
    else {
      for (const endpoint of countedEndpoints(def)) {
        if (BATCH_SIZES.has(endpoint)) batched.add(endpoint);
        else perObject.add(def.args.length === 0 ? endpoint : `${endpoint} ${responseKey}`);
      }
    }
    if (!node.selectionSet) continue;
    const size = sizeFromArguments(def, args);
    const isList = isListType(getNullableType(def.type));
    const below = isList ? count * (size ?? page ?? LIST_SIZES.get(`${on.name}.${def.name}`) ?? UNBOUNDED_LIST) : count;
    walkSelections(walk, getNamedType(def.type), node.selectionSet, below, isList ? undefined : (size ?? page));
  }
  walk.calls += count * perObject.size;
  for (const endpoint of batched) walk.batched.set(endpoint, (walk.batched.get(endpoint) ?? 0) + count);
}

/** The estimate of one operation of a validated document; variables as the request sent them. */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Variables | null | undefined,
): CostEstimate {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return { calls: 0, upstreamBytes: 0 };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const defaults: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue) defaults[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  const walk: Walk = { schema, fragments, variables: variables ?? {}, defaults, calls: 0, upstreamBytes: 0, batched: new Map() };
  walkSelections(walk, root, operation.selectionSet, 1, undefined);
  let calls = walk.calls;
  for (const [endpoint, objects] of walk.batched) calls += Math.ceil(objects / BATCH_SIZES.get(endpoint)!);
  return { calls, upstreamBytes: walk.upstreamBytes };
}
