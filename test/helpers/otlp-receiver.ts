// An OTLP/HTTP receiver in the test process: accepts http/json trace exports on a free port and
// keeps their spans, flattened.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  serviceName?: string;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'serviceName'> & { attributes?: KeyValue[] })[] }[];
  }[];
}

const valueOf = (v: AnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (kvs: KeyValue[] = []) => Object.fromEntries(kvs.map((kv) => [kv.key, valueOf(kv.value)]));

export async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; bodies: string[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(text);
      const body = JSON.parse(text) as ExportRequest;
      for (const rs of body.resourceSpans ?? []) {
        const serviceName = attributesOf(rs.resource?.attributes)['service.name'] as string | undefined;
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? [])
            spans.push({ ...s, attributes: attributesOf(s.attributes), ...(serviceName ? { serviceName } : {}) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
