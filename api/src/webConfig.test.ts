import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { LINK_VARIABLES, type LinkVariable, SAMPLE_LANDING_CONTENT } from './http/webConfig';
import { startTestApi, type TestApi } from './testing/harness';

/** A value for each link variable, each its own address, so that a misplaced one shows. */
const LINKS: Record<LinkVariable, string> = {
  DEMO_BOOKING_URL: 'https://booking.example.com/topline',
  CONTACT_URL: 'mailto:hello@company.example.com',
  MARKETING_SITE_JA_URL: 'https://www.company.example.com/ja/',
  MARKETING_SITE_EN_URL: 'https://www.company.example.com/en/',
  KNOWLEDGE_URL: 'https://docs.company.example.com/knowledge',
  HELP_URL: 'https://docs.company.example.com/tutorial',
  FEEDBACK_URL: 'https://feedback.company.example.com/board',
  INDUSTRY_DATABASE_URL: 'https://db.company.example.com/',
  BLOG_URL: 'https://blog.company.example.com/',
  SOCIAL_URL: 'https://social.company.example.com/topline',
};
const ADDRESSES = { SUPPORT_EMAIL: 'support@company.example.com', PRIVACY_EMAIL: 'privacy@company.example.com' };

/** What `/config.js` puts in `window.TOPLINE_CONFIG`, run as the browser would run it. */
async function servedConfig(api: TestApi): Promise<Record<string, unknown>> {
  const response = await fetch(new URL('/config.js', api.url));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('javascript');
  const window: { TOPLINE_CONFIG?: Record<string, unknown> } = {};
  runInNewContext(await response.text(), { window });
  return window.TOPLINE_CONFIG ?? {};
}

let configured: TestApi;
let bare: TestApi;
const dir = mkdtempSync(join(tmpdir(), 'topline-web-config-'));
beforeAll(async () => {
  [configured, bare] = await Promise.all([
    startTestApi({
      env: {
        ...LINKS,
        ...ADDRESSES,
        GOOGLE_CLIENT_ID: 'client-123.apps.example.com',
        GOOGLE_CLIENT_SECRET: 'very-secret-value',
      },
    }),
    startTestApi(),
  ]);
});
afterAll(async () => {
  await Promise.all([configured.close(), bare.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /config.js', () => {
  it('gives the web its public configuration and never a secret', async () => {
    const response = await fetch(new URL('/config.js', configured.url));
    const text = await response.text();
    expect(text).toContain('"demoBookingUrl":"https://booking.example.com/topline"');
    expect(text).toContain('"googleClientId":"client-123.apps.example.com"');
    expect(text).not.toContain('very-secret-value');
    expect(text).not.toContain(configured.config.APP_SECRET);
  });

  it('serves every link variable under its own key, and the legal addresses', async () => {
    const config = await servedConfig(configured);
    expect(config).toMatchObject({
      demoBookingUrl: 'https://booking.example.com/topline',
      contactUrl: 'mailto:hello@company.example.com',
      marketingSiteJa: 'https://www.company.example.com/ja/',
      marketingSiteEn: 'https://www.company.example.com/en/',
      supportEmail: 'support@company.example.com',
      privacyEmail: 'privacy@company.example.com',
      links: {
        knowledge: 'https://docs.company.example.com/knowledge',
        help: 'https://docs.company.example.com/tutorial',
        feedback: 'https://feedback.company.example.com/board',
        database: 'https://db.company.example.com/',
        blog: 'https://blog.company.example.com/',
        social: 'https://social.company.example.com/topline',
      },
    });
    // Each variable's value appears once: none is served under another's key.
    const text = JSON.stringify(config);
    for (const value of Object.values(LINKS)) expect(text.split(`"${value}"`).length - 1, value).toBe(1);
  });

  it('leaves out every link that is not set, and serves the sample landing content', async () => {
    const config = await servedConfig(bare);
    expect(Object.keys(config).sort()).toEqual(['landing', 'links']);
    expect(config.links).toEqual({});
    const sample = JSON.parse(readFileSync(SAMPLE_LANDING_CONTENT, 'utf8'));
    expect(config.landing).toEqual(sample);
    expect(sample.testimonials).toHaveLength(10);
    // The shipped sample links nowhere outside the site.
    expect(JSON.stringify(sample)).not.toMatch(/https?:|\.example/);
  });
});

describe('link configuration', () => {
  it('refuses a value that is not a link, naming the variable', () => {
    for (const variable of Object.keys(LINK_VARIABLES)) {
      for (const bad of ['not a url', 'javascript:alert(1)', 'ftp://files.example.com/']) {
        const load = () => loadConfig({ DATA_DIR: dir, [variable]: bad });
        expect(load, `${variable}=${bad}`).toThrow(ConfigError);
        expect(load, `${variable}=${bad}`).toThrow(new RegExp(`${variable}: ${variable} must be an http`));
      }
    }
  });

  it('takes a mailto address as the contact link only', () => {
    expect(loadConfig({ DATA_DIR: dir, CONTACT_URL: 'mailto:hello@company.example.com' }).CONTACT_URL).toBe(
      'mailto:hello@company.example.com',
    );
    expect(() => loadConfig({ DATA_DIR: dir, HELP_URL: 'mailto:help@company.example.com' })).toThrow(/HELP_URL/);
  });

  it('refuses a legal address that is not an e-mail address, naming the variable', () => {
    for (const variable of ['SUPPORT_EMAIL', 'PRIVACY_EMAIL']) {
      expect(() => loadConfig({ DATA_DIR: dir, [variable]: 'support at company' })).toThrow(
        new RegExp(`${variable}: ${variable} must be an e-mail address`),
      );
      expect(loadConfig({ DATA_DIR: dir, [variable]: 'legal@company.example.com' })).toMatchObject({
        [variable]: 'legal@company.example.com',
      });
    }
  });

  it('treats an empty value as unset', () => {
    const config = loadConfig({ DATA_DIR: dir, HELP_URL: '  ', SUPPORT_EMAIL: '' });
    expect(config.HELP_URL).toBeUndefined();
    expect(config.SUPPORT_EMAIL).toBeUndefined();
  });
});
