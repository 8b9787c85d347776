// The roster items (8.12: POST /roster/list) a request reads, per client: one call per batch of
// the users a request touches, as the client's acting user sees them (relation, alias, ext, mute).
// These are viewer-dependent: they live in the request's loaders (never in the app's cache of
// public profiles), keyed by the client that read them, so two identities never share one.
import DataLoader from 'dataloader';
import type { GatewayContext } from '../../context';
import { idText, type Int64 } from '../../rest/json';
import type * as R from '../../rest/records';
import type { RequestClient } from '../../rest/request-client';

/** Users per POST /roster/list (the cost estimate counts calls by it; the spec gives no bound). */
export const ROSTER_BATCH_SIZE = 500;

type ItemLoader = DataLoader<Int64, R.RosterItem | null, string>;

/** The request's loaders of roster items, by the client that reads them. */
const LOADERS = Symbol('roster items');

function makeLoader(client: RequestClient): ItemLoader {
  return new DataLoader<Int64, R.RosterItem | null, string>(
    async (ids) => {
      const reply = await client.call('POST /roster/list', { list: [...ids] });
      const byId = new Map(reply.data.map((item) => [idText(item.user_id), item]));
      // The service leaves unknown users out.
      return ids.map((id) => byId.get(idText(id)) ?? null);
    },
    { cacheKeyFn: idText, maxBatchSize: ROSTER_BATCH_SIZE },
  );
}

/** The loader of `client` (the request's own by default) in this request; the loaders go with every write. */
export function rosterItems(ctx: GatewayContext, client: RequestClient = ctx.rest): ItemLoader {
  let byClient = ctx.loaders.get(LOADERS) as Map<RequestClient, ItemLoader> | undefined;
  if (!byClient) ctx.loaders.set(LOADERS, (byClient = new Map()));
  let loader = byClient.get(client);
  if (!loader) byClient.set(client, (loader = makeLoader(client)));
  return loader;
}

/** The user's roster item as `client`'s acting user sees it; null for an unknown user. */
export const rosterItemOf = (ctx: GatewayContext, id: Int64, client?: RequestClient) => rosterItems(ctx, client).load(id);

/** A lookup's item (8.10, 8.14, 8.15) answers the same reads as 8.12: later fields need no call. */
export function primeRosterItem(ctx: GatewayContext, item: R.RosterItem, client?: RequestClient): void {
  rosterItems(ctx, client).prime(item.user_id, item);
}
