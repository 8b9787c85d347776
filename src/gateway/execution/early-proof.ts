// The reads a query starts as it begins (schema/core/speculative.ts `startsWithQuery`: today the
// caller's proof, schema/user/early-proof.ts), for the endpoints its fields declare. Only queries:
// a mutation's reads follow its writes. Refused operations (cost limit) stop before this hook and
// start nothing.
import { type DocumentNode, getOperationAST, type GraphQLSchema, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import type { EndpointName } from '../../rest/endpoints';
import { startQueryReads } from '../../schema/core/speculative';
import { countedEndpoints } from './cost-estimate';

/** The endpoints the operation's fields declare (reaches()). */
function declaredEndpoints(schema: GraphQLSchema, document: DocumentNode): ReadonlySet<EndpointName> {
  const typeInfo = new TypeInfo(schema);
  const found = new Set<EndpointName>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const def = typeInfo.getFieldDef();
        if (def) for (const endpoint of countedEndpoints(def)) found.add(endpoint);
      },
    }),
  );
  return found;
}

export function useEarlyProof(): Plugin {
  // A parsed document is reused by every request running it: looked at once per operation name
  // (null: not a query, nothing started).
  const known = new WeakMap<DocumentNode, Map<string, ReadonlySet<EndpointName> | null>>();
  const declaredBy = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined) => {
    let byName = known.get(document);
    if (!byName) known.set(document, (byName = new Map()));
    const name = operationName ?? '';
    let declared = byName.get(name);
    if (declared === undefined) {
      const query = getOperationAST(document, operationName)?.operation === 'query';
      byName.set(name, (declared = query ? declaredEndpoints(schema, document) : null));
    }
    return declared;
  };
  return {
    onExecute({ args }) {
      const declared = declaredBy(args.schema, args.document, args.operationName);
      if (declared) startQueryReads(args.contextValue as unknown as GatewayContext, declared);
    },
  };
}
