// Metrics on a listener of their own (METRICS_PORT, METRICS_HOST), away from the public port: in
// production a replica's figures are for its scraper, not for anyone who can reach the gateway.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { log } from '../../log/logger';

interface MetricsListener {
  /** http://host:port/metrics */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenForMetrics(
  scrape: () => Promise<{ text: string; contentType: string }>,
  port: number,
  host: string,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    scrape().then(
      ({ text, contentType }) => res.writeHead(200, { 'content-type': contentType }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => {
        log().error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
