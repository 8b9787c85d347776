// Batch operations answer one result per item; one bad item never fails the others. An item's
// refusal is the ImError its action threw (the action must check before it changes anything).
import type { Int64 } from '../../rest/json';
import type { FileOperationResult, OperationResult } from '../../rest/records';
import { ImError } from '../errors';
import { idOf } from './model';

type Outcome = Pick<OperationResult, 'result' | 'reason'>;

function attempt(act: () => void): Outcome {
  try {
    act();
    return { result: 'success', reason: '' };
  } catch (err) {
    if (err instanceof ImError) return { result: 'fail', reason: err.message };
    throw err;
  }
}

export const perUser = (ids: readonly Int64[], act: (userId: number) => void): OperationResult[] =>
  ids.map((id) => ({ user_id: id, ...attempt(() => act(idOf(id))) }));

export const perFile = (ids: readonly Int64[], act: (fileId: number) => void): FileOperationResult[] =>
  ids.map((id) => ({ file_id: id, ...attempt(() => act(idOf(id))) }));
