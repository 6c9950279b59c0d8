import type { LegalDocument } from './terms';

/** Where a legal text gives an address of the configuration (`SUPPORT_EMAIL`, `PRIVACY_EMAIL`). */
export const SUPPORT_ADDRESS = '{support_email}';
export const PRIVACY_ADDRESS = '{privacy_email}';

export interface LegalContacts {
  supportEmail?: string | undefined;
  privacyEmail?: string | undefined;
}

/**
 * The document with the configured addresses written in. A paragraph that gives an address the deployment did not set
 * is left out (never a made-up address), and so is a section that nothing is left of.
 */
export function withContacts(doc: LegalDocument, contacts: LegalContacts): LegalDocument {
  const fill = (paragraph: string): string | null => {
    let text = paragraph;
    for (const [mark, address] of [
      [SUPPORT_ADDRESS, contacts.supportEmail],
      [PRIVACY_ADDRESS, contacts.privacyEmail],
    ] as const) {
      if (!text.includes(mark)) continue;
      if (!address) return null;
      text = text.replaceAll(mark, address);
    }
    return text;
  };
  const sections = doc.sections
    .map((section) => ({ ...section, body: section.body.map(fill).filter((text) => text !== null) }))
    .filter((section) => section.body.length > 0);
  return { ...doc, sections };
}
