// MessageState: conversations (shared history), each user's views of them (deleted, delivered,
// read), the message index, transaction de-duplication and conversation pins. Paging, unread
// counts, acks, recall and deletion live here; who may send what is decided in send.ts.
import type { AiSendResult, ConversationPage, MessageStatus, UnreadEntry } from '../../rest/records';
import { Code, ImError, invalidParam } from '../errors';
import type { EmulatorOptions } from '../options';
import { type Access, accessOf, canSee, FULL_ACCESS, groupExists, isHistory } from './access';
import { Conversation, type ConversationKey, groupKey, pairKey } from './conversation';
import { isOperation, keptFor, type Peer, type StoredMessage, SYSTEM_UID, toWire } from './model';
import { PinBoard, type PinRoot } from './pins';
import { TransactionLog } from './transactions';
import { ConversationView } from './views';

/** What messages take from the rest of the emulator (the State: ../state.ts). */
export interface MessageRoot extends PinRoot {
  readonly options: EmulatorOptions;
  /** Told of every message once it is stored (the callback sender: ../callbacks/). */
  readonly stored: ReadonlySet<(m: StoredMessage) => void>;
}

/** How many recent sessions 5.7 lists: the service's bound is not documented; 100 is a chat list's. */
export const RECENT_SESSIONS = 100;

export class MessageState {
  private readonly conversations = new Map<ConversationKey, Conversation>();
  /** user → conversation_id (the peer's id) → view. */
  private readonly views = new Map<number, Map<number, ConversationView>>();
  /** msg_id → its conversation, for ack by msg_id and recall. */
  private readonly index = new Map<bigint, Conversation>();
  /** transaction_id of 5.4 and 5.6 (shared: a sender's ID names one request whichever it went to). */
  readonly transactions: TransactionLog;
  /** transaction_id of 9.1: a repeat answers the first call's replies. */
  readonly aiTransactions: TransactionLog<AiSendResult>;
  readonly pins: PinBoard;

  constructor(readonly root: MessageRoot) {
    this.transactions = new TransactionLog(root.options.dedupWindowMs);
    this.aiTransactions = new TransactionLog(root.options.dedupWindowMs);
    this.pins = new PinBoard(root);
  }

  /** Stores a message and makes its conversation appear for the sender and the recipients. */
  deliver(m: StoredMessage, recipients: readonly number[]): void {
    const conv = this.conversationFor(m.to.kind === 'group' ? groupKey(m.to.id) : pairKey(m.from.uid, m.to.id));
    conv.append(m);
    this.index.set(m.id, conv);
    const parties = new Set(recipients);
    if (m.from.uid !== SYSTEM_UID) parties.add(m.from.uid);
    for (const uid of parties) {
      const peer: Peer = m.to.kind === 'group' ? m.to : { kind: 'user', id: uid === m.from.uid ? m.to.id : m.from.uid };
      const view = this.ensureView(uid, peer, conv);
      view.lastActivity = m.id;
      view.lastActivityAt = m.timestamp;
    }
    for (const observe of this.root.stored) observe(m);
  }

  /**
   * 5.2: up to `limit` messages older than `start` (exclusive; 0 = from the newest), newest
   * first. Each shows its status before this read; the read marks others' UNREAD ones DELIVERED.
   */
  page(reader: number, oppositeId: number, start: bigint, limit: number): ConversationPage {
    let view = this.views.get(reader)?.get(oppositeId);
    const peer = view?.peer ?? this.peerOf(oppositeId);
    const access = this.requireAccess(reader, peer);
    const conv = view?.conversation ?? this.conversations.get(this.keyOf(reader, peer));
    if (!conv) return { is_last: true, messages: [], next_msg_id: 0 };

    const floor = conv.lowerBound((view?.since ?? 0n) + 1n);
    let i = (start === 0n ? conv.messages.length : conv.lowerBound(start)) - 1;
    const picked: StoredMessage[] = [];
    for (; i >= floor && picked.length < limit; i--) {
      const m = conv.messages[i]!;
      if (canSee(access, m, reader)) picked.push(m);
    }
    let older = false;
    for (; i >= floor && !older; i--) older = canSee(access, conv.messages[i]!, reader);

    const messages = picked.map((m) => {
      const status = this.statusFor(reader, view, access, m);
      if (status === 'UNREAD') (view ??= this.ensureView(reader, peer, conv)).delivered.add(m.id);
      return toWire(m, status);
    });
    return { is_last: !older, messages, next_msg_id: picked[picked.length - 1]?.id ?? 0 };
  }

