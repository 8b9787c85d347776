// The caller's proof (its own profile read with its own token, user/peers.ts provenCaller) started
// when a query begins, beside its first reads, rather than when the first field about another
// user resolves: every read through the service credential waits for the proof, so a proof begun
// late puts a whole round trip on the path. Started for queries whose fields may read a profile
// (they declare GET /user/profile) when the credential serves the caller; a query that reads no
// other user pays one profile call it did not need (a query reading the caller's own profile shares
// it; a token proven within PROOF_TTL_MS, rest/proven-tokens.ts, costs none). Refused operations
// (cost limit) stop before this hook and start nothing.
import { type DocumentNode, getOperationAST, type GraphQLSchema, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import { provenCaller } from '../../schema/user/peers';
import { countedEndpoints } from './cost-estimate';

/** Whether the operation selects a field that may read a user's profile. */
function readsProfiles(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const def = typeInfo.getFieldDef();
        if (def && countedEndpoints(def).includes('GET /user/profile')) found = true;
      },
    }),
  );
  return found;
}

export function useEarlyProof(): Plugin {
  // A parsed document is reused by every request running it: looked at once.
  const known = new WeakMap<DocumentNode, boolean>();
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as unknown as GatewayContext;
      if (!ctx.peers || ctx.peers.callerIsService) return;
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      let reads = known.get(args.document);
      if (reads === undefined) known.set(args.document, (reads = readsProfiles(args.schema, args.document)));
      // Failures are the fields' to report: they ask the same proof.
      if (reads) provenCaller(ctx).catch(() => undefined);
    },
  };
}
