/**
 * What the Google Sheets link keeps, and the secrets around it: the `spreadsheet_links` row of a plan, its tokens
 * encrypted at rest with AES-256-GCM under a key derived from APP_SECRET (HKDF-SHA256), and the signed `state` that
 * goes to Google's consent page and comes back to `connect`, naming the user and the plan it was made for.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../db';

export interface SpreadsheetLinkRow {
  business_plan_id: number;
  user_id: number;
  google_email: string;
  google_name: string;
  google_picture: string | null;
  /** Encrypted (`sealToken`). */
  refresh_token: string;
  /** Encrypted (`sealToken`). */
  access_token: string | null;
  access_expires_at: Date | null;
  needs_reconnect: boolean;
  spreadsheet_id: string | null;
  spreadsheet_name: string | null;
  spreadsheet_url: string | null;
}

const TOKEN_FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** How long a consent page's `state` stays good: the time a person takes to choose an account and agree. */
const STATE_TTL = '15m';
const STATE_AUDIENCE = 'topline:spreadsheet-connect';

/** The AES-256-GCM key for tokens and the HMAC key for `state`, each derived from APP_SECRET for its one use. */
export class SheetsSecrets {
  private readonly tokenKey: Buffer;
  private readonly stateKey: Uint8Array;

  constructor(appSecret: string) {
    this.tokenKey = Buffer.from(hkdfSync('sha256', appSecret, 'topline', 'spreadsheet-link-tokens', 32));
    this.stateKey = new Uint8Array(hkdfSync('sha256', appSecret, 'topline', 'spreadsheet-connect-state', 32));
  }

  /** `v1.<iv>.<ciphertext>.<tag>` in base64url; the plan id is bound in as associated data. */
  seal(token: string, planId: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.tokenKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(`plan:${planId}`));
    const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [TOKEN_FORMAT, iv, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /**
   * The token `seal` encrypted for this plan.
   * @throws Error when the text was not sealed with this key for this plan, or was changed.
   */
  open(sealed: string, planId: number): string {
    const [format, iv, body, tag] = sealed.split('.');
    if (format !== TOKEN_FORMAT || !iv || body === undefined || !tag) throw new Error('not a sealed token');
    const decipher = createDecipheriv('aes-256-gcm', this.tokenKey, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(`plan:${planId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** The `state` of a consent page opened by `userId` for `planId`: signed, short-lived, with a random nonce. */
  async state(userId: number, planId: number): Promise<string> {
    return new SignJWT({ uid: userId, pid: planId })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(STATE_AUDIENCE)
      .setJti(randomBytes(12).toString('base64url'))
      .setIssuedAt()
      .setExpirationTime(STATE_TTL)
      .sign(this.stateKey);
  }

  /** Whether `state` is one this server signed, still good, for this user and this plan. */
  async stateMatches(state: string, userId: number, planId: number): Promise<boolean> {
    try {
      const { payload } = await jwtVerify(state, this.stateKey, { audience: STATE_AUDIENCE, algorithms: ['HS256'] });
      return payload.uid === userId && payload.pid === planId;
    } catch {
      return false;
    }
  }
}

export async function linkOf(db: Db, planId: number): Promise<SpreadsheetLinkRow | undefined> {
  return db<SpreadsheetLinkRow>('spreadsheet_links').where({ business_plan_id: planId }).first();
}

/** Keeps the account and grant connected to the plan, replacing any earlier one (and its spreadsheet link). */
export async function saveLink(
  db: Db,
  link: Omit<SpreadsheetLinkRow, 'needs_reconnect' | 'spreadsheet_id' | 'spreadsheet_name' | 'spreadsheet_url'> & {
    spreadsheet_id?: string | null;
    spreadsheet_name?: string | null;
    spreadsheet_url?: string | null;
  },
): Promise<void> {
  const row = {
    spreadsheet_id: null,
    spreadsheet_name: null,
    spreadsheet_url: null,
    ...link,
    needs_reconnect: false,
    updated_at: new Date(),
  };
  await db('spreadsheet_links').insert(row).onConflict('business_plan_id').merge();
}

export async function updateLink(
  db: Db,
  planId: number,
  changes: Partial<Omit<SpreadsheetLinkRow, 'business_plan_id'>>,
): Promise<void> {
  await db('spreadsheet_links')
    .where({ business_plan_id: planId })
    .update({ ...changes, updated_at: new Date() });
}

export async function deleteLink(db: Db, planId: number): Promise<void> {
  await db('spreadsheet_links').where({ business_plan_id: planId }).delete();
}
