// A gateway in a process of its own, for the multi-replica test to kill: configured from the
// environment like `npm start` (IM_BASE_URL, REDIS_URL, POLL_INTERVAL_MS), plus REDIS_PREFIX.
// Prints its origin as `READY <url>` once it listens.
import { loadConfig } from '../../src/config';
import { createGateway } from '../../src/gateway/create-gateway';

const config = { ...loadConfig(), port: 0 };
const gateway = createGateway(config, { imBaseUrl: config.imBaseUrl!, redisPrefix: process.env.REDIS_PREFIX });
const url = await gateway.start();
console.log(`READY ${url}`);
process.on('SIGTERM', () => void gateway.stop().then(() => process.exit(0)));
