import { describe, expect, it } from 'vitest';
import { portfolioDigestMail, structureDigestMail, type WatchedReforme } from './reminder-mails.ts';

const to = { email: 'awa@reformes.test', firstname: 'Awa', lastname: 'Dubois' };
const links = { publicUrl: 'https://reformes.example' };
const reforme = (id: number, overrides: Partial<WatchedReforme> = {}): WatchedReforme => ({
  id,
  libref: `Réforme ${id}`,
  status: 'en_retard',
  days_without_suivi: 12,
  last_suivi_date: '2026-11-01',
  ...overrides,
});

describe('the reminder mails (issue 32)', () => {
  it('names the first reforms of a long digest and links the others to the overview', () => {
    const mail = structureDigestMail(to, { structure: 'MS (Santé)', total: 53, reformes: [reforme(1), reforme(2)] }, 30, links);
    expect(mail.subject).toBe('Réformes : 53 réformes de votre structure à suivre');
    expect(mail.text).toContain('Bonjour Awa Dubois,');
    expect(mail.text).toContain(
      'Et 51 autres réformes : voir le portefeuille de la structure : https://reformes.example/admin/follow-reformes\n',
    );
    expect(mail.html).toContain('<a href="https://reformes.example/admin/follow-reformes">Et 51 autres réformes');
    expect(structureDigestMail(to, { structure: 'MS', total: 1, reformes: [reforme(1)] }, 30, links).subject).toBe(
      'Réformes : 1 réforme de votre structure à suivre',
    );
  });

  it('escapes what users typed in the HTML part, and keeps it as typed in the text part', () => {
    const mail = structureDigestMail(
      to,
      { structure: 'A&B', total: 1, reformes: [reforme(7, { libref: '<script>alert("x")</script>' })] },
      30,
      links,
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).toContain('A&amp;B');
    expect(mail.text).toContain('« <script>alert("x")</script> »');
  });

  it('says when no reform is late in the portfolio digest, and totals the statuses', () => {
    const counts = { en_retard: 0, sans_suivi: 2, a_risque: 1, dans_les_temps: 4, non_demarree: 0, terminee: 3 };
    const mail = portfolioDigestMail(to, { counts, late: [] }, links);
    expect(mail.subject).toBe('Réformes : le portefeuille de la semaine');
    expect(mail.text).toContain('- Sans suivi : 2\n');
    expect(mail.text).toContain('- Total : 10\n');
    expect(mail.text).toContain("Aucune réforme n'est en retard.");
    expect(mail.html).toContain('<th scope="row">Terminée</th><td>3</td>');
    expect(mail.text).not.toContain('status=en_retard');
  });
});
