// A scripted IM service (scripted-server.ts) holding one conversation whose middle message is over
// the 8 MiB the gateway reads of one answer: the emulator bounds content far below that
// (src/emulator/NOTES.md). For the oversized-message test and bench/abuse-edges.ts (F16).
import { envelope, type Script } from './scripted-server';

export const OVERSIZED_PEER = 2_000_000_000_002;
const MiB = 1024 * 1024;

interface Stored {
  id: number;
  content: string;
}

/** Newest first, as the service pages: the middle one is over the cap. */
export const conversation = (): Stored[] => [
  { id: 300, content: 'newest' },
  { id: 200, content: 'x'.repeat(9 * MiB) },
  { id: 100, content: 'oldest' },
];

const record = (m: Stored) =>
  `{"msg_id":${m.id},"ctype":"TEXT","content":"${m.content}","attachment":"","config":"","ext":"","status":"READ",` +
  `"timestamp":1700000000000,"from_xid":{"uid":${OVERSIZED_PEER},"device_sn":0},"to_xid":{"uid":1,"device_sn":0}}`;

/** GET /message/conversation as the service answers it: the `limit` messages older than msg_id_start (0: the newest). */
function page(messages: readonly Stored[], start: number, limit: number): string {
  const older = messages.filter((m) => start === 0 || m.id < start);
  const shown = older.slice(0, limit);
  const data = `{"is_last":${older.length <= limit},"messages":[${shown.map(record).join(',')}],"next_msg_id":${shown.at(-1)?.id ?? 0}}`;
  return `{"code":200,"message":null,"data":${data}}`;
}

/** The service: `messages` (changed in place by a test) as the one conversation, in the home list too; empty answers elsewhere. */
export const oversizedService =
  (messages: readonly Stored[]): Script =>
  (req) => {
    if (req.path === '/message/conversation') {
      const body = page(messages, Number(req.query.get('msg_id_start')), Number(req.query.get('limit')));
      return { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body };
    }
    if (req.path === '/message/unread') return envelope([{ conversation_id: { uid: OVERSIZED_PEER }, num: 0 }]);
    if (req.path === '/user/conversation/pin_list') return envelope({ conversation_ids: [] });
    return envelope([]);
  };
