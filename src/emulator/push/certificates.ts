// 7.1: demo certificates, the same for the same app, provider and environment on every start, so
// a client can cache them and tests can compare them. The name is what devices bind as their
// notifier_name (1.38).
import { createHash } from 'node:crypto';
import type { PushCertificate } from '../../rest/records';
import { PROVIDERS } from './providers';

export function certificateOf(appId: string, provider: number, environment: number): PushCertificate {
  const p = PROVIDERS[provider]!; // the table restricts provider to 1..7
  const digest = createHash('sha256').update(`${appId}/${p.key}/${environment}`).digest();
  const hex = digest.toString('hex');
  const envName = environment === 0 ? 'development' : 'production';
  return {
    app_id: BigInt(`0x${hex.slice(0, 12)}`).toString(),
    app_key: hex.slice(12, 44),
    app_secret: hex.slice(32, 64),
    certificate: p.key === 'apns' ? `-----BEGIN CERTIFICATE-----\n${digest.toString('base64')}\n-----END CERTIFICATE-----\n` : '',
    name: `${p.key}-${envName}`,
  };
}
