// Which account a tried login name is, for the per-account sign-in limit: `id:<n>`, the user name,
// a mobile number and an e-mail address of one user must share one bucket, or an attacker gets a
// limit per spelling (issue 40: name, `id:` and mobile were three buckets, 15 guesses a minute).
// The service tells a name's user only to someone signed in (GET /roster/name needs a token and
// an acting user), so the gateway learns the spellings from what a sign-in proves: a successful
// sign-in answers the user ID (the spelling tried is that user's), and the user's own profile,
// read once with the fresh token in the background, gives its name, mobile and e-mail. From then
// on (per replica, for ACCOUNT_TTL_MS after the last sign-in) every spelling of that user is its
// ID's bucket. A spelling the gateway has not learned stays a bucket of its own: docs/limits.md
// says which. Names are compared as loginName() writes them (trimmed, case folded).
import { TtlCache } from '../../peers/ttl-cache';

/** How long a learned spelling holds without a new sign-in of its user. */
export const ACCOUNT_TTL_MS = 24 * 60 * 60_000;
/** Spellings remembered at most (oldest first out): about four per user. */
const MAX_SPELLINGS = 200_000;

/** What the user's own profile tells of its spellings (GET /user/profile with its token). */
export interface AccountSpellings {
  readonly username?: string | undefined;
  readonly mobile?: string | undefined;
  readonly email?: string | undefined;
}

export interface SignInAccounts {
  /** The bucket name of a tried spelling: `user:<id>` once learned (or written `id:<id>`), else the spelling. */
  accountOf(appId: string, name: string): string;
  /**
   * A sign-in of `userId` succeeded with these spellings (as tried); `profile` reads the user's
   * own spellings, once per ACCOUNT_TTL_MS a user (never on the answer's path: its failure is ignored).
   */
  learn(appId: string, userId: string, tried: readonly string[], profile?: () => Promise<AccountSpellings>): void;
}

const ID_PREFIX = 'id:';
const normalized = (spelling: string) => spelling.trim().toLowerCase();

export function signInAccounts(now: () => number = Date.now): SignInAccounts {
  // Space: the app; key: a spelling (or `user:<id>`, the marker of a user whose profile was read).
  const known = new TtlCache<string>(ACCOUNT_TTL_MS, MAX_SPELLINGS, now);
  const remember = (appId: string, spelling: string | undefined, userId: string) => {
    const name = spelling === undefined ? '' : normalized(spelling);
    if (name !== '' && !name.startsWith(ID_PREFIX)) known.set(appId, name, userId);
  };
  return {
    accountOf(appId, name) {
      if (name.startsWith(ID_PREFIX)) return `user:${name.slice(ID_PREFIX.length)}`;
      const userId = known.get(appId, name);
      return userId === undefined ? name : `user:${userId}`;
    },
    learn(appId, userId, tried, profile) {
      for (const spelling of tried) remember(appId, spelling, userId);
      const marker = `user:${userId}`;
      if (!profile || known.get(appId, marker) !== undefined) return;
      known.set(appId, marker, userId);
      profile().then(
        (p) => [p.username, p.mobile, p.email].forEach((spelling) => remember(appId, spelling, userId)),
        // Read again at the next sign-in; meanwhile the spellings tried are known.
        () => known.delete(appId, marker),
      );
    },
  };
}
