// The caller's proof (its own profile read with its own token, peers.ts provenCaller) started when
// a query begins, beside its first reads, rather than when the first field about another user
// resolves: every read through the service credential waits for the proof, so a proof begun late
// puts a whole round trip on the path. Started for queries whose fields may read a profile (they
// declare GET /user/profile) when the credential serves the caller; a query that reads no other
// user pays one profile call it did not need (the proof is remembered per token for PEER_TTL_MS,
// and a query reading the caller's own profile shares the call). The gateway starts the reads
// queries register (gateway/execution/early-proof.ts); refused operations (cost limit) start nothing.
import { startsWithQuery } from '../core/speculative';
import { provenCaller } from '../core/caller-proof';

startsWithQuery('GET /user/profile', (ctx) => (!ctx.peers || ctx.peers.callerIsService ? undefined : provenCaller(ctx)));
