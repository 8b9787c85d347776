// Push providers (7.1 numbers them 1..7) and the statistics channel each one feeds. A device's
// bound notifier_name (1.38) is a certificate name, such as 'huawei-production', whose leading
// provider key says which vendor channel the device is reached through.
import type { PushChannel } from '../../rest/records';

interface Provider {
  /** Name in certificate names and in ospush_sequence. */
  readonly key: 'apns' | 'huawei' | 'xiaomi' | 'meizu' | 'vivo' | 'oppo' | 'fcm';
  readonly channel: PushChannel;
}

export const PROVIDERS: Readonly<Record<number, Provider>> = {
  1: { key: 'apns', channel: 'apns' },
  2: { key: 'huawei', channel: 'huawei' },
  3: { key: 'xiaomi', channel: 'xiaomi' },
  4: { key: 'meizu', channel: 'flyme' },
  5: { key: 'vivo', channel: 'vivo' },
  6: { key: 'oppo', channel: 'oppo' },
  7: { key: 'fcm', channel: 'fcm' },
};

/** The 'ups' entry of ospush_sequence: the domestic Android vendors. */
export const DOMESTIC_CHANNELS: ReadonlySet<PushChannel> = new Set(['huawei', 'xiaomi', 'flyme', 'oppo', 'vivo']);

/** The channel of a certificate (notifier) name, by its leading provider key ('flyme' also counts). */
export function channelOfNotifier(name: string): PushChannel | undefined {
  const lower = name.toLowerCase();
  for (const p of Object.values(PROVIDERS)) {
    if (lower.startsWith(p.key) || lower.startsWith(p.channel)) return p.channel;
  }
  return undefined;
}

/** The channel an ospush_sequence entry other than 'ups' names. */
export function channelOfVendor(entry: string): PushChannel | undefined {
  return Object.values(PROVIDERS).find((p) => p.key === entry)?.channel;
}
