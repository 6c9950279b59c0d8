/**
 * The outside links of a deployment (README.md's configuration table): with them set, the menus, the footer, the
 * landing page, the demo gate and the legal pages show them with the right addresses, in English and Japanese; with
 * none set, no page links anywhere outside the site (no placeholder address), and the demo gate still says how to get
 * a demo. The landing page itself (its sections, prices, carousel and mobile menu) and the legal and error pages are
 * checked here too, on the configured deployment.
 */
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planForm } from '../api/src/testing/harness';
import { CHROMIUM, newPage, type Stack, screenshot, startStack, withGoogleStandIn } from './browser';
import { LINK_ENV } from './linkSettings';
import { signIn } from './screensHelpers';

const hasBrowser = existsSync(CHROMIUM);
const LOCALES = ['en-US', 'ja-JP'] as const;
type Locale = (typeof LOCALES)[number];
const OPEN_MENU: Record<Locale, string> = { 'en-US': 'Open menu', 'ja-JP': 'メニューを開く' };
const GOOGLE: Record<Locale, string> = { 'en-US': 'Sign in with Google', 'ja-JP': 'Googleでログイン' };
const MARKETING: Record<Locale, string> = {
  'en-US': LINK_ENV.MARKETING_SITE_EN_URL,
  'ja-JP': LINK_ENV.MARKETING_SITE_JA_URL,
};

/** The landing page's sections, each reached from the header and the mobile menu. */
const ANCHORS = [
  'section-hero',
  'section-steps',
  'section-feature',
  'section-voices',
  'section-media',
  'section-price',
  'section-product',
];

// One stack at a time: the Google stand-in signs with the keys of the stack started last (e2e/browser.ts).
let configured: Stack;
let bare: Stack;

/** The `href` attribute of every link matching `selector`. */
function hrefsOf(page: Page, selector: string): Promise<Array<string | null>> {
  return page.locator(selector).evaluateAll((links) => links.map((link) => link.getAttribute('href')));
}

/** Every link of the page (or of `within`) that leads off the site, as the browser resolves it. */
async function foreignLinks(page: Page, stack: Stack, within = 'body'): Promise<string[]> {
  const all = await page
    .locator(`${within} a[href]`)
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  expect(all.length).toBeGreaterThan(0);
  return all.filter((href) => new URL(href).origin !== new URL(stack.webUrl).origin);
}

