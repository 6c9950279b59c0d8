import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Sends through an SMTP server given as a URL (smtp://user:pass@host:port or smtps://...). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/** Without SMTP the message lands in a file under `outbox`; the log names the file, never the message body. */
export function outboxMailer(outboxDir: string, logger: Logger): Mailer {
  let counter = 0;
  return {
    async send(message) {
      await mkdir(outboxDir, { recursive: true });
      counter += 1;
      const safeTo = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${counter}-${safeTo}.txt`);
      await writeFile(file, `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`, { mode: 0o600 });
      logger.info(`mail "${message.subject}" to ${message.to} written to ${file}`);
    },
  };
}
