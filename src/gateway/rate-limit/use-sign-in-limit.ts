// The sign-in limits on every transport (HTTP on either path, batches, SSE, graphql-ws: the same
// envelop hook runs), for persisted documents as for sent ones: before a mutation runs, its root
// fields that declare sign-in names (schema/core/sign-in.ts) are counted, every alias and
// fragment, and taken from the sign-in buckets (sign-in-limiter.ts). Over a limit the operation
// is refused whole with RATE_LIMITED (HTTP 429 and Retry-After on a request of its own) and runs
// nothing. When it has run, each sign-in field that succeeded gives back what it took (only wrong
// passwords count), and a sign-in's answer (user and token) teaches the account's spellings.
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import { signInNamesOf, signInSuccesses } from '../../schema/core/sign-in';
import { declaredMutationFields } from './declared-fields';
import type { SignInLimiter, SignInSuccess, SignInTry } from './sign-in-limiter';

type Context = GatewayContext & { connectionParams?: unknown };

/** The user and token a sign-in answered (a login's token record); nothing for other sign-in fields. */
function successOf(result: unknown): SignInSuccess {
  if (typeof result !== 'object' || result === null) return {};
  const { user_id: userId, token } = result as { user_id?: unknown; token?: unknown };
  return {
    userId: typeof userId === 'string' || typeof userId === 'number' || typeof userId === 'bigint' ? String(userId) : undefined,
    token: typeof token === 'string' ? token : undefined,
  };
}

export function useSignInLimit(limiter: SignInLimiter): Plugin {
  return {
    // Not async: an operation that is no sign-in (nearly all) returns at once, and envelop then
    // runs execution without a promise and a microtask turn for this hook.
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as unknown as Context;
      const fields = declaredMutationFields(args, signInNamesOf).flatMap((f) => {
        const names = f.declared(f.input, ctx.caller);
        return names ? [{ responseKey: f.responseKey, names }] : [];
      });
      if (fields.length === 0) return;
      const transport = ctx.connectionParams === undefined ? 'http' : 'ws';
      const tried: SignInTry = { address: ctx.identity.address, appId: ctx.identity.appId, fields: fields.map((f) => f.names) };
      return (async () => {
        const admitted = await limiter.admit(tried, transport);
        if ('refused' in admitted) {
          setResultAndStopExecution({ errors: [admitted.refused] });
          return;
        }
        return {
          async onExecuteDone() {
            // Root mutation fields have all run by the first result (or the only one). Given back
            // before the answer leaves, so that the client's next sign-in finds its bucket as it was.
            const succeeded = signInSuccesses(ctx);
            if (!succeeded) return;
            for (const [index, field] of fields.entries()) {
              if (succeeded.has(field.responseKey)) {
                await limiter.succeeded(tried, admitted.charged, index, successOf(succeeded.get(field.responseKey)));
              }
            }
          },
        };
      })();
    },
  };
}
