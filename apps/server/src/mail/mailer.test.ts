import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, type MailMessage } from './mailer.ts';

/**
 * Issue 40, item 3: whatever a row of `jobs` holds, the mailer sends a mail from MAIL_FROM to one address, with a
 * subject, a text and maybe an HTML body given as strings: no file of the server is read, no URL fetched, no sender
 * or header chosen by the row.
 */
describe('the mailer (outbox)', () => {
  const log = Fastify({ logger: false }).log;
  const secretFile = path.join(os.tmpdir(), `mailer-secret-${process.pid}.txt`);
  const SECRET = 'CONTENU-DU-FICHIER-SECRET-0123456789';
  let outboxDir: string;
  let fetched = 0;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    fs.writeFileSync(secretFile, SECRET);
    outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailer-outbox-'));
    server = http.createServer((_request, response) => {
      fetched += 1;
      response.end(SECRET);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/secret`;
  });
  afterAll(async () => {
    fs.rmSync(secretFile, { force: true });
    fs.rmSync(outboxDir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  const mailer = () => createMailer({ from: 'Réformes <noreply@reformes.test>', outboxDir, log });
  /** The .eml files written so far, newest last. */
  const written = () =>
    fs
      .readdirSync(outboxDir)
      .sort()
      .map((file) => fs.readFileSync(path.join(outboxDir, file), 'utf8'));

  it('sends only from, to, subject, text and html: forged attachments, sender, headers and raw content are left out', async () => {
    const before = written().length;
    const forged = {
      to: 'victime@reformes.test',
      subject: 'Réformes : essai',
      text: 'Bonjour',
      from: 'Directeur <directeur@ministere.test>',
      sender: 'directeur@ministere.test',
      replyTo: 'pirate@attaque.test',
      bcc: 'pirate@attaque.test',
      headers: { 'X-Forged': 'oui' },
      attachments: [{ path: secretFile }, { path: url }],
      alternatives: [{ path: secretFile }],
      icalEvent: { path: secretFile },
      amp: { href: url },
      watchHtml: { path: secretFile },
    } as unknown as MailMessage;
    await mailer().send(forged);
    const eml = written().slice(before);
    expect(eml).toHaveLength(1);
    expect(eml[0]).not.toContain(SECRET);
    expect(eml[0]).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 20));
    expect(eml[0]).not.toMatch(/directeur|pirate|X-Forged/i);
    expect(eml[0]).toMatch(/^From: =\?UTF-8\?Q\?R=C3=A9formes\?= <noreply@reformes\.test>$/m);
    expect(fetched).toBe(0);
  });

  it('refuses a body that is not text (a file path, a URL, raw content) and reads nothing', async () => {
    const before = written().length;
    for (const html of [{ path: secretFile }, { href: url }, { raw: SECRET }]) {
      await expect(mailer().send({ to: 'a@reformes.test', subject: 's', text: 't', html } as unknown as MailMessage)).rejects.toThrow();
    }
    for (const text of [{ path: secretFile }, { href: url }]) {
      await expect(mailer().send({ to: 'a@reformes.test', subject: 's', text } as unknown as MailMessage)).rejects.toThrow();
    }
    expect(written().slice(before).join('')).not.toContain(SECRET);
    expect(fetched).toBe(0);
  });

  it('refuses a recipient that is not one address', async () => {
    for (const to of [
      ['a@reformes.test', 'b@reformes.test'],
      'a@reformes.test, b@reformes.test',
      'Nom <a@reformes.test>',
      { address: 'a@reformes.test' },
    ]) {
      await expect(mailer().send({ to, subject: 's', text: 't' } as unknown as MailMessage)).rejects.toThrow();
    }
  });
});
