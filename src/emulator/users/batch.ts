// Batch endpoints answer one result per entry: a refused entry fails alone, the others apply.
import type { Int64 } from '../../rest/json';
import type { UserBatchResult } from '../../rest/records';
import { ImError } from '../errors';

type Identity = Pick<UserBatchResult, 'user_id' | 'username'>;

/** Runs one entry; a service refusal (ImError) becomes its failed result, anything else throws. */
export function perEntry(identity: Identity, apply: () => Identity | void): UserBatchResult {
  try {
    return { success: true, reason: '', ...identity, ...apply() };
  } catch (err) {
    if (!(err instanceof ImError)) throw err;
    return { success: false, reason: err.message, ...identity };
  }
}

export const NO_USER: Int64 = 0;
