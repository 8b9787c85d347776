// Per-request DataLoaders. A definition is module-level; the loader itself is made on first use
// in a request and lives in that request's context (never shared between callers), and the
// context drops it after every write so later fields read fresh data.
import type DataLoader from 'dataloader';
import type { GatewayContext } from '../../context';

export interface LoaderDefinition<K, V, C> {
  /** The request's loader, made now when it has none yet. */
  (ctx: GatewayContext): DataLoader<K, V, C>;
  /** The request's loader when it has made one (since its last write), else undefined. */
  made(ctx: GatewayContext): DataLoader<K, V, C> | undefined;
}

export function defineLoader<K, V, C = K>(make: (ctx: GatewayContext) => DataLoader<K, V, C>): LoaderDefinition<K, V, C> {
  const made = (ctx: GatewayContext) => ctx.loaders.get(make) as DataLoader<K, V, C> | undefined;
  const loaderOf = (ctx: GatewayContext) => {
    let loader = made(ctx);
    if (!loader) {
      loader = make(ctx);
      ctx.loaders.set(make, loader);
    }
    return loader;
  };
  return Object.assign(loaderOf, { made });
}
