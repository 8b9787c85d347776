// Per-request DataLoaders. A definition is module-level; the loader itself is made on first use
// in a request and lives in that request's context (never shared between callers), and the
// context drops it after every write so later fields read fresh data.
import type DataLoader from 'dataloader';
import type { GatewayContext } from '../../context';

export function defineLoader<K, V, C = K>(
  make: (ctx: GatewayContext) => DataLoader<K, V, C>,
): (ctx: GatewayContext) => DataLoader<K, V, C> {
  return (ctx) => {
    let loader = ctx.loaders.get(make) as DataLoader<K, V, C> | undefined;
    if (!loader) {
      loader = make(ctx);
      ctx.loaders.set(make, loader);
    }
    return loader;
  };
}
