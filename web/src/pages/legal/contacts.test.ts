import { describe, expect, it } from 'vitest';
import { withContacts } from './contacts';
import { lawEn, lawJa } from './law';
import { privacyEn, privacyJa } from './privacy';

const text = (doc: { sections: Array<{ title: string; body: string[] }> }) => JSON.stringify(doc.sections);

describe('addresses of the legal pages', () => {
  it('writes in the configured support and privacy addresses, in both languages', () => {
    const contacts = { supportEmail: 'help@acme.jp', privacyEmail: 'privacy@acme.jp' };
    const law = withContacts(lawEn, contacts);
    expect(law.sections.find((s) => s.title === 'Contact')?.body).toEqual([
      'help@acme.jp (phone number disclosed without delay on request)',
    ]);
    expect(withContacts(lawJa, contacts).sections.find((s) => s.title === 'お問い合わせ')?.body[0]).toMatch(
      /^help@acme\.jp（/,
    );
    const privacy = withContacts(privacyEn, contacts).sections.find((s) => s.title.startsWith('8.'));
    expect(privacy?.body).toHaveLength(2);
    expect(privacy?.body[1]).toBe('Contact point: privacy@acme.jp');
    expect(text(withContacts(privacyJa, contacts))).toContain('窓口：privacy@acme.jp');
    expect(text(law)).not.toContain('_email}');
  });

  it('leaves out a line whose address is not set, and a section with nothing left', () => {
    for (const doc of [lawEn, lawJa, privacyEn, privacyJa]) {
      const filled = withContacts(doc, {});
      expect(text(filled)).not.toMatch(/_email}|@/);
    }
    expect(withContacts(lawEn, {}).sections.map((s) => s.title)).not.toContain('Contact');
    expect(withContacts(lawEn, {}).sections).toHaveLength(lawEn.sections.length - 1);
    const privacy = withContacts(privacyEn, {}).sections.find((s) => s.title.startsWith('8.'));
    expect(privacy?.body).toEqual([privacyEn.sections.find((s) => s.title.startsWith('8.'))?.body[0]]);
  });
});
