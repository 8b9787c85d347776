// The local IM service: the table's server with every handler and the file routes, and the
// service's message callback when configured (callbacks/).
import type { CallbackFaults } from '../config';
import { attachCallbacks, type CallbackSender } from './callbacks/sender';
import { fileRoutes } from './files/routes';
import { handlers } from './handlers';
import { defaultEmulatorOptions, type EmulatorOptions } from './options';
import { createEmulatorServer, type EmulatorServer } from './server';

export type { EmulatorServer, RecordedCall } from './server';
export type { EmulatorOptions } from './options';
export type { CallbackSender, CallbackSenderStats } from './callbacks/sender';

/** Where the emulator POSTs each message, as the service's callback does (document 6). */
export interface EmulatorCallbacks {
  urls: readonly string[];
  secret: string;
  faults: CallbackFaults;
  /** Longest wait for one POST's answer (default 5 s). */
  timeoutMs?: number;
}

export interface CreateEmulatorOptions extends Partial<EmulatorOptions> {
  adminToken: string;
  host?: string;
  port?: number;
  clock?: () => number;
  recordCalls?: number;
  /** Calls back every message stored from the start (or later: `callBack`). */
  callbacks?: EmulatorCallbacks;
}

export interface Emulator extends EmulatorServer {
  /** Starts calling back every message stored from now on; stopped with the emulator. */
  callBack(callbacks: EmulatorCallbacks): CallbackSender;
  /** The sender of the callbacks, once there is one. */
  readonly callbacks: CallbackSender | undefined;
}

export function createEmulator(options: CreateEmulatorOptions): Emulator {
  const { host, port, clock, recordCalls, callbacks, ...rest } = options;
  const server = createEmulatorServer({
    options: { ...defaultEmulatorOptions, ...rest },
    handlers,
    rawRoutes: fileRoutes,
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(clock === undefined ? {} : { clock }),
    ...(recordCalls === undefined ? {} : { recordCalls }),
  });
  let sender: CallbackSender | undefined;
  const stopServer = server.stop;
  // Object.assign would read the getter once: the properties are defined on the server itself.
  const emulator = Object.defineProperties(server, {
    callBack: {
      value(o: EmulatorCallbacks) {
        if (sender) throw new Error('the emulator calls back already');
        sender = attachCallbacks(server.state, { appId: server.state.options.appId, ...o });
        return sender;
      },
    },
    callbacks: { get: () => sender },
    stop: {
      async value() {
        await sender?.close();
        sender = undefined;
        await stopServer();
      },
    },
  }) as Emulator;
  if (callbacks) emulator.callBack(callbacks);
  return emulator;
}
