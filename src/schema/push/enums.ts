// Push enums, declared as every enum is (see user/enums.ts): providers, channels and the options of sendPush.
import { builder } from '../core/builder';

export const PushProvider = builder.enumType('PushProvider', {
  description: 'A vendor push service.',
  values: {
    APNS: { value: 1, description: 'Apple Push Notification service.' },
    HUAWEI: { value: 2, description: 'Huawei.' },
    XIAOMI: { value: 3, description: 'Xiaomi.' },
    MEIZU: { value: 4, description: 'Meizu (Flyme).' },
    VIVO: { value: 5, description: 'VIVO.' },
    OPPO: { value: 6, description: 'OPPO.' },
    FCM: { value: 7, description: 'Firebase Cloud Messaging.' },
  },
});

export const PushEnvironment = builder.enumType('PushEnvironment', {
  description: 'Environment of a push certificate.',
  values: {
    DEVELOPMENT: { value: 0, description: 'Development.' },
    PRODUCTION: { value: 1, description: 'Production.' },
  },
});

export const PushChannel = builder.enumType('PushChannel', {
  description: 'A channel push statistics are counted for.',
  values: {
    APNS: { value: 'apns', description: 'Apple Push Notification service.' },
    FCM: { value: 'fcm', description: 'Firebase Cloud Messaging.' },
    FLYME: { value: 'flyme', description: 'Meizu Flyme.' },
    HUAWEI: { value: 'huawei', description: 'Huawei.' },
    NATIVEPUSH: { value: 'nativepush', description: "The service's own channel." },
    OPPO: { value: 'oppo', description: 'OPPO.' },
    VIVO: { value: 'vivo', description: 'VIVO.' },
    XIAOMI: { value: 'xiaomi', description: 'Xiaomi.' },
  },
});

export const PushDistributionStrategy = builder.enumType('PushDistributionStrategy', {
  description: 'Which channels a push uses.',
  values: {
    COMBINED: {
      value: 'combined',
      description: "The service's own channel first, the vendor channel if the device is offline (the default).",
    },
    NATIVEPUSH_ONLY: { value: 'nativepush_only', description: "The service's own channel only." },
    OSPUSH_ONLY: { value: 'ospush_only', description: 'The vendor channel only.' },
  },
});

export const OsPushVendor = builder.enumType('OsPushVendor', {
  description: 'A vendor push channel, in the order vendors are tried.',
  values: {
    UPS: { value: 'ups', description: 'The domestic vendors: Xiaomi, Huawei, Meizu, OPPO, VIVO.' },
    FCM: { value: 'fcm', description: 'Firebase Cloud Messaging.' },
    HUAWEI: { value: 'huawei', description: 'Huawei.' },
    XIAOMI: { value: 'xiaomi', description: 'Xiaomi.' },
    OPPO: { value: 'oppo', description: 'OPPO.' },
    VIVO: { value: 'vivo', description: 'VIVO.' },
    MEIZU: { value: 'meizu', description: 'Meizu.' },
  },
});

export const PushMessageType = builder.enumType('PushMessageType', {
  description: 'Kind of push message.',
  values: {
    TEXT: { value: 'text', description: 'Text (the default).' },
    IMAGE: { value: 'image', description: 'With an image: attachmentUrl ends in jpg, jpeg or png; the image is under 1 MB.' },
    CMD: { value: 'cmd', description: 'Pass-through command for the app.' },
  },
});

export const PushClickAction = builder.enumType('PushClickAction', {
  description: 'What tapping the notification does.',
  values: {
    INTENT: { value: 'intent', description: 'Open a specific page: intent is required.' },
    OPEN_APP: { value: 'open_app', description: 'Open the app home.' },
  },
});

export const VivoPushMode = builder.enumType('VivoPushMode', {
  description: 'VIVO push mode.',
  values: {
    FORMAL: { value: 0, description: 'Formal push (the default).' },
    TEST: { value: 1, description: 'Test push.' },
  },
});

export const VivoClassification = builder.enumType('VivoClassification', {
  description: 'VIVO message classification.',
  values: {
    OPERATIONAL: { value: 0, description: 'Operational message (the default).' },
    SYSTEM: { value: 1, description: 'System message.' },
  },
});
