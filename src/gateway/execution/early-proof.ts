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
  // A parsed document is reused by every request running it: looked at once.
  const known = new WeakMap<DocumentNode, ReadonlySet<EndpointName>>();
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      let declared = known.get(args.document);
      if (declared === undefined) known.set(args.document, (declared = declaredEndpoints(args.schema, args.document)));
      const reads = declared;
      startQueryReads(args.contextValue as unknown as GatewayContext, (endpoint) => reads.has(endpoint));
    },
  };
}
