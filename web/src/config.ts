/**
 * Runtime configuration read from `window.TOPLINE_CONFIG` (set by /config.js, which the API builds from its
 * environment: api/src/http/webConfig.ts). A link the deployment did not set is absent, and whatever shows it hides.
 */
export interface ExternalLinks {
  knowledge?: string;
  help?: string;
  feedback?: string;
  database?: string;
  blog?: string;
  social?: string;
}

type Bilingual = { ja: string; en: string };

/** The landing page's customer voices, logos and media coverage (`LANDING_CONTENT`). */
export interface LandingContent {
  testimonials: Array<{
    id: string;
    company: string;
    person: string;
    position: Bilingual;
    quote: Bilingual;
    image: string;
  }>;
  logos: string[];
  articles: Array<{ outlet: string; title: Bilingual; url?: string }>;
}

export interface RuntimeConfig {
  demoBookingUrl?: string;
  contactUrl?: string;
  googleClientId?: string;
  marketingSiteJa?: string;
  marketingSiteEn?: string;
  /** The addresses the legal pages give. */
  supportEmail?: string;
  privacyEmail?: string;
  links: ExternalLinks;
  landing: LandingContent;
}

declare global {
  interface Window {
    TOPLINE_CONFIG?: Partial<RuntimeConfig>;
  }
}

const NO_LANDING_CONTENT: LandingContent = { testimonials: [], logos: [], articles: [] };

export function runtimeConfig(): RuntimeConfig {
  const given = typeof window === 'undefined' ? undefined : window.TOPLINE_CONFIG;
  return { ...given, links: { ...given?.links }, landing: given?.landing ?? NO_LANDING_CONTENT };
}
