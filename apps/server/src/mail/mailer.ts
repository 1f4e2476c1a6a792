import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import { type MailMessage, mailPayloadSchema } from '../db/job-payloads.ts';

/** What a mail is (db/job-payloads.ts, its schema): one address, a subject, a text, maybe the same as HTML. */
export type { MailMessage } from '../db/job-payloads.ts';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** How long the SMTP server may keep us waiting (ms): far under a job's lease (300 s, jobs/worker.ts), issue 40, item 13. */
export interface MailTimeouts {
  connectionMs: number;
  greetingMs: number;
  /** Silence on an open connection, a message's end included: the socket is closed, the attempt fails. */
  socketMs: number;
}
export const MAIL_TIMEOUTS: MailTimeouts = { connectionMs: 30_000, greetingMs: 30_000, socketMs: 60_000 };

/** Whatever the message holds, nodemailer reads no file and fetches no URL (issue 40, item 3). */
const SANDBOX = { disableFileAccess: true, disableUrlAccess: true } as const;

/** nodemailer is loaded with the first mail, not at start: memory a server that sends none never pays (issue 33). */
function lazyTransport(options: Parameters<typeof import('nodemailer').createTransport>[0]): () => Promise<Transporter> {
  let transport: Promise<Transporter> | undefined;
  return () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(options));
    return transport;
  };
}

/**
 * nodemailer's options of a message: MAIL_FROM and these four fields, checked again as strings (a list, an object
 * with `path` or `href` is refused); nothing else of the message goes through (sender, headers, attachments).
 */
function mailOptionsOf(from: string, message: MailMessage) {
  const { to, subject, text, html } = mailPayloadSchema.parse({
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
  return { from, to, subject, text, ...(html === undefined ? {} : { html }) };
}

/**
 * Sends through SMTP_URL when set; otherwise writes each message to the outbox folder as
 * an .eml file and logs it, so reset links work on a fresh machine without a mail server.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
  timeouts?: MailTimeouts;
}): Mailer {
  if (options.smtpUrl) {
    const { connectionMs, greetingMs, socketMs } = options.timeouts ?? MAIL_TIMEOUTS;
    const transport = lazyTransport({
      url: options.smtpUrl,
      connectionTimeout: connectionMs,
      greetingTimeout: greetingMs,
      socketTimeout: socketMs,
      ...SANDBOX,
    });
    return {
      async send(message) {
        await (await transport()).sendMail(mailOptionsOf(options.from, message));
      },
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix', ...SANDBOX });
  return {
    async send(message) {
      const info = await (await transport()).sendMail(mailOptionsOf(options.from, message));
      // A mail holds a reset link or a temporary password: for the server's user only.
      await fs.mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(options.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to the outbox');
    },
  };
}
