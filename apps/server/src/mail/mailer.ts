import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The same content as HTML, for the mails that have tables and links (the reminders). */
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends through SMTP_URL when set; otherwise writes each message to the outbox folder as
 * an .eml file and logs it, so reset links work on a fresh machine without a mail server.
 */
/** nodemailer is loaded with the first mail, not at start: memory a server that sends none never pays (issue 33). */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options));
    return transport;
  };
}

export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string; log: FastifyBaseLogger }): Mailer {
  if (options.smtpUrl) {
    const transport = lazyTransport(options.smtpUrl);
    return {
      async send(message) {
        await (await transport()).sendMail({ from: options.from, ...message });
      },
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await (await transport()).sendMail({ from: options.from, ...message });
      // A mail holds a reset link or a temporary password: for the server's user only.
      await fs.mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to the outbox');
    },
  };
}
