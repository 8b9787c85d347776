// Upload authorization in the manner of an OSS POST policy: the policy (base64 JSON: expiry, key,
// size range) is signed with an HMAC under a secret only the emulator knows, so the storage route
// can trust an upload without remembering the targets it handed out.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Code, ImError } from '../errors';

const ACCESS_KEY_ID = 'im-emulator';

/** The fields an upload must carry (oss_body_param). */
export interface SignedFields {
  key: string;
  policy: string;
  signature: string;
  OSSAccessKeyId: string;
  success_action_status: string;
}

interface Policy {
  expiration: string;
  conditions: [{ key: string }, ['content-length-range', number, number]];
}

export interface UploadGrant {
  key: string;
  maxBytes: number;
}

const refused = (why: string) => new ImError(Code.NO_PERMISSION, `upload refused: ${why}`, 403);
const malformed = (why: string) => new ImError(Code.INVALID_PARAMETER, `invalid upload: ${why}`, 400);

export class UploadSigner {
  private readonly secret = randomBytes(32);

  sign(key: string, expiresAt: number, maxBytes: number): SignedFields {
    const body: Policy = {
      expiration: new Date(expiresAt).toISOString(),
      conditions: [{ key }, ['content-length-range', 0, maxBytes]],
    };
    const policy = Buffer.from(JSON.stringify(body)).toString('base64');
    return { key, policy, signature: this.mac(policy), OSSAccessKeyId: ACCESS_KEY_ID, success_action_status: '200' };
  }

  /** Checks the fields of an upload; answers the key and size limit it grants. */
  verify(fields: Readonly<Record<string, string | undefined>>, now: number): UploadGrant {
    const { key, policy, signature, OSSAccessKeyId: accessKeyId } = fields;
    for (const [name, value] of Object.entries({ key, policy, signature, OSSAccessKeyId: accessKeyId })) {
      if (value === undefined || value === '') throw malformed(`field ${name} is required`);
    }
    if (accessKeyId !== ACCESS_KEY_ID) throw refused('unknown OSSAccessKeyId');
    const expected = Buffer.from(this.mac(policy!));
    const given = Buffer.from(signature!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused('signature does not match');
    const decoded = decodePolicy(policy!);
    if (!(Date.parse(decoded.expiration) > now)) throw refused('policy expired');
    if (decoded.conditions[0].key !== key) throw refused('key does not match the policy');
    return { key, maxBytes: decoded.conditions[1][2] };
  }

  private mac(policy: string): string {
    return createHmac('sha256', this.secret).update(policy).digest('base64');
  }
}

// Only policies this signer wrote get here (the signature matched), so the shape is ours.
function decodePolicy(policy: string): Policy {
  return JSON.parse(Buffer.from(policy, 'base64').toString('utf8')) as Policy;
}