  /**
   * 5.7, "recent sessions with unread counts": the reader's RECENT_SESSIONS most recent
   * conversations (one-to-one and group), pinned ones first in pin order, then newest activity
   * first, read ones with num 0. A deleted conversation leaves the list until its next message.
   * conversation_id carries the time of the newest activity (ms). The readings and the bound:
   * ../NOTES.md.
   */
  unread(reader: number): UnreadEntry[] {
    const recent: { view: ConversationView; access: Access }[] = [];
    for (const view of this.views.get(reader)?.values() ?? []) {
      const access = view.recent ? accessOf(this.root, reader, view.peer) : undefined;
      if (access) recent.push({ view, access }); // none: not recent, or a group left or dissolved
    }
    // Pins are at most MAX_PINS (< RECENT_SESSIONS): sorted first, the bound never cuts one.
    const pinned = new Map(this.pins.list(reader).map((id, rank) => [id, rank]));
    const rank = (view: ConversationView) => pinned.get(view.peer.id) ?? pinned.size;
    recent.sort(
      (a, b) =>
        rank(a.view) - rank(b.view) || (a.view.lastActivity < b.view.lastActivity ? 1 : a.view.lastActivity > b.view.lastActivity ? -1 : 0),
    );
    return recent.slice(0, RECENT_SESSIONS).map(({ view, access }) => ({
      conversation_id: { uid: view.peer.id, timestamp: view.lastActivityAt },
      num: this.unreadCount(view, access),
    }));
  }

  /** 5.1: READ up to and including msgId, or the whole conversation. */
  ack(reader: number, conversationId: number | undefined, msgId: bigint | undefined): void {
    let id = conversationId;
    if (id === undefined) {
      if (msgId === undefined) throw invalidParam('conversation_id', 'is required unless msg_id is given');
      const m = this.index.get(msgId)?.find(msgId);
      id = m && keptFor(m, reader) ? this.sideOf(reader, m) : undefined;
      if (id === undefined) throw invalidParam('msg_id', `no message ${msgId} in the conversations of user ${reader}`);
    }
    const view = this.knownView(reader, id, conversationId === undefined ? 'msg_id' : 'conversation_id');
    const acked = msgId === undefined ? undefined : view.conversation.find(msgId);
    if (msgId !== undefined && !(acked && keptFor(acked, reader))) {
      throw invalidParam('msg_id', `no message ${msgId} in conversation ${id}`);
    }
    view.markRead(msgId ?? view.conversation.last?.id ?? 0n);
  }

  /** 5.5: the sender takes a message back; it leaves every history and unread count. */
  recall(actorUid: number, conversationId: number, msgId: bigint): void {
    const conv = this.index.get(msgId);
    const m = conv?.find(msgId);
    if (!conv || !m) throw invalidParam('msg_id', `no message ${msgId}`);
    if (!this.sidesOf(m).includes(conversationId)) {
      throw invalidParam('conversation_id', `message ${msgId} is not in conversation ${conversationId}`);
    }
    if (m.from.uid !== actorUid) throw new ImError(Code.NO_PERMISSION, 'only the sender may recall a message');
    conv.remove(msgId);
    this.index.delete(msgId);
  }

  /** 5.3: hides the history from this user only; a later message shows the conversation again. Unpins it. */
  deleteConversation(reader: number, conversationId: number): void {
    this.knownView(reader, conversationId, 'conversation_id').clear();
    this.pins.unpin(reader, conversationId);
  }

  /**
   * The message `msgId` of the reader's conversation with `peer`, when the reader sees it (the
   * target of an operation message): a sender always sees its own; others as a page would show it.
   */
  related(reader: number, peer: Peer, msgId: bigint): StoredMessage | undefined {
    const m = this.conversations.get(this.keyOf(reader, peer))?.find(msgId);
    if (!m || m.from.uid === reader) return m;
    const access = accessOf(this.root, reader, peer);
    return access && canSee(access, m, reader) ? m : undefined;
  }

