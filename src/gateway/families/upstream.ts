// The upstream family: the REST client to the IM service (with read coalescing and the write
// clock), the record of the tokens the service accepted (fed by the client's answers), the
// service credential, and the gate that keeps polls to their share of the sockets.
import type { Config } from '../../config';
import { serviceCredential } from '../../peers/service-credential';
import { backgroundGate, inBackground } from '../../rest/background';
import { type CallObserver, createRestClient } from '../../rest/client';
import { coalescing } from '../../rest/coalesce';
import { provenTokens } from '../../rest/proven-tokens';
import { writeClock } from '../../rest/write-clock';
import type { Resource } from '../lifecycle/resources';

export function upstreamFamily(config: Config, imBaseUrl: string, observer: CallObserver) {
  // One record for the rate limit, the peers' trust model and the hub's check (rest/proven-tokens.ts).
  const tokens = provenTokens({ defaultAppId: config.imAppId, serviceToken: config.imAdminToken });
  const client = createRestClient({
    baseUrl: imBaseUrl,
    appId: config.imAppId,
    connectTimeoutMs: config.connectTimeoutMs,
    callTimeoutMs: config.callTimeoutMs,
    retries: config.retries,
    connections: config.connections,
    freezeReplies: config.freezeReplies,
    // The hosts uploads may go to are the storage downloads may be fetched from (README: UPLOAD_HOSTS).
    storageHosts: config.uploadHosts,
    observer,
    // A refused token's proof goes at once, for every use.
    onTokenRefused: tokens.refused,
    onTokenAccepted: tokens.accepted,
  });
  // Read your writes: one clock for REST coalescing and shared executions (rest/write-clock.ts).
  const writes = writeClock();
  // Identical reads in flight for one identity share one upstream call (src/rest/coalesce.ts).
  const rest = config.coalesce ? coalescing(client, { defaultAppId: config.imAppId, writes }) : client;
  // Polls take at most pollConnections of the upstream sockets (rest/background.ts).
  const pollGate = backgroundGate(config.pollConnections);
  const resource: Resource = {
    name: 'rest',
    // The REST calls of cut requests may still be held: the pool then closes on its own timer
    // (IM_CALL_TIMEOUT_MS) rather than hold the stop.
    close: async (outcome) => {
      const closing = rest.close();
      if (outcome.cut.length === 0) await closing;
      else closing.catch(() => {});
    },
  };
  return {
    tokens,
    // The service credential reads peers' public profiles for user-token callers (README: trust model).
    service: { credential: serviceCredential(config.imAppId, config.imAdminToken, tokens), defaultAppId: config.imAppId },
    client,
    rest,
    writes,
    pollGate,
    pollRest: inBackground(rest, pollGate),
    resources: [resource],
  };
}

export type UpstreamFamily = ReturnType<typeof upstreamFamily>;
