// What the receiving user's auth_mode (document 2) makes of an application addressed to them.
import { Code, ImError } from '../errors';
import type { UserRecord } from '../users/model';
import { AUTH_MODE } from './model';

/** 'friends': the two become friends at once; 'pending': the receiver decides (8.1, 8.7). */
export type Admission = 'friends' | 'pending';

/**
 * auth_mode 0 admits, 1 asks the receiver, 2 admits an exact auth_answer and refuses a wrong or
 * missing one with 10010, 3 refuses with 10012. Throws before anything changes.
 */
export function admission(receiver: UserRecord, authAnswer: string | undefined): Admission {
  const { auth_mode, auth_answer } = receiver.settings;
  if (auth_mode === AUTH_MODE.CONSENT) return 'pending';
  if (auth_mode === AUTH_MODE.REFUSE_ALL) {
    throw new ImError(Code.REFUSES_FRIENDS, `user ${receiver.id} refuses friend applications`);
  }
  if (auth_mode === AUTH_MODE.QUESTION && authAnswer !== auth_answer) {
    const why = authAnswer === undefined ? 'is missing' : 'is wrong';
    throw new ImError(Code.NO_PERMISSION, `user ${receiver.id} admits only the answer to their question (auth_mode 2): auth_answer ${why}`);
  }
  return 'friends';
}