  /** Whether the reader has (had) a conversation with this ID: a message reached it, or a read began it. */
  hasConversation(reader: number, conversationId: number): boolean {
    return this.views.get(reader)?.has(conversationId) ?? false;
  }

  // ---- internals ----

  private conversationFor(key: ConversationKey): Conversation {
    let conv = this.conversations.get(key);
    if (!conv) this.conversations.set(key, (conv = new Conversation(key)));
    return conv;
  }

  private ensureView(uid: number, peer: Peer, conv: Conversation): ConversationView {
    let mine = this.views.get(uid);
    if (!mine) this.views.set(uid, (mine = new Map()));
    let view = mine.get(peer.id);
    if (!view) mine.set(peer.id, (view = new ConversationView(uid, peer, conv)));
    return view;
  }

  private keyOf(reader: number, peer: Peer): ConversationKey {
    return peer.kind === 'group' ? groupKey(peer.id) : pairKey(reader, peer.id);
  }

  /** What an opposite_id names when the reader has no view of it yet. */
  private peerOf(id: number): Peer {
    if (id === SYSTEM_UID || this.root.users.get(id)) return { kind: 'user', id };
    if (groupExists(this.root, id)) return { kind: 'group', id };
    throw invalidParam('opposite_id', `no user or group ${id}`);
  }

  /** Users read their own pairs; groups need a live group (20001) and membership (20002). */
  private requireAccess(reader: number, peer: Peer): Access {
    if (peer.kind === 'user') return FULL_ACCESS;
    this.root.groups.requireGroup(peer.id);
    const access = accessOf(this.root, reader, peer);
    if (!access) throw new ImError(Code.NOT_A_MEMBER, `user ${reader} is not a member of group ${peer.id}`);
    return access;
  }

  /** The reader's view for ack and delete: one that exists, or a group the reader belongs to. */
  private knownView(reader: number, id: number, param: string): ConversationView {
    const existing = this.views.get(reader)?.get(id);
    if (existing) return existing;
    const peer: Peer = { kind: 'group', id };
    if (groupExists(this.root, id) && accessOf(this.root, reader, peer)) {
      return this.ensureView(reader, peer, this.conversationFor(groupKey(id)));
    }
    throw invalidParam(param, `no conversation ${id} for user ${reader}`);
  }

  /** The conversation_id of a message as the reader sees it; undefined when not a party. */
  private sideOf(reader: number, m: StoredMessage): number | undefined {
    if (m.to.kind === 'group' || m.from.uid === reader) return m.to.id;
    return m.to.id === reader ? m.from.uid : undefined;
  }

  /** The conversation_ids a message has: the group's, or each party's view of the pair. */
  private sidesOf(m: StoredMessage): number[] {
    return m.to.kind === 'group' ? [m.to.id] : [m.to.id, m.from.uid];
  }

  private statusFor(reader: number, view: ConversationView | undefined, access: Access, m: StoredMessage): MessageStatus {
    if (m.from.uid === reader) return this.ownStatus(reader, m);
    if (isHistory(access, m)) return 'READ'; // sent before the reader joined: history, not news
    if (view && m.id <= view.readUpTo) return 'READ';
    if (view?.delivered.has(m.id)) return 'DELIVERED';
    return 'UNREAD';
  }

  /** A sender sees the receiver's status in a pair (read receipts); group sends show DELIVERED. */
  private ownStatus(reader: number, m: StoredMessage): MessageStatus {
    if (m.to.kind === 'group') return 'DELIVERED';
    if (m.to.id === reader) return 'READ';
    return this.statusFor(m.to.id, this.views.get(m.to.id)?.get(reader), FULL_ACCESS, m);
  }

  private unreadCount(view: ConversationView, access: Access): number {
    const conv = view.conversation;
    const floor = view.since > view.readUpTo ? view.since : view.readUpTo;
    let num = 0;
    for (let i = conv.lowerBound(floor + 1n); i < conv.messages.length; i++) {
      const m = conv.messages[i]!;
      // Operation messages kept in history (APPEND, REPLACE) change a message already counted.
      if (m.from.uid !== view.ownerId && !isHistory(access, m) && !isOperation(m.ctype) && keptFor(m, view.ownerId)) num++;
    }
    return num;
  }
}
