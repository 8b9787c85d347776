// What the 2026 message tests share: the send-body without attachment (the 2026 contract), reads
// of a history and of 5.7, and a look at a conversation from both sides for "nothing changed".
import type { ConversationPage, MessageRecord, UnreadEntry } from '../../../src/rest/records';
import type { TestEmulator, TestUser } from '../../helpers/emulator';
import { sessions } from './sessions';

/** A text to users, without attachment; `more` overrides any field. */
export const text = (targets: number[], more: Record<string, unknown> = {}) => ({
  content_type: 0,
  content: 'hello',
  targets,
  type: 1,
  ...more,
});

export function messaging(emu: TestEmulator) {
  /** The reader's history with `opposite`, newest first (a read: UNREAD ones of others turn DELIVERED). */
  const history = async (reader: TestUser, opposite: number, limit = 100): Promise<MessageRecord[]> =>
    (
      await emu.ok<ConversationPage>('GET', '/message/conversation', {
        token: reader.token,
        query: { limit, msg_id_start: 0, opposite_id: opposite },
      })
    ).messages;

  const unread = (reader: TestUser) => emu.ok<UnreadEntry[]>('GET', '/message/unread', { token: reader.token }).then(sessions);

  /** Each side's history and unread list; read twice, so that the first read's DELIVERED marks are in. */
  async function look(a: TestUser, b: TestUser, conversation: { a: number; b: number } = { a: b.id, b: a.id }) {
    const once = async () => ({
      a: await history(a, conversation.a),
      b: await history(b, conversation.b),
      unreadA: await unread(a),
      unreadB: await unread(b),
    });
    await once();
    return once();
  }

  /** POST /message/send with this user's token; answers the envelope. */
  const send = (from: TestUser, body: Record<string, unknown>) => emu.rest('POST', '/message/send', { token: from.token, body });

  return { history, unread, look, send };
}

/** The content of each message, newest first. */
export const contents = (messages: readonly MessageRecord[]) => messages.map((m) => m.content);
