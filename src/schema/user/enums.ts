// User enums. Every enum is declared one way, in its domain's enums.ts: builder.enumType with a
// description, and for each value its `value` (the code the REST service sends or takes) and a
// description. core/user-errors.ts builds UserErrorCode the same way from its table of refusals.
import { builder } from '../core/builder';

export const AuthMode = builder.enumType('AuthMode', {
  description: 'How others may add the user as a friend.',
  values: {
    NONE: { value: 0, description: 'Anyone can add the user.' },
    CONSENT: { value: 1, description: 'The user must consent.' },
    QUESTION: { value: 2, description: 'The requester must answer the verification question.' },
    REJECT_ALL: { value: 3, description: 'All requests are rejected.' },
  },
});

export const UserStatus = builder.enumType('UserStatus', {
  description: 'Account state.',
  values: {
    NORMAL: { value: 0, description: 'Normal.' },
    BANNED: { value: 1, description: 'Banned (disabled) by an administrator.' },
  },
});

export const Platform = builder.enumType('Platform', {
  description: 'Platform of a device.',
  values: {
    IOS: { value: 1, description: 'iOS.' },
    ANDROID: { value: 2, description: 'Android.' },
    WINDOWS: { value: 3, description: 'Windows.' },
    MAC: { value: 4, description: 'macOS.' },
    LINUX: { value: 5, description: 'Linux.' },
    WEB: { value: 6, description: 'Web.' },
  },
});
