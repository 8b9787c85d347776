// Whether `group(id:)` names a group, told by the call its selection makes anyway. When the
// selection asks for the member list alone (with `id` or `__typename`), that list answers it
// (the service's 20001 for a missing group): it is read here with the arguments the `members`
// field will read it with, and handed to that field with the group (GroupParent.memberPage).
// Any other selection, or a list that fails otherwise, takes the summary batch (loaders.ts
// existingGroup), as before.
import { type FieldNode, getArgumentValues, getNamedType, type GraphQLField, type GraphQLResolveInfo, isObjectType } from 'graphql';
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { type GroupParent, GroupRef } from '../core/refs';
import { upstreamCodeOf } from '../core/upstream-errors';
import type { PageArgs } from '../core/connection';
import { existingGroup } from './loaders';
import { readMemberPage } from './member';
import { startSelectedReads } from '../core/speculative';

/** The service's code for a group that does not exist. */
const GROUP_NOT_FOUND = 20001;

/** Fields that need no call of their own. */
const FREE = new Set(['id', '__typename']);

/** The selection's one `members` field, when that is all it asks (plain fields, no fragments). */
function membersField(info: GraphQLResolveInfo): FieldNode | undefined {
  let members: FieldNode | undefined;
  for (const node of info.fieldNodes) {
    for (const selection of node.selectionSet?.selections ?? []) {
      if (selection.kind !== 'Field' || selection.directives?.length) return undefined;
      if (FREE.has(selection.name.value)) continue;
      if (selection.name.value !== 'members' || members) return undefined;
      members = selection;
    }
  }
  return members;
}

// A document is parsed once and its nodes reused by every request running it: what a `group`
// node selects is read once per node, and the `members` arguments written in it (no variables)
// once per `members` node.
const literalArgs = new WeakMap<FieldNode, PageArgs>();
const membersOf = new WeakMap<FieldNode, { members: FieldNode; field: GraphQLField<unknown, unknown> } | null>();

/** The selection's one `members` field and its definition, when that is all it asks. */
function membersSelected(info: GraphQLResolveInfo): { members: FieldNode; field: GraphQLField<unknown, unknown> } | null {
  const node = info.fieldNodes.length === 1 ? info.fieldNodes[0]! : undefined;
  const known = node && membersOf.get(node);
  if (known !== undefined) return known;
  const members = membersField(info);
  const type = getNamedType(info.returnType);
  const field = members && isObjectType(type) ? type.getFields().members : undefined;
  const found = members && field ? { members, field } : null;
  if (node) membersOf.set(node, found);
  return found;
}

/** The arguments of the selection's one `members` field, when that is all it asks. */
function membersAlone(info: GraphQLResolveInfo): PageArgs | undefined {
  const selected = membersSelected(info);
  if (!selected) return undefined;
  const { members, field } = selected;
  const known = literalArgs.get(members);
  if (known) return known;
  const args: PageArgs = getArgumentValues(field, members, info.variableValues);
  const literal = !members.arguments?.some(
    (a) => a.value.kind !== 'IntValue' && a.value.kind !== 'StringValue' && a.value.kind !== 'NullValue',
  );
  if (literal) literalArgs.set(members, Object.freeze(args));
  return args;
}

/** The group an ID names; null when there is none. */
export async function groupById(id: Int64, ctx: GatewayContext, info: GraphQLResolveInfo): Promise<GroupParent | null> {
  const args = membersAlone(info);
  if (args) {
    try {
      // The `members` field takes this page as it is rather than asking the request's memo again.
      return { id, memberPage: { args, reply: await readMemberPage(ctx, 'GET /group/member_list', id, args) } };
    } catch (err) {
      if (upstreamCodeOf(err) === GROUP_NOT_FOUND) return null;
      // Bad arguments, a refusal: the batch says whether the group exists, and the field fails at its own path.
    }
  }
  // The selected fields' reads go out beside the batch that says whether the group exists.
  startSelectedReads(GroupRef, id, ctx, info);
  return existingGroup(id, ctx);
}
