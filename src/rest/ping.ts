// Is the IM service reachable? Any HTTP answer counts (the root path has no endpoint, so an
// error envelope is the expected answer); only a failed connection or a timeout does not.
import { request } from 'undici';

export async function pingUpstream(baseUrl: string, timeoutMs: number): Promise<void> {
  const res = await request(baseUrl, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
  await res.body.dump();
}
