import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text; every value a user chose in it is `escapeHtml`'d. */
  html?: string;
}

/**
 * Text a user chose (a plan name, a user name) as one line for a mail: line breaks and other control characters
 * become spaces, so the text cannot start a header or a paragraph of its own, and it is cut to `max` characters.
 */
export function oneLine(text: string, max = 100): string {
  const flat = Array.from(text, (c) => (isLineOrControl(c.codePointAt(0) ?? 0) ? ' ' : c))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** C0 and C1 controls (CR and LF among them) and the Unicode line and paragraph separators. */
const isLineOrControl = (code: number) =>
  code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Refuses a message whose headers could carry more headers: a CR or LF in the recipient or the subject. Every
 * mailer checks it, whatever built the message.
 */
function checkHeaders(message: MailMessage): void {
  if (/[\r\n]/.test(message.to) || /[\r\n]/.test(message.subject)) {
    throw new Error('a mail header may not hold a line break');
  }
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Sends through an SMTP server given as a URL (smtp://user:pass@host:port or smtps://...). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      checkHeaders(message);
      await transport.sendMail({ from, ...message });
    },
  };
}

/** Without SMTP the message lands in a file under `outbox`; the log names the file, never the message body. */
export function outboxMailer(outboxDir: string, logger: Logger): Mailer {
  let counter = 0;
  return {
    async send(message) {
      checkHeaders(message);
      await mkdir(outboxDir, { recursive: true });
      counter += 1;
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${counter}-${safeTo}.txt`);
      await writeFile(file, `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`, { mode: 0o600 });
      logger.info(`mail "${message.subject}" to ${message.to} written to ${file}`);
    },
  };
}
