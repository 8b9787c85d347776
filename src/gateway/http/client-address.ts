// The client's address, which the rate and sign-in limits key callers without a proven token on.
// A request from a listed proxy (TRUSTED_PROXIES) names its client in X-Forwarded-For: each proxy
// appends the address it was reached from, so the header is read from the right, past the
// trusted proxies, to the first address none of them is: the client as the outermost trusted
// proxy saw it (what a client writes further left itself is not believed). From any other peer
// the header is ignored: anyone can send it.
import { BlockList, isIP } from 'node:net';
import { addressOrBlock } from '../../config/parsers';

/** The address a request comes from, given its socket's peer and its X-Forwarded-For header(s). */
export type ClientAddress = (peer: string | undefined, forwardedFor: string | string[] | undefined) => string | undefined;

/** An IPv4 address as Node writes it on a dual-stack socket (`::ffff:10.0.0.1`), plain. */
const plain = (address: string) => (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

export function clientAddress(trustedProxies: readonly string[]): ClientAddress {
  if (trustedProxies.length === 0) return (peer) => peer;
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const { address, prefix, family } = addressOrBlock(entry, 'TRUSTED_PROXIES');
    if (prefix === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, prefix, family);
  }
  const isTrusted = (address: string) => {
    const version = isIP(address);
    return version !== 0 && trusted.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
  return (peer, forwardedFor) => {
    if (peer === undefined || !isTrusted(plain(peer))) return peer;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '')).split(',');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!.trim());
      // A malformed entry ends the chain: the last address a trusted proxy vouched for stands.
      if (isIP(hop) === 0) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return client;
  };
}
