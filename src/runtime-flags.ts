// V8 settings the gateway process runs with, set before anything else is loaded (main.ts imports
// this module first). Allocation-site pretenuring off: V8 moves an allocation site's objects
// straight to the old generation once enough of them survive a scavenge, and under load the
// gateway's per-request objects (listeners on each request and response, hook closures, promises)
// survive one while their request is in flight, so their sites got pretenured and each request's
// garbage became old garbage: 1.7× the GC time and 1.6× the CPU per cached `me` of 0.2.1 under
// `wrk -c32`, and 1.03× with this off (bench/RESULTS.md, 2026-12-07). The flag is read as sites
// are judged, so setting it here, before the first request, takes effect.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
