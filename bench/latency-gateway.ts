// bench:latency's gateway process: src/main.ts as production starts it, with one difference: its
// wall clock can be moved forward by a message from the bench ({ skewMs }), so that the gateway's
// remembered answers (the peers' 5 s cache: caller proofs, public profiles) expire at once and a
// "cold" screen is measured without waiting the 5 s out. Timers and performance.now() are untouched,
// so nothing else (timeouts, undici's keep-alive) sees the jump.
const realNow = Date.now.bind(Date);
let skewMs = 0;
// Replaced before any module of the gateway reads it (TtlCache keeps `Date.now` as its clock).
Date.now = () => realNow() + skewMs;

process.on('message', (message: { skewMs?: number }) => {
  if (typeof message.skewMs === 'number') skewMs = message.skewMs;
  process.send?.({ type: 'skewed', skewMs });
});
// The bench stopped or died: do not outlive it.
process.on('disconnect', () => process.exit(0));

await import('../src/main');

export {};
