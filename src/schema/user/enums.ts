// User codes of the spec as GraphQL enums; each value's `value` is the code the REST service uses.
import { codeEnum } from '../core/code-enum';

export const AuthMode = codeEnum('AuthMode', 'How others may add the user as a friend.', {
  NONE: { value: 0, description: 'Anyone can add the user.' },
  CONSENT: { value: 1, description: 'The user must consent.' },
  QUESTION: { value: 2, description: 'The requester must answer the verification question.' },
  REJECT_ALL: { value: 3, description: 'All requests are rejected.' },
});

export const UserStatus = codeEnum('UserStatus', 'Account state.', {
  NORMAL: { value: 0, description: 'Normal.' },
  BANNED: { value: 1, description: 'Banned (disabled) by an administrator.' },
});

export const Platform = codeEnum('Platform', 'Platform of a device.', {
  IOS: { value: 1, description: 'iOS.' },
  ANDROID: { value: 2, description: 'Android.' },
  WINDOWS: { value: 3, description: 'Windows.' },
  MAC: { value: 4, description: 'macOS.' },
  LINUX: { value: 5, description: 'Linux.' },
  WEB: { value: 6, description: 'Web.' },
});
