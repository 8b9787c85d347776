// Callback messages as the gateway's callback receiver hands them to the subscriptions' sink.
import type { CallbackMessage } from '../../../src/subscriptions/callback-message';
import type { TestEmulator, TestUser } from '../emulator';

/** A CHAT callback for a message `from` sent to `to`. */
export function chat(emu: TestEmulator, from: TestUser, to: TestUser, msgId: string, content: string): CallbackMessage {
  return {
    appId: emu.appId,
    msgId,
    from: String(from.id),
    to: String(to.id),
    type: 'CHAT',
    ctype: 'TEXT',
    content,
    attachment: '',
    config: '',
    ext: '',
    timestamp: String(Date.now()),
    receivedAt: Date.now(),
  };
}
