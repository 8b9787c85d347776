// findUser: a user by exactly one of ID, user name or mobile number (8.10, 8.15, 8.14), as the
// acting user's roster sees them. The lookup's item primes the request's roster loader, so the
// user's relation, question and notes cost no second call.
import type { GatewayContext } from '../../context';
import type { Int64 } from '../../rest/json';
import { builder, reaches } from '../core/builder';
import { idInput } from '../core/id-kinds';
import { badUserInput, nonBlank } from '../core/inputs';
import { errorCodeOf } from '../core/upstream-errors';
import { type UserParent, UserRef } from '../core/refs';
import { primeRosterItem } from './loaders';

interface FindArgs {
  id?: Int64 | null;
  username?: string | null;
  mobile?: string | null;
}

const ARGS = ['id', 'username', 'mobile'] as const;

/** The one lookup the arguments ask for; BAD_USER_INPUT, before any call, for none or several. */
function lookup(args: FindArgs, ctx: GatewayContext) {
  const given = ARGS.filter((name) => args[name] != null);
  if (given.length !== 1) {
    throw badUserInput(given[1] ?? 'id', 'give exactly one of id, username and mobile');
  }
  if (args.id != null) return ctx.rest.call('GET /roster/id', { user_id: args.id });
  if (args.username != null) return ctx.rest.call('GET /roster/name', { username: nonBlank('username', args.username) });
  return ctx.rest.call('GET /roster/mobile', { mobile: nonBlank('mobile', args.mobile!) });
}

builder.queryField('findUser', (t) =>
  t.field({
    type: UserRef,
    description:
      'A user found by exactly one of ID, user name or mobile number (to add as a friend), with their relation to the ' +
      'acting user; null when nobody matches. A mobile number is a plus sign and at least 8 digits, or 11 digits starting 13-19.',
    extensions: { ...reaches('GET /roster/id', 'GET /roster/name', 'GET /roster/mobile'), maxCalls: 1 },
    args: {
      id: t.arg(idInput({ for: 'User', required: false, description: 'User ID.' })),
      username: t.arg.string({ required: false, description: 'User name (exact).' }),
      mobile: t.arg.string({ required: false, description: 'Mobile number (exact).' }),
    },
    resolve: async (_root, args, ctx): Promise<UserParent | null> => {
      try {
        const item = (await lookup(args, ctx)).data;
        primeRosterItem(ctx, item);
        return { id: item.user_id };
      } catch (err) {
        if (errorCodeOf(err) === 'NOT_FOUND') return null;
        throw err;
      }
    },
  }),
);
