// The fan-out limits (fan-out-limiter.ts) on every transport, for persisted documents as for sent
// ones: before a mutation runs, the registrations and recipients its root fields declare
// (schema/core/fan-out.ts) are summed over every alias and fragment and taken at once; over a
// limit the operation is refused whole with RATE_LIMITED (HTTP 429 and Retry-After on a request
// of its own) and runs nothing.
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../context';
import { fanOutOf } from '../../schema/core/fan-out';
import { declaredMutationFields } from './declared-fields';
import type { FanOutLimiter } from './fan-out-limiter';

type Context = GatewayContext & { connectionParams?: unknown };

export function useFanOutLimit(limiter: FanOutLimiter): Plugin {
  return {
    // Not async: an operation that fans out to nobody (nearly all) returns at once, and envelop then
    // runs execution without a promise and a microtask turn for this hook.
    onExecute({ args, setResultAndStopExecution }) {
      const fields = declaredMutationFields(args, fanOutOf);
      if (fields.length === 0) return;
      let registers = 0;
      let recipients = 0;
      for (const { declared, input } of fields) {
        registers += declared.registers?.(input) ?? 0;
        recipients += declared.recipients?.(input) ?? 0;
      }
      if (registers === 0 && recipients === 0) return;
      const ctx = args.contextValue as unknown as Context;
      const { identity } = ctx;
      const charge = {
        address: identity.address,
        // A token's own bucket (the identity's digest: app, token, acting user); without one, the address's.
        identityKey: identity.caller.token === undefined ? undefined : identity.key,
        registers,
        recipients,
      };
      return limiter.admit(charge, ctx.connectionParams === undefined ? 'http' : 'ws').then((refused) => {
        if (refused) setResultAndStopExecution({ errors: [refused] });
      });
    },
  };
}
