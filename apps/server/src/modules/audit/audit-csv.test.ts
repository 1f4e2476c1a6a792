import { isTimeZone } from '@reformes/domain';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '../../http/csv.ts';
import type { AuditRow } from './audit.service.ts';
import { auditCsv } from './audit-csv.ts';

describe('csvCell', () => {
  it('prefixes a quote to a text a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('+33 6 00')).toBe(`"'+33 6 00"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SOMME(A1)')).toBe(`"'@SOMME(A1)"`);
    expect(csvCell('\t=1')).toBe(`"'\t=1"`);
    expect(csvCell('a=1')).toBe('"a=1"');
  });

  it('quotes every text, so that a comma (the separator of another locale) never starts a new cell (issue 29)', () => {
    expect(csvCell('x,=1+1')).toBe('"x,=1+1"');
    expect(csvCell('Lecteurs')).toBe('"Lecteurs"');
    expect(csvCell('')).toBe('""');
  });

  it('doubles the quotes of a cell holding the separator, a quote or a line break', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('dit "oui"')).toBe('"dit ""oui"""');
    expect(csvCell('deux\nlignes')).toBe('"deux\nlignes"');
    expect(csvCell('=HYPERLINK("http://x";"y")')).toBe(`"'=HYPERLINK(""http://x"";""y"")"`);
  });

  it('writes nothing for null, and numbers bare', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvLine(['a', null, 'b', 7])).toBe('"a";;"b";7\r\n');
  });
});

describe('auditCsv', () => {
  const row: AuditRow = {
    id: 1,
    created_at: new Date('2026-07-12T12:05:03Z'),
    actor_id: 3,
    actor_email: 'awa@reformes.test',
    action: 'profile.grant',
    target_type: 'role',
    target_id: 4,
    target_label: 'Lecteurs',
    result: 'success',
    ip: '::1',
    details: { permissions: ['users.list'] },
  };

  it('starts with a byte order mark and the header, then one line per entry in the time zone asked', async () => {
    const chunks: string[] = [];
    for await (const chunk of auditCsv(
      (async function* () {
        yield [row];
      })(),
      'Europe/Paris',
    ))
      chunks.push(chunk);
    expect(chunks.join('')).toBe(
      '\uFEFF"Date (Europe/Paris)";"Utilisateur";"Action";"Cible";"Résultat";"Adresse IP";"Détails"\r\n' +
        '"12/07/2026 14:05:03";"awa@reformes.test";"Attribution de droits";"Rôle Lecteurs";"Succès";"::1";"{""permissions"":[""users.list""]}"\r\n',
    );
  });

  it('knows the time zones of the runtime', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
