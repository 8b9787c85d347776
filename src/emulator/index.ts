// The local IM service: the table's server with every handler and the file routes.
import { fileRoutes } from './files/routes';
import { handlers } from './handlers';
import { defaultEmulatorOptions, type EmulatorOptions } from './options';
import { createEmulatorServer, type EmulatorServer } from './server';

export type { EmulatorServer, RecordedCall } from './server';
export type { EmulatorOptions } from './options';

export interface CreateEmulatorOptions extends Partial<EmulatorOptions> {
  adminToken: string;
  host?: string;
  port?: number;
  clock?: () => number;
  recordCalls?: number;
}

export function createEmulator(options: CreateEmulatorOptions): EmulatorServer {
  const { host, port, clock, recordCalls, ...rest } = options;
  return createEmulatorServer({
    options: { ...defaultEmulatorOptions, ...rest },
    handlers,
    rawRoutes: fileRoutes,
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(clock === undefined ? {} : { clock }),
    ...(recordCalls === undefined ? {} : { recordCalls }),
  });
}
