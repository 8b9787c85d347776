// The service's error codes (spec/upstream-notes.md) and the error a handler throws to answer
// with one. Business errors travel inside the envelope with HTTP 200, as the real service does.

export const Code = {
  OK: 200,
  TOKEN_EXPIRED: 402,
  USER_NOT_FOUND: 10000,
  INVALID_PARAMETER: 10002,
  TOKEN_MISSING: 10003,
  USER_EXISTS: 10004,
  FRIEND_EXISTS: 10005,
  ROSTER_BLACKLISTED: 10006,
  FRIEND_APPLICATION_NOT_FOUND: 10007,
  TOKEN_INVALID: 10008,
  NO_PERMISSION: 10010,
  REFUSES_FRIENDS: 10012,
  PUSH_IMAGE_TOO_LARGE: 12002,
  PUSH_TOO_MANY_TARGETS: 12005,
  PUSH_NOT_ENABLED: 12006,
  GROUP_NOT_FOUND: 20001,
  NOT_A_MEMBER: 20002,
  OWNER_CANNOT_LEAVE: 20004,
  TRANSFER_TARGET_NOT_MEMBER: 20005,
  GROUP_FULL: 20010,
  MEMBER_REQUIRED: 20011,
  ADMIN_REQUIRED: 20012,
  OWNER_REQUIRED: 20013,
  APPLICATION_HANDLED: 20014,
  INVITATION_HANDLED: 20015,
  ALREADY_MEMBER: 20017,
  BLACKLISTED: 20018,
  ANNOUNCEMENT_NOT_FOUND: 20020,
  FILE_NOT_FOUND: 20022,
  FILE_NO_PERMISSION: 20023,
  QR_INVALID: 20024,
  QR_EXPIRED: 20025,
  APP_NOT_FOUND: 40000,
} as const;

export type ImCode = (typeof Code)[keyof typeof Code];

export class ImError extends Error {
  constructor(
    readonly code: ImCode,
    message: string,
    /** HTTP status of the answer; the real service answers business errors with 200. */
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'ImError';
  }
}

/** 10002 naming the offending parameter. */
export const invalidParam = (field: string, why: string) => new ImError(Code.INVALID_PARAMETER, `invalid parameter ${field}: ${why}`);
