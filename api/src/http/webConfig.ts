/**
 * What the web app learns at run time from `/config.js`: the outside links a deployment sets (each its own
 * environment variable; an unset one is left out, and the web then shows no such link) and the landing page's content
 * (`LANDING_CONTENT`, a JSON file a deployment replaces).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The shipped sample of the landing content. This module sits three folders below the repository's root (as the built
 * server does: `buildServer.ts`), so the path holds in both.
 */
export const SAMPLE_LANDING_CONTENT = resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'fixtures',
  'landing',
  'content.json',
);

/** An address the browser may open: http or https only, so a `javascript:` link can never be configured. */
export function webLink(variable: string) {
  return z.url({ protocol: /^https?$/, error: `${variable} must be an http or https URL` });
}

/** A contact link: a web form (http or https) or an e-mail address (`mailto:`). */
export function contactLink(variable: string) {
  return z.url({ protocol: /^(https?|mailto)$/, error: `${variable} must be an http, https or mailto URL` });
}

/** The environment variable of each outside link, and its key in `/config.js`. */
export const LINK_VARIABLES = {
  DEMO_BOOKING_URL: 'demoBookingUrl',
  CONTACT_URL: 'contactUrl',
  MARKETING_SITE_JA_URL: 'marketingSiteJa',
  MARKETING_SITE_EN_URL: 'marketingSiteEn',
  KNOWLEDGE_URL: 'knowledge',
  HELP_URL: 'help',
  FEEDBACK_URL: 'feedback',
  INDUSTRY_DATABASE_URL: 'database',
  BLOG_URL: 'blog',
  SOCIAL_URL: 'social',
} as const;

/** The links that live under `links` in `/config.js` (the side menu's, Home's and the landing page's). */
const MENU_LINKS = new Set<string>(['knowledge', 'help', 'feedback', 'database', 'blog', 'social']);

export type LinkVariable = keyof typeof LINK_VARIABLES;

/** Text in both languages of the app. */
const bilingual = z.object({ ja: z.string().trim().min(1), en: z.string().trim().min(1) }).strict();

/** An image or link of the content: a path of this site (`/landing/...`) or an https address, never a script. */
const contentAddress = z
  .string()
  .refine((text) => /^\/(?!\/)/.test(text) || /^https:\/\/[^/\s]+/.test(text), 'must be a path (/...) or an https URL');

/** `LANDING_CONTENT`: the landing page's customer voices, company logos and media coverage. */
export const landingContentSchema = z
  .object({
    testimonials: z
      .array(
        z
          .object({
            id: z.string().min(1),
            company: z.string().trim().min(1),
            person: z.string().trim().min(1),
            position: bilingual,
            quote: bilingual,
            image: contentAddress,
          })
          .strict(),
      )
      .max(50),
    logos: z.array(z.string().trim().min(1)).max(50),
    articles: z
      .array(z.object({ outlet: z.string().trim().min(1), title: bilingual, url: contentAddress.optional() }).strict())
      .max(50),
  })
  .strict();

export type LandingContent = z.infer<typeof landingContentSchema>;

/**
 * Reads and checks the landing content file.
 * @throws Error whose message names `LANDING_CONTENT`, the file and what is wrong in it.
 */
export function readLandingContent(path: string): LandingContent {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`LANDING_CONTENT: cannot read ${path} as JSON (${(error as Error).message})`);
  }
  const parsed = landingContentSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'} ${issue.message}`);
    throw new Error(`LANDING_CONTENT: ${path} is not valid landing content: ${issues.slice(0, 10).join('; ')}`);
  }
  return parsed.data;
}

/** The configuration `/config.js` is built from: the links as parsed, the addresses and the landing content. */
export type WebConfigSource = Partial<Record<LinkVariable, string>> & {
  GOOGLE_CLIENT_ID?: string | undefined;
  SUPPORT_EMAIL?: string | undefined;
  PRIVACY_EMAIL?: string | undefined;
  landingContent: LandingContent;
};

/**
 * The body of `/config.js`: public settings only (never a secret), and only those that are set, so that the web shows
 * no link a deployment did not give.
 */
export function webRuntimeConfig(config: WebConfigSource): string {
  const given: Record<string, unknown> = {};
  const links: Record<string, string> = {};
  for (const [variable, key] of Object.entries(LINK_VARIABLES)) {
    const value = config[variable as LinkVariable];
    if (!value) continue;
    if (MENU_LINKS.has(key)) links[key] = value;
    else given[key] = value;
  }
  given.links = links;
  if (config.GOOGLE_CLIENT_ID) given.googleClientId = config.GOOGLE_CLIENT_ID;
  if (config.SUPPORT_EMAIL) given.supportEmail = config.SUPPORT_EMAIL;
  if (config.PRIVACY_EMAIL) given.privacyEmail = config.PRIVACY_EMAIL;
  given.landing = config.landingContent;
  return `window.TOPLINE_CONFIG = Object.assign(window.TOPLINE_CONFIG || {}, ${JSON.stringify(given)});\n`;
}
