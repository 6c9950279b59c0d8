import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies } from './http/clientAddress';
import {
  contactLink,
  type LandingContent,
  readLandingContent,
  SAMPLE_LANDING_CONTENT,
  webLink,
} from './http/webConfig';

const optionalUrl = z.url().optional();

/** Environment variables the API reads (DESIGN.md, Configuration), each with a safe default for the embedded run. */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  APP_SECRET: z.string().min(32, 'APP_SECRET must be at least 32 characters').optional(),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default('Topline <no-reply@topline.local>'),
  /** Billing through Stripe; unset turns billing off (the billing calls answer 503, tiers come from the admin CLI). */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The signing secret of the webhook endpoint (`whsec_...`); events are refused without it. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe's price ids of each plan and interval (`price_...`). */
  STRIPE_PRICE_BASIC_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_BASIC_YEARLY: z.string().min(1).optional(),
  STRIPE_PRICE_TEAM_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_TEAM_YEARLY: z.string().min(1).optional(),
  /** A server that speaks Stripe's API (the SDK's protocol, host and port); unset is Stripe. Tests serve their own. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: 'STRIPE_API_BASE must be an http or https URL' }).optional(),
  /** Days of the trial a new account starts with; 0 starts new accounts on Free. */
  TRIAL_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** Google's ID-token signing keys in PEM form (the one google-auth-library reads under Node); tests serve their own. */
  GOOGLE_CERTS_URL: z.url().default('https://www.googleapis.com/oauth2/v1/certs'),
  /** A server that speaks the Sheets, Drive and userinfo APIs (their root URL); unset is Google's. For tests. */
  GOOGLE_API_BASE: z.url({ protocol: /^https?$/, error: 'GOOGLE_API_BASE must be an http or https URL' }).optional(),
  /** A server with Google's OAuth endpoints (/o/oauth2/v2/auth, /token, /revoke); unset is Google's. For tests. */
  GOOGLE_OAUTH_BASE: z
    .url({ protocol: /^https?$/, error: 'GOOGLE_OAUTH_BASE must be an http or https URL' })
    .optional(),
  /** Where e-mailed links point; unset follows PORT on localhost. */
  PUBLIC_URL: z.url().optional(),
  /** The outside links the web shows (README.md's table); an unset one is not shown anywhere. */
  DEMO_BOOKING_URL: webLink('DEMO_BOOKING_URL').optional(),
  CONTACT_URL: contactLink('CONTACT_URL').optional(),
  MARKETING_SITE_JA_URL: webLink('MARKETING_SITE_JA_URL').optional(),
  MARKETING_SITE_EN_URL: webLink('MARKETING_SITE_EN_URL').optional(),
  KNOWLEDGE_URL: webLink('KNOWLEDGE_URL').optional(),
  HELP_URL: webLink('HELP_URL').optional(),
  FEEDBACK_URL: webLink('FEEDBACK_URL').optional(),
  INDUSTRY_DATABASE_URL: webLink('INDUSTRY_DATABASE_URL').optional(),
  BLOG_URL: webLink('BLOG_URL').optional(),
  SOCIAL_URL: webLink('SOCIAL_URL').optional(),
  /** The addresses the legal pages give; an unset one leaves its line out. */
  SUPPORT_EMAIL: z.email({ error: 'SUPPORT_EMAIL must be an e-mail address' }).optional(),
  PRIVACY_EMAIL: z.email({ error: 'PRIVACY_EMAIL must be an e-mail address' }).optional(),
  /** The landing page's content (a JSON file: `http/webConfig.ts`); unset is the sample in fixtures/landing. */
  LANDING_CONTENT: z.string().min(1).optional(),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 14),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().positive().default(60),
  /** Days an invitation link lives; the owner's resend makes a new one. */
  INVITATION_TTL_DAYS: z.coerce.number().positive().max(365).default(14),
  LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  /**
   * `json`: one JSON object a line with the request id, for a service's log collector; unset is `json` when NODE_ENV
   * is production, else plain text for a terminal.
   */
  LOG_FORMAT: z.enum(['text', 'json']).optional(),
  NODE_ENV: z.string().optional(),
  /** `false` leaves the schema to `npm run migrate` (a deployment that migrates once, before it starts processes). */
  MIGRATE_AT_START: z
    .enum(['true', 'false'])
    .default('true')
    .transform((text) => text === 'true'),
  /** The built web app the built server serves (`npm run serve`); unset is the repository's `web/dist`. */
  WEB_DIST: z.string().min(1).optional(),
  /** On SIGTERM, how long answers in progress and queued plan writes may take before the process gives up on them. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * The proxies in front of the API (addresses or CIDR networks, comma-separated) whose X-Forwarded-For is believed;
   * unset believes none, and the socket's address is the client's (`http/clientAddress.ts`).
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((text, ctx) => {
      try {
        return parseTrustedProxies(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'APP_SECRET' | 'DATA_DIR' | 'PUBLIC_URL'> {
  DATA_DIR: string;
  APP_SECRET: string;
  PUBLIC_URL: string;
  /** The file `LANDING_CONTENT` names, read and checked at start. */
  landingContent: LandingContent;
}

/** Raised when an environment variable has a value the API cannot use; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses the environment once. Empty strings count as unset.
 * When APP_SECRET is unset a random one is generated into DATA_DIR/app-secret and reused on later starts.
 * @throws ConfigError naming every variable with a bad value.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') cleaned[key] = value.trim();
  }
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join('; ')}`);
  }
  const dataDir = resolve(parsed.data.DATA_DIR);
  let landingContent: LandingContent;
  try {
    landingContent = readLandingContent(resolve(parsed.data.LANDING_CONTENT ?? SAMPLE_LANDING_CONTENT));
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
  return {
    ...parsed.data,
    DATA_DIR: dataDir,
    APP_SECRET: parsed.data.APP_SECRET ?? appSecretIn(dataDir),
    PUBLIC_URL: parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`,
    landingContent,
  };
}

function appSecretIn(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