/** A user of `tier` with one new plan, and the plan's path. */
async function userWithPlan(
  stack: Stack,
  email: string,
  tier: 'free' | 'basic',
): Promise<{ token: string; path: string }> {
  const { token } = await stack.api.user(email, tier);
  const created = await stack.api.call('POST', '/business-plan/create', {
    token,
    form: planForm({ business_plan_name: `Plan of ${email}` }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { token, path: `/business-plans/${created.body.data.business_plan_id}` };
}

/** Google's sign-in of an address that has seen no demo: the demo gate of the login page. */
async function demoGate(page: Page, locale: Locale, email: string) {
  await page.goto('/login');
  await page.evaluate((address) => window.sessionStorage.setItem('google-email', address), email);
  const google = page.getByRole('button', { name: GOOGLE[locale] });
  await google.and(page.locator(':enabled')).waitFor();
  await google.click();
  const box = page.locator('[data-test="demo-required-box"]');
  await box.waitFor();
  return box;
}

describe.skipIf(!hasBrowser)('outside links set in the configuration', () => {
  beforeAll(async () => {
    configured = await startStack({ apiEnv: () => ({ ...LINK_ENV }) });
  }, 180_000);
  afterAll(async () => {
    await configured?.close();
  });

  it('shows the Japanese landing page with every section, the demo button, yen prices and a wrapping carousel', async () => {
    const { context, page } = await newPage(configured, { locale: 'ja-JP' });
    await page.goto('/');
    await page.locator('h1').first().waitFor();
    await screenshot(page, 'landing-ja-1280');
    for (const id of ANCHORS) expect(await page.locator(`#${id}`).count(), id).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('ja');
    expect(await page.locator('[data-test="demo-request"]').count()).toBeGreaterThan(0);
    const price = page.locator('#section-price');
    expect(await price.textContent()).toContain('¥9,980');
    await price.getByRole('button', { name: /年払い/ }).click();
    expect(await price.textContent()).toContain('¥8,483');
    expect(await price.textContent()).toContain('15% OFF');
    const voices = page.locator('#section-voices');
    expect(await voices.locator('.carousel-position').textContent()).toBe('1 / 10');
    await voices.getByRole('button', { name: '前の声' }).click();
    expect(await voices.locator('.carousel-position').textContent()).toBe('10 / 10');
    await voices.getByRole('button', { name: '次の声' }).click();
    expect(await voices.locator('.carousel-position').textContent()).toBe('1 / 10');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'landing-ja-375');
    await page.getByRole('button', { name: 'メニューを開く' }).click();
    const menu = page.getByRole('dialog');
    for (const id of ANCHORS) expect(await menu.locator(`a[href="#${id}"]`).count(), id).toBe(1);
    await screenshot(page, 'landing-ja-375-menu');
    await menu.getByRole('button', { name: 'メニューを閉じる' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('shows the English landing page in dollars and with the demo booking', async () => {
    const { context, page } = await newPage(configured, { locale: 'en-US' });
    await page.goto('/');
    await page.locator('#section-hero h1').waitFor();
    await screenshot(page, 'landing-en-1280');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    // Sign-up asks every new address for a demo, so the English page offers the booking too.
    expect(await page.locator('[data-test="demo-request"]').first().getAttribute('href')).toBe(
      LINK_ENV.DEMO_BOOKING_URL,
    );
    const price = page.locator('#section-price');
    expect(await price.textContent()).toContain('$98');
    await price.getByRole('button', { name: /Annual/ }).click();
    expect(await price.textContent()).toContain('$84');
    expect(await price.textContent()).toContain('$127');
    for (const width of [1024, 768]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `landing-en-${width}`);
    }
    await page.setViewportSize({ width: 375, height: 812 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'landing-en-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The page can be switched to Japanese, which keeps the demo button.
    await page.locator('.site-header .language-switch').selectOption('ja');
    expect(await page.locator('#section-hero h1').textContent()).toContain('目標ARR');
    expect(await page.locator('[data-test="demo-request"]').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('serves legal pages, 404 and 500', async () => {
    const { context, page } = await newPage(configured, { locale: 'en-US' });
    await page.goto('/terms');
    await page.locator('main h1').waitFor();
    expect(await page.locator('main h2').count()).toBe(26);
    await page.goto('/privacyPolicy');
    await page.waitForURL('**/privacy-policy');
    await page.locator('main h1').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Privacy Policy');
    await page.goto('/law');
    await page.locator('dl.legal-table').waitFor();
    expect(await page.locator('dl.legal-table').textContent()).toContain('Tokyo');
    await page.goto('/no/such/page');
    await page.locator('.error-code').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Not Found');
    await page.goto('/500');
    await page.locator('.error-code').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Internal Error');
    await page.locator('.logo').click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('shows every configured link of the landing page, its menu and footer, in both languages', async () => {
    for (const locale of LOCALES) {
      const { context, page } = await newPage(configured, { locale });
      await page.goto('/');
      await page.locator('#section-hero h1').waitFor();
      // The demo booking in the header, the hero and the price section, in English as in Japanese.
      expect(await hrefsOf(page, '[data-test="demo-request"]'), locale).toEqual(
        Array(3).fill(LINK_ENV.DEMO_BOOKING_URL),
      );
      expect(await hrefsOf(page, '.site-footer [data-link="contact"]')).toEqual([LINK_ENV.CONTACT_URL]);
      expect(await hrefsOf(page, '.site-footer [data-link="social"]')).toEqual([LINK_ENV.SOCIAL_URL]);
      expect(await hrefsOf(page, '#section-product [data-link="database"]')).toEqual([LINK_ENV.INDUSTRY_DATABASE_URL]);
      expect(await hrefsOf(page, '#section-product [data-link="blog"]')).toEqual([LINK_ENV.BLOG_URL]);
      // The landing content served with the configuration: the sample's ten voices and its two unlinked articles.
      expect(await page.locator('.carousel-position').textContent()).toBe('1 / 10');
      expect(await page.locator('.media-links li').count()).toBe(2);
      expect(await page.locator('.media-links a').count()).toBe(0);
      await screenshot(page, `links-landing-${locale}`);
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByRole('button', { name: OPEN_MENU[locale] }).click();
      const menu = page.getByRole('dialog');
      expect(await hrefsOf(page, '[role="dialog"] [data-link="contact"]')).toEqual([LINK_ENV.CONTACT_URL]);
      expect(await menu.locator('[data-test="demo-request"]').getAttribute('href')).toBe(LINK_ENV.DEMO_BOOKING_URL);
      // The marketing site of the visitor's language.
      await context.route('https://www.acme-saas.test/**', (route) =>
        route.fulfill({ contentType: 'text/html', body: '<p>marketing</p>' }),
      );
      await page.goto('/site');
      await page.waitForURL(MARKETING[locale]);
      await context.close();
    }
  }, 120_000);

  it('shows the configured links of the side menu, the locked screen, the demo gate and the legal pages', async () => {
    const basic = await userWithPlan(configured, 'links-basic@example.com', 'basic');
    const free = await userWithPlan(configured, 'links-free@example.com', 'free');
    for (const locale of LOCALES) {
      const { context, page } = await newPage(configured, { locale });
      await signIn(page, basic.token);
      await page.goto(`${basic.path}/pl`);
      await page.locator('.side-menu [data-link="help"]').waitFor();
      for (const [kind, href] of [
        ['knowledge', LINK_ENV.KNOWLEDGE_URL],
        ['help', LINK_ENV.HELP_URL],
        ['feedback', LINK_ENV.FEEDBACK_URL],
        ['database', LINK_ENV.INDUSTRY_DATABASE_URL],
      ]) {
        expect(await hrefsOf(page, `.side-menu [data-link="${kind}"]`), `${locale} ${kind}`).toEqual([href]);
      }
      await context.close();

      const locked = await newPage(configured, { locale });
      await signIn(locked.page, free.token);
      await locked.page.goto(`${free.path}/kpi`);
      const placeholder = locked.page.locator('[data-test="upgrade-placeholder"]');
      await placeholder.waitFor();
      expect(await placeholder.locator('[data-test="demo-request"]').getAttribute('href')).toBe(
        LINK_ENV.DEMO_BOOKING_URL,
      );
      // Free hides Knowledge (product-and-account.md section 6), set or not.
      expect(await locked.page.locator('[data-link="knowledge"]').count()).toBe(0);
      await locked.context.close();

      const gate = await newPage(configured, { locale });
      await withGoogleStandIn(gate.context);
      const box = await demoGate(gate.page, locale, `links-stranger-${locale}@example.com`);
      expect(await box.textContent()).toContain(
        locale === 'en-US' ? 'Book a time for one with the button below' : '下のボタンからライブデモをご予約ください',
      );
      expect(await hrefsOf(gate.page, '[data-test="demo-booking"]')).toEqual([LINK_ENV.DEMO_BOOKING_URL]);
      expect(await hrefsOf(gate.page, '[data-test="demo-required-box"] [data-link="contact"]')).toEqual([
        LINK_ENV.CONTACT_URL,
      ]);
      await gate.context.close();

      const legal = await newPage(configured, { locale });
      await legal.page.goto('/law');
      expect(await legal.page.locator('main').textContent()).toContain(LINK_ENV.SUPPORT_EMAIL);
      await legal.page.goto('/privacy-policy');
      expect(await legal.page.locator('main').textContent()).toContain(LINK_ENV.PRIVACY_EMAIL);
      await legal.context.close();
    }
  }, 120_000);
});

describe.skipIf(!hasBrowser)('no outside link set', () => {
  beforeAll(async () => {
    bare = await startStack();
  }, 180_000);
  afterAll(async () => {
    await bare?.close();
  });

  it('links nowhere outside the site when no link is set: landing, sign-in, legal pages and the signed-in shell', async () => {
    const basic = await userWithPlan(bare, 'bare-basic@example.com', 'basic');
    const free = await userWithPlan(bare, 'bare-free@example.com', 'free');
    for (const locale of LOCALES) {
      const { context, page } = await newPage(bare, { locale });
      await page.goto('/');
      await page.locator('#section-hero h1').waitFor();
      expect(await foreignLinks(page, bare), locale).toEqual([]);
      expect(await page.locator('[data-test="demo-request"], [data-link]').count()).toBe(0);
      // The product section still describes the database and the blog, without a link.
      expect(await page.locator('#section-product .product-card').count()).toBe(2);
      expect(await page.locator('.carousel-position').textContent()).toBe('1 / 10');
      await screenshot(page, `links-none-landing-${locale}`);
      await page.setViewportSize({ width: 375, height: 812 });
      await page.getByRole('button', { name: OPEN_MENU[locale] }).click();
      expect(await foreignLinks(page, bare, '[role="dialog"]')).toEqual([]);
      // No marketing site: /site stays on the landing page.
      await page.goto('/site');
      await page.locator('#section-hero h1').waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      for (const path of ['/terms', '/law', '/privacy-policy']) {
        await page.goto(path);
        await page.locator('main h1').waitFor();
        expect(await foreignLinks(page, bare), path).toEqual([]);
        expect(await page.locator('main').textContent(), path).not.toContain('@');
      }
      await context.close();

      const gate = await newPage(bare, { locale });
      await withGoogleStandIn(gate.context);
      const box = await demoGate(gate.page, locale, `bare-stranger-${locale}@example.com`);
      expect(await foreignLinks(gate.page, bare)).toEqual([]);
      expect(await box.locator('a').count()).toBe(0);
      expect(await box.textContent()).toContain(
        locale === 'en-US'
          ? 'Ask the company that runs this Topline service to arrange one'
          : 'このToplineを運営している会社にライブデモをご依頼ください',
      );
      await screenshot(gate.page, `links-none-demo-gate-${locale}`);
      await gate.context.close();

      const shell = await newPage(bare, { locale });
      await signIn(shell.page, basic.token);
      await shell.page.goto(`${basic.path}/pl`);
      await shell.page.locator('.side-menu .menu-external').waitFor();
      expect(await foreignLinks(shell.page, bare)).toEqual([]);
      expect(await shell.page.locator('[data-link]').count()).toBe(0);
      await screenshot(shell.page, `links-none-shell-${locale}`);
      // Home: the benchmark and blog cards, without the database's or the blog's address.
      await shell.page.goto(`${basic.path}/home`);
      await shell.page.locator('[data-test="blog"] .ws-blog-card').first().waitFor();
      expect(await foreignLinks(shell.page, bare)).toEqual([]);
      expect(await shell.page.locator('[data-test="blog"] a, [data-test="benchmarks"] a').count()).toBe(0);
      await signIn(shell.page, free.token);
      await shell.page.goto(`${free.path}/kpi`);
      await shell.page.locator('[data-test="upgrade-placeholder"]').waitFor();
      expect(await foreignLinks(shell.page, bare)).toEqual([]);
      expect(await shell.page.locator('[data-test="demo-request"]').count()).toBe(0);
      await shell.context.close();
    }
  }, 180_000);
});
