import { formatFrenchDate, REMINDER_MAIL as M, PORTFOLIO_STATUSES, type PortfolioStatus, portfolioStatusLabel } from '@reformes/domain';
import type { MailMessage } from '../../mail/mailer.ts';

export interface Recipient {
  email: string;
  firstname: string;
  lastname: string;
}

/** A reform in a structure digest: late, or without follow-up for too long. */
export interface WatchedReforme {
  id: number;
  libref: string;
  status: PortfolioStatus;
  days_without_suivi: number | null;
  last_suivi_date: string | null;
}

export interface StructureDigest {
  /** "MS (Ministère de la Santé)". */
  structure: string;
  /** Every reform to watch; `reformes` names the first REMINDER_LIST_MAX of them, most urgent first. */
  total: number;
  reformes: WatchedReforme[];
}

export interface PortfolioDigest {
  counts: Record<PortfolioStatus, number>;
  /** The reforms that became late last: the day after their end, latest first. */
  late: Array<{ id: number; libref: string; structure: string | null; late_since: string }>;
}

interface Links {
  publicUrl: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

const link = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;

/** The same message as plain text and HTML: a greeting, the body, the footer that says how to stop it. */
function mailOf(to: Recipient, subject: string, body: { text: string; html: string }, { publicUrl }: Links): MailMessage {
  const hello = M.hello(`${to.firstname} ${to.lastname}`);
  const account = `${publicUrl}/admin/user-account`;
  return {
    to: to.email,
    subject,
    text: `${hello}\n\n${body.text}\n--\n${M.footer} : ${account}\n`,
    html:
      `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>` +
      `<p>${escapeHtml(hello)}</p>${body.html}<hr><p><small>${escapeHtml(M.footer)} : ${link(account, account)}</small></p></body></html>`,
  };
}

const suiviUrl = (publicUrl: string, id: number) => `${publicUrl}/admin/follow-reformes?reforme=${id}`;

/** To a saisie account: its structure's reforms to watch, each with its status, last follow-up and a link to it. */
export function structureDigestMail(to: Recipient, digest: StructureDigest, days: number, links: Links): MailMessage {
  const rows = digest.reformes.map((reforme) => ({
    libref: reforme.libref,
    status: portfolioStatusLabel(reforme),
    last: reforme.last_suivi_date ? formatFrenchDate(reforme.last_suivi_date) : M.noSuivi,
    url: suiviUrl(links.publicUrl, reforme.id),
  }));
  const others = digest.total - digest.reformes.length;
  const overview = `${links.publicUrl}/admin/follow-reformes`;
  const intro = M.structureIntro(digest.structure, days);
  const text =
    `${intro}\n\n` +
    rows.map((row) => `- « ${row.libref} » — ${M.status} : ${row.status} — ${M.lastSuivi} : ${row.last}\n  ${row.url}\n`).join('') +
    (others > 0 ? `\n${M.more(others)} : ${overview}\n` : '');
  const html =
    `<p>${escapeHtml(intro)}</p><table border="1" cellpadding="4" cellspacing="0"><thead><tr>` +
    `<th scope="col">${M.reforme}</th><th scope="col">${M.status}</th><th scope="col">${M.lastSuivi}</th></tr></thead><tbody>` +
    rows
      .map((row) => `<tr><td>${link(row.url, row.libref)}</td><td>${escapeHtml(row.status)}</td><td>${escapeHtml(row.last)}</td></tr>`)
      .join('') +
    '</tbody></table>' +
    (others > 0 ? `<p>${link(overview, M.more(others))}</p>` : '');
  return mailOf(to, M.structureSubject(digest.total), { text, html }, links);
}

/** To a publication or saisie central account: reforms by status, the latest late ones, a link to them all. */
export function portfolioDigestMail(to: Recipient, digest: PortfolioDigest, links: Links): MailMessage {
  const counts = PORTFOLIO_STATUSES.map(({ value, label }) => ({ label, count: digest.counts[value] ?? 0 }));
  const total = counts.reduce((sum, { count }) => sum + count, 0);
  const lateUrl = `${links.publicUrl}/admin/follow-reformes?status=en_retard`;
  const late = digest.late.map((reforme) => ({
    label: `« ${reforme.libref} »${reforme.structure ? ` (${reforme.structure})` : ''}`,
    since: M.lateSince(formatFrenchDate(reforme.late_since)),
    url: suiviUrl(links.publicUrl, reforme.id),
  }));
  const text =
    `${M.portfolioIntro}\n\n` +
    counts.map(({ label, count }) => `- ${label} : ${count}\n`).join('') +
    `- ${M.total} : ${total}\n\n` +
    (late.length === 0
      ? `${M.noneLate}\n`
      : `${M.latestLate}\n\n${late.map((row) => `- ${row.label}, ${row.since}\n  ${row.url}\n`).join('')}\n${M.openLate} : ${lateUrl}\n`);
  const html =
    `<p>${escapeHtml(M.portfolioIntro)}</p><table border="1" cellpadding="4" cellspacing="0"><tbody>` +
    counts.map(({ label, count }) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${count}</td></tr>`).join('') +
    `<tr><th scope="row">${M.total}</th><td>${total}</td></tr></tbody></table>` +
    (late.length === 0
      ? `<p>${escapeHtml(M.noneLate)}</p>`
      : `<p>${escapeHtml(M.latestLate)}</p><ul>${late
          .map((row) => `<li>${link(row.url, row.label)}, ${escapeHtml(row.since)}</li>`)
          .join('')}</ul><p>${link(lateUrl, M.openLate)}</p>`);
  return mailOf(to, M.portfolioSubject, { text, html }, links);
}
