/**
 * The outside links of a deployment, for browser tests that need them set (`startStack({ apiEnv: () => LINK_ENV })`):
 * each its own address on the reserved `.test` domain, so that a link shown in the wrong place shows.
 */
export const LINK_ENV = {
  DEMO_BOOKING_URL: 'https://booking.acme-saas.test/topline-demo',
  CONTACT_URL: 'https://www.acme-saas.test/contact',
  MARKETING_SITE_JA_URL: 'https://www.acme-saas.test/ja/',
  MARKETING_SITE_EN_URL: 'https://www.acme-saas.test/en/',
  KNOWLEDGE_URL: 'https://docs.acme-saas.test/knowledge',
  HELP_URL: 'https://docs.acme-saas.test/tutorial',
  FEEDBACK_URL: 'https://feedback.acme-saas.test/board',
  INDUSTRY_DATABASE_URL: 'https://db.acme-saas.test/',
  BLOG_URL: 'https://blog.acme-saas.test/',
  SOCIAL_URL: 'https://social.acme-saas.test/topline',
  SUPPORT_EMAIL: 'support@acme-saas.test',
  PRIVACY_EMAIL: 'privacy@acme-saas.test',
} as const;
