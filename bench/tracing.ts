// What tracing costs the gateway (issue 22's targets: ≤ 3% CPU per request with no exporter set,
// ≤ 15% exporting every span). One gateway process per setting, all over the same emulator, raced
// in turn on bench:peers' cases (the order alternating round by round, so that a change in the
// machine's load touches every setting alike):
// - off: OTEL_SDK_DISABLED=true (no trace context at all);
// - propagate: nothing set (the trace context goes on to the REST calls, nothing is recorded);
// - export: OTLP/HTTP to a sink in this process answering 200, OTEL_TRACES_SAMPLER=always_on
//   (export-other: the same with the other protocol, http/json or http/protobuf).
// CPU is the gateway process's own (/proc), per request; the sink's work is this process's.
//
//   npm run bench:tracing    (BENCH_CASES, default 1,2: bench:peers' numbering; BENCH_ROUNDS 8;
//                             BENCH_MEASURE_S 3; BENCH_WARMUP_S 1; BENCH_CONCURRENCY 32;
//                             BENCH_OTLP_PROTOCOL http/protobuf or http/json, default http/protobuf)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchWorkspace, cpuMs, startBenchEmulator, startGatewayProcess } from './bench-processes';
import { cases, requestsOf } from './peers-cases';
import { printTable } from './print-table';
import { requireWrk, wrk, wrkScript } from './wrk';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = env('BENCH_ROUNDS', 8);
const MEASURE_S = env('BENCH_MEASURE_S', 3);
const WARMUP_S = env('BENCH_WARMUP_S', 1);
const CONCURRENCY = env('BENCH_CONCURRENCY', 32);
const CASES = (process.env.BENCH_CASES ?? '1,2').split(',').filter(Boolean).map(Number);
const PROTOCOL = process.env.BENCH_OTLP_PROTOCOL ?? 'http/protobuf';
const TIME_LIMIT_MS = 900_000;

/** An OTLP/HTTP receiver that reads and drops what it gets, counting requests and bytes. */
async function startSink() {
  const seen = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (seen.bytes += chunk.length));
    req.on('end', () => {
      seen.requests++;
      const json = req.headers['content-type']?.includes('json') ?? false;
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, seen, close: () => server.close() };
}

interface Row {
  requests: number;
  seconds: number;
  cpuMs: number;
  /** CPU per request of each round: against the same round's `off`, drift in the machine's load cancels out. */
  perRound: number[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const watchdog = setTimeout(() => {
    console.error(`bench: over ${TIME_LIMIT_MS / 1000} s, giving up`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  await requireWrk();
  const { children, scratch, cleanup } = benchWorkspace('tracing');
  const sink = await startSink();
  const { process: emulatorProcess, setup } = await startBenchEmulator(children);
  // The environment's own OTEL_* settings must not leak into a setting.
  const none = { OTEL_SDK_DISABLED: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_TRACES_SAMPLER: '' };
  const known = [
    { name: 'off', env: { ...none, OTEL_SDK_DISABLED: 'true' } },
    { name: 'propagate', env: none },
    {
      name: 'export',
      env: {
        ...none,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: PROTOCOL,
        OTEL_TRACES_SAMPLER: 'always_on',
      },
    },
    // The other protocol, to choose between them.
    {
      name: 'export-other',
      env: {
        ...none,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: PROTOCOL === 'http/json' ? 'http/protobuf' : 'http/json',
        OTEL_TRACES_SAMPLER: 'always_on',
      },
    },
  ];
  // BENCH_SETTINGS=off,off2,propagate: a second gateway of a setting (a trailing digit) shows how far
  // two processes of the same setting differ.
  const settings = (process.env.BENCH_SETTINGS ?? 'off,propagate,export').split(',').map((name) => {
    const setting = known.find((k) => k.name === name.replace(/\d$/, ''));
    if (!setting) throw new Error(`BENCH_SETTINGS: no setting ${name}`);
    return { ...setting, name };
  });
  const gateways = [];
  for (const s of settings) {
    const g = await startGatewayProcess(children, setup, [], s.env);
    gateways.push({ ...s, origin: g.origin, pid: g.process.pid! });
  }

  const chosen = cases(setup).filter((_c, i) => CASES.includes(i + 1));
  const rows = new Map<string, Row>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of chosen) {
      const list = requestsOf(c.requests.gateway!);
      const [request] = list;
      const order = round % 2 === 1 ? gateways : [...gateways].reverse();
      for (const g of order) {
        const headers = {
          app_id: setup.appId,
          'access-token': setup.adminToken,
          user_id: String(setup.ownerId),
          'content-type': 'application/json',
        };
        const script = wrkScript(scratch, list, headers, new URL(g.origin).host);
        await wrk(g.origin, request!.path, script, WARMUP_S, CONCURRENCY);
        const before = cpuMs(g.pid);
        const result = await wrk(g.origin, request!.path, script, MEASURE_S, CONCURRENCY);
        const cpu = cpuMs(g.pid) - before;
        if (result.bad > 0) throw new Error(`${g.name}, ${c.label}: ${result.bad} failed requests`);
        const key = `${c.label}|${g.name}`;
        const row = rows.get(key) ?? { requests: 0, seconds: 0, cpuMs: 0, perRound: [] };
        row.requests += result.requests;
        row.seconds += result.seconds;
        row.cpuMs += cpu;
        row.perRound.push(cpu / result.requests);
        rows.set(key, row);
        process.stderr.write(`round ${round}: ${g.name.padEnd(9)} ${c.label}: ${Math.round(result.perSecond)} req/s\n`);
      }
    }
  }
  clearTimeout(watchdog);

  const fmt = (n: number, digits = 3) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  console.log(
    `\ntracing bench (Node ${process.version}, wrk -t1 -c${CONCURRENCY}, ${ROUNDS} rounds × ${MEASURE_S} s per case and setting, OTLP ${PROTOCOL})\n`,
  );
  const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${fmt((ratio - 1) * 100, 1)}%`;
  const table = [['case', 'setting', 'req/s', 'CPU ms/req', 'CPU vs off (all rounds)', 'vs off: median of rounds [min, max]']];
  for (const c of chosen) {
    const off = rows.get(`${c.label}|off`)!;
    for (const g of gateways) {
      const row = rows.get(`${c.label}|${g.name}`)!;
      const perRequest = row.cpuMs / row.requests;
      const ratios = row.perRound.map((cpu, i) => cpu / off.perRound[i]!);
      const rounds = `${pct(median(ratios))} [${pct(Math.min(...ratios))}, ${pct(Math.max(...ratios))}]`;
      const whole = pct(perRequest / (off.cpuMs / off.requests));
      table.push([
        c.label,
        g.name,
        fmt(row.requests / row.seconds, 0),
        fmt(perRequest),
        g.name === 'off' ? '' : whole,
        g.name === 'off' ? '' : rounds,
      ]);
    }
  }
  printTable(table);
  console.log(`\nthe sink received ${sink.seen.requests} exports, ${sink.seen.bytes} bytes`);
  if (sink.seen.requests === 0) console.log('bench: the exporting gateway sent nothing: its figures do not count');
  emulatorProcess.send({ type: 'stop' });
  sink.close();
  cleanup();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error('bench failed:', err);
  process.exit(1);
});
