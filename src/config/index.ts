// Every environment variable the gateway and the emulator read, parsed and validated in one
// place (declared in ./variables.ts). A bad value stops the start with one line naming the variable.
import type { CallbackFaults } from './callback-faults';
import { ConfigError, type Env } from './parsers';
import { GATEWAY_VARIABLES, TRACING_VARIABLES, type Variable } from './variables';

export { ConfigError, persistedDocumentHash, type RateLimit } from './parsers';
export { type CallbackFaults, NO_FAULTS, parseCallbackFaults } from './callback-faults';
export {
  type CostMode,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_COST,
  DEFAULT_MAX_ERRORS,
  DEFAULT_MAX_REST_CALLS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SUBSCRIPTIONS_PER_IDENTITY,
  DEFAULT_MAX_SUBSCRIPTIONS_PER_SOCKET,
  LOG_LEVEL_NAMES,
  type LogLevelName,
  SAMPLERS,
} from './variables';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The fields a list of variables fills: each declared field, typed by its parser. */
type Fields<L extends readonly Variable<unknown>[]> = Simplify<{
  [V in L[number] as V['field'] extends string ? V['field'] : never]: V extends Variable<infer T> ? T : never;
}>;

/** OpenTelemetry's standard variables, as far as the gateway honours them (docs/operations.md, Traces). */
export type TracingConfig = Fields<typeof TRACING_VARIABLES>;

export type Config = Simplify<
  Fields<typeof GATEWAY_VARIABLES> & {
    /** Variables that were set but no longer do anything: named at start, never an error (deployments keep working). */
    obsolete: string[];
    tracing: TracingConfig;
  }
>;

/** Reads `variables` in order: each parser sees the values of those above it. */
function read(variables: readonly Variable[], env: Env): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const earlier = <T>(name: string) => values.get(name) as T;
  for (const v of variables) {
    values.set(v.name, v.parser.parse(env, v.name, earlier));
    v.check?.(earlier);
  }
  return values;
}

function fieldsOf<T>(variables: readonly Variable[], values: Map<string, unknown>): T {
  const fields: Record<string, unknown> = {};
  for (const v of variables) if (v.field !== undefined) fields[v.field] = values.get(v.name);
  return fields as T;
}

export function loadTracingConfig(env: Env): TracingConfig {
  return fieldsOf(TRACING_VARIABLES, read(TRACING_VARIABLES, env));
}

export function loadConfig(env: Env = process.env): Config {
  const values = read(GATEWAY_VARIABLES, env);
  return {
    ...fieldsOf<Fields<typeof GATEWAY_VARIABLES>>(GATEWAY_VARIABLES, values),
    obsolete: GATEWAY_VARIABLES.filter((v) => v.obsolete && env[v.name] !== undefined).map((v) => v.name),
    tracing: loadTracingConfig(env),
  };
}

/** The variables the emulator alone reads (the gateway's, parsed alike). */
export const EMULATOR_VARIABLES = [
  'EMULATOR_PORT',
  'HOST',
  'IM_APP_ID',
  'IM_ADMIN_TOKEN',
  'IM_CALLBACK_SECRET',
  'EMULATOR_CALLBACK_URL',
  'EMULATOR_CALLBACK_SECRET',
  'EMULATOR_CALLBACK_FAULTS',
  'LOG_LEVEL',
];

/** The config for the emulator-alone command (`npm run emulator`): the gateway's variables it shares. */
export function loadEmulatorConfig(env: Env = process.env) {
  const values = read(
    GATEWAY_VARIABLES.filter((v) => EMULATOR_VARIABLES.includes(v.name)),
    env,
  );
  const config = fieldsOf<
    Pick<
      Config,
      | 'emulatorPort'
      | 'host'
      | 'imAppId'
      | 'imAdminToken'
      | 'logLevel'
      | 'callbackSecret'
      | 'emulatorCallbackUrls'
      | 'emulatorCallbackSecret'
      | 'emulatorCallbackFaults'
    >
  >(GATEWAY_VARIABLES, values);
  return {
    port: config.emulatorPort,
    host: config.host,
    appId: config.imAppId,
    adminToken: config.imAdminToken,
    logLevel: config.logLevel,
    callbacks: emulatorCallbacks(config),
  };
}

/**
 * Where and how the emulator calls back (EMULATOR_CALLBACK_*): undefined without a URL. The
 * secret is EMULATOR_CALLBACK_SECRET, else the gateway's IM_CALLBACK_SECRET (one setting for a
 * gateway and its emulator), else `generated` (npm start makes one for both).
 */
export function emulatorCallbacks(
  config: Pick<Config, 'callbackSecret' | 'emulatorCallbackUrls' | 'emulatorCallbackSecret' | 'emulatorCallbackFaults'>,
  generated?: string,
): { urls: string[]; secret: string; faults: CallbackFaults } | undefined {
  if (config.emulatorCallbackUrls.length === 0) return undefined;
  const secret = config.emulatorCallbackSecret ?? config.callbackSecret ?? generated;
  if (secret === undefined)
    throw new ConfigError(
      'EMULATOR_CALLBACK_URL needs EMULATOR_CALLBACK_SECRET (or IM_CALLBACK_SECRET): the signature the receiver checks',
    );
  return { urls: config.emulatorCallbackUrls, secret, faults: config.emulatorCallbackFaults };
}
