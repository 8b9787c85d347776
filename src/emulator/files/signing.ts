// Signatures under a secret only the emulator knows. Upload authorization in the manner of an OSS
// POST policy: the policy (base64 JSON: expiry, key, size range) is signed with an HMAC, so the
// storage route can trust an upload without remembering the targets it handed out. And a chat
// file's file_sign: an HMAC of its key, so that the sign names a file without being its key (a
// client that sends the key as file_sign is refused, as it would be by the service).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidArgument, policyRefused, StorageError } from './storage-errors';

const ACCESS_KEY_ID = 'im-emulator';

/** The fields an upload must carry (oss_body_param), as the service's Aliyun storage names them. */
export interface SignedFields {
  OSSAccessKeyId: string;
  policy: string;
  signature: string;
  callback: string;
  key: string;
}

interface Policy {
  expiration: string;
  conditions: [{ key: string }, ['content-length-range', number, number]];
}

export interface UploadGrant {
  key: string;
  maxBytes: number;
}

export class UploadSigner {
  private readonly secret = randomBytes(32);

  sign(key: string, expiresAt: number, maxBytes: number, callback: string): SignedFields {
    const body: Policy = {
      expiration: new Date(expiresAt).toISOString(),
      conditions: [{ key }, ['content-length-range', 0, maxBytes]],
    };
    const policy = Buffer.from(JSON.stringify(body)).toString('base64');
    return { OSSAccessKeyId: ACCESS_KEY_ID, policy, signature: this.mac(`policy\0${policy}`, 'base64'), callback, key };
  }

  /** Checks the policy fields of an upload; answers the key and size limit it grants. */
  verify(fields: Readonly<Record<string, string | undefined>>, now: number): UploadGrant {
    const { key, policy, signature, OSSAccessKeyId: accessKeyId } = fields;
    for (const [name, value] of Object.entries({ key, policy, signature, OSSAccessKeyId: accessKeyId })) {
      if (value === undefined || value === '') throw invalidArgument(`field ${name} is required`);
    }
    if (accessKeyId !== ACCESS_KEY_ID)
      throw new StorageError(403, 'InvalidAccessKeyId', 'The OSS Access Key Id you provided does not exist.');
    const expected = Buffer.from(this.mac(`policy\0${policy!}`, 'base64'));
    const given = Buffer.from(signature!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new StorageError(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    const decoded = decodePolicy(policy!);
    if (!(Date.parse(decoded.expiration) > now)) throw policyRefused('Policy expired.');
    if (decoded.conditions[0].key !== key) throw policyRefused('Policy Condition failed: ["eq", "$key", ...]');
    return { key, maxBytes: decoded.conditions[1][2] };
  }

  /** A chat file's file_sign: URL-safe, never equal to the key, the same for the same key. */
  fileSign(key: string): string {
    return this.mac(`file\0${key}`, 'base64url');
  }

  // The prefixes keep the two kinds of MAC apart: no policy's signature is ever a file's sign.
  private mac(text: string, encoding: 'base64' | 'base64url'): string {
    return createHmac('sha256', this.secret).update(text).digest(encoding);
  }
}

// Only policies this signer wrote get here (the signature matched), so the shape is ours.
function decodePolicy(policy: string): Policy {
  return JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as Policy;
}
