// The object storage behind the IM service's files (its upload targets, the Location its
// downloads redirect to): which hosts the gateway may talk to, and how to read the storage's own
// answers. The storage is not the IM service: it answers in its own shape (an OSS XML <Error>, a
// callback's JSON), never necessarily the envelope, and it must never see the caller's identity.
import { envelopeError, envelopeIn } from './envelope';

/**
 * Whether the gateway may send a request to `url` on behalf of a file transfer: http(s), on the IM
 * service's host or an allowed one ('host:port' matches exactly, 'host' that host on any port).
 */
export function storageHostAllowed(url: URL, imBaseUrl: string, hosts: readonly string[]): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.host.toLowerCase();
  if (host === new URL(imBaseUrl).host.toLowerCase()) return true;
  return hosts.some((allowed) => {
    const a = allowed.toLowerCase();
    return a.includes(':') ? a === host : a === url.hostname.toLowerCase();
  });
}

// An OSS-style error: <Error><Code>AccessDenied</Code><Message>...</Message>...</Error>.
const XML_CODE = /<Code>([^<]{1,100})<\/Code>/;
const XML_MESSAGE = /<Message>([^<]{1,300})<\/Message>/;

const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unescapeXml = (text: string) => text.replace(/&(lt|gt|amp|quot|apos);/g, (_m, name: string) => ENTITIES[name]!);

/** What a storage's error answer says: an OSS XML error's code and message, else an envelope's. */
export function storageErrorOf(text: string, secrets: readonly string[] = []): { code?: number; upstreamMessage?: string } {
  const code = XML_CODE.exec(text)?.[1];
  if (code !== undefined) {
    const message = XML_MESSAGE.exec(text)?.[1];
    return { upstreamMessage: unescapeXml(message ? `${code}: ${message}` : code) };
  }
  return envelopeError(envelopeIn(text), secrets);
}
