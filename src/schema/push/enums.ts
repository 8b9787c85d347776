// Push codes of the spec as GraphQL enums; each value's `value` is the code the REST service uses.
import { codeEnum } from '../core/code-enum';

export const PushProvider = codeEnum('PushProvider', 'A vendor push service.', {
  APNS: { value: 1, description: 'Apple Push Notification service.' },
  HUAWEI: { value: 2, description: 'Huawei.' },
  XIAOMI: { value: 3, description: 'Xiaomi.' },
  MEIZU: { value: 4, description: 'Meizu (Flyme).' },
  VIVO: { value: 5, description: 'VIVO.' },
  OPPO: { value: 6, description: 'OPPO.' },
  FCM: { value: 7, description: 'Firebase Cloud Messaging.' },
});

export const PushEnvironment = codeEnum('PushEnvironment', 'Environment of a push certificate.', {
  DEVELOPMENT: { value: 0, description: 'Development.' },
  PRODUCTION: { value: 1, description: 'Production.' },
});

export const PushChannel = codeEnum('PushChannel', 'A channel push statistics are counted for.', {
  APNS: { value: 'apns', description: 'Apple Push Notification service.' },
  FCM: { value: 'fcm', description: 'Firebase Cloud Messaging.' },
  FLYME: { value: 'flyme', description: 'Meizu Flyme.' },
  HUAWEI: { value: 'huawei', description: 'Huawei.' },
  NATIVEPUSH: { value: 'nativepush', description: "The service's own channel." },
  OPPO: { value: 'oppo', description: 'OPPO.' },
  VIVO: { value: 'vivo', description: 'VIVO.' },
  XIAOMI: { value: 'xiaomi', description: 'Xiaomi.' },
});
