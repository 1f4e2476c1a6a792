import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { crc32, createDeflateRaw } from 'node:zlib';
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES, IMPORT_TEMPLATE } from '@reformes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const HEADER = IMPORT_TEMPLATE.header.join(';');

/** A field of /proc/self/status (VmRSS, VmHWM: the peak since the last reset), in MB. */
function memoryOf(field: 'VmRSS' | 'VmHWM'): number {
  const kilobytes = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
  return Number(kilobytes) / 1024;
}
const MB = 1024 * 1024;

/** A zip of deflated entries written by hand, chunk by chunk; an entry may declare a false inflated size. */
async function zipOf(entries: Array<{ name: string; chunks: Iterable<string>; declaredSize?: number }>): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, chunks, declaredSize } of entries) {
    let crc = 0;
    let size = 0;
    const deflate = createDeflateRaw({ level: 9 });
    const output: Buffer[] = [];
    deflate.on('data', (part: Buffer) => output.push(part));
    const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
    for (const chunk of chunks) {
      const bytes = Buffer.from(chunk);
      crc = crc32(bytes, crc);
      size += bytes.length;
      if (!deflate.write(bytes)) await new Promise((resolve) => deflate.once('drain', resolve));
    }
    deflate.end();
    await done;
    const data = Buffer.concat(output);
    size = declaredSize ?? size;
    const fileName = Buffer.from(name);
    const header = (signature: number, length: number) => {
      const buffer = Buffer.alloc(length);
      buffer.writeUInt32LE(signature, 0);
      return buffer;
    };
    const local = header(0x04034b50, 30);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = header(0x02014b50, 46);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface XlsxOptions {
  declaredSize?: number;
  /** Empty entries added after the sheet. */
  extra?: string[];
  /** Entries read before the sheet: `xl/sharedStrings.xml`, `xl/styles.xml`. */
  parts?: Array<{ name: string; chunks: Iterable<string> }>;
  /** Inside the workbook element, after its sheets (`<definedNames>…`). */
  workbookExtra?: Iterable<string>;
}

/**
 * A minimal workbook whose one sheet's XML is `sheetData` (chunk by chunk) inside the worksheet element, plus
 * `extra` entries.
 */
function xlsxOf(sheetData: Iterable<string>, { declaredSize, extra = [], parts = [], workbookExtra = [] }: XlsxOptions = {}) {
  return zipOf([
    {
      name: '[Content_Types].xml',
      chunks: [
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '</Types>',
      ],
    },
    {
      name: '_rels/.rels',
      chunks: [
        `<?xml version="1.0"?><Relationships ${RELS}><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ],
    },
    {
      name: 'xl/workbook.xml',
      chunks: [
        `<?xml version="1.0"?><workbook ${NS} xmlns:r="${OFFICE}"><sheets><sheet name="Feuil1" sheetId="1" r:id="rId1"/></sheets>`,
        ...workbookExtra,
        '</workbook>',
      ],
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      chunks: [
        `<?xml version="1.0"?><Relationships ${RELS}><Relationship Id="rId1" Type="${OFFICE}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ],
    },
    ...parts,
    { name: 'xl/worksheets/sheet1.xml', chunks: [`<?xml version="1.0"?><worksheet ${NS}>`, ...sheetData, '</worksheet>'], declaredSize },
    ...extra.map((name) => ({ name, chunks: ['<a/>'] })),
  ]);
}

function* repeated(chunk: string, times: number) {
  for (let index = 0; index < times; index += 1) yield chunk;
}

function* numberRows(count: number) {
  const rows: string[] = [];
  for (let row = 1; row <= count; row += 1) {
    rows.push(`<row r="${row}"><c r="A${row}"><v>${row}</v></c></row>`);
    if (rows.length === 10_000) yield rows.splice(0).join('');
  }
  yield rows.join('');
}

/** Excel's name of the column `index` (0 -> A, 26 -> AA). */
const columnName = (index: number): string =>
  (index >= 26 ? columnName(Math.floor(index / 26) - 1) : '') + String.fromCharCode(65 + (index % 26));

/** `rows` rows of `columns` cells, each `cell(reference)`; `sameRow` gives every row the number 2. */
function* gridRows(rows: number, columns: number, cell: (reference: string) => string, { sameRow = false } = {}) {
  const names = Array.from({ length: columns }, (_, index) => columnName(index));
  for (let row = 2; row < rows + 2; row += 1) {
    const number = sameRow ? 2 : row;
    yield `<row r="${number}">${names.map((name) => cell(`${name}${number}`)).join('')}</row>`;
  }
}

/** The template's header as the sheet's first row, in inline strings. */
const headerRow = () =>
  `<row r="1">${IMPORT_TEMPLATE.header.map((label, index) => `<c r="${columnName(index)}1" t="inlineStr"><is><t>${label}</t></is></c>`).join('')}</row>`;

const sharedStrings = (...items: string[]) => ({
  name: 'xl/sharedStrings.xml',
  chunks: [`<?xml version="1.0"?><sst ${NS} count="${items.length}" uniqueCount="${items.length}">`, ...items, '</sst>'],
});

const LONG = 'x'.repeat(10_000);

/**
 * What reading one file may add to the server's peak RSS, in MB (issue 40's goal). The reader is a process of its own:
 * its memory is not the server's. Without the total budget, one hostile file below took the server to 4 GB and
 * killed it; with the reader in a worker thread, its heap made the server's RSS grow by up to 170 MB.
 */
const ADDED_RSS_MB = 64;
/**
 * An accepted file is then previewed on the server: its rows, planned a slice at a time (one plan at a time), and the
 * answer written as JSON a piece at a time. 20 000 lines with four issues each added 185-340 MB when the plan was made
 * in one go and the answer checked against its shape (a deep copy) then serialised whole (issue 40).
 */
const PREVIEW_RSS_MB = 160;
/**
 * The longest the event loop may be held by one file (issue 40: one plan of 20 000 lines held it 1 to 8 s). The goal is
 * 50 ms; on this shared machine a loop that only waits its turn on the CPU is seen late by up to ~100 ms.
 */
const HELD_MS = 300;
/**
 * The goal is a health p99 of 100 ms (issue 40); these tests share two cores with other test
 * files (load 6 seen), which alone adds 100 ms and more: the bound here still catches an event loop held by a file.
 */
const HEALTH_P99_MS = 300;

/** name, file, file name, status, message, seconds allowed. */
const HOSTILE: Array<[string, () => Promise<Buffer> | string, string, number, string, number]> = [
  [
    'an xlsx of 500 000 rows of numbers',
    () => xlsxOf(['<sheetData>', ...numberRows(500_000), '</sheetData>']),
    'lignes.xlsx',
    422,
    IMPORT_MESSAGES.tooManyRows,
    60,
  ],
  [
    'a 10 MB CSV of blank lines',
    () => `${HEADER}\n${'\n'.repeat(IMPORT_MAX_BYTES - HEADER.length - 1024)}`,
    'vide.csv',
    422,
    IMPORT_MESSAGES.tooManyRows,
    30,
  ],
  [
    'a zip bomb: a sheet of 300 MB compressed under a megabyte, whose headers say 1 kB',
    () =>
      xlsxOf(
        ['<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>', ...repeated(' '.repeat(MB), 300), '</t></is></c></row></sheetData>'],
        {
          declaredSize: 1024,
        },
      ),
    'bombe.xlsx',
    413,
    IMPORT_MESSAGES.unzippedTooLarge,
    30,
  ],
  [
    'a sheet of XML nested a million deep',
    () => xlsxOf(['<sheetData>', ...repeated('<row>'.repeat(100_000), 10), '</sheetData>']),
    'imbrique.xlsx',
    413,
    IMPORT_MESSAGES.tooHeavy,
    30,
  ],
  [
    'a workbook of 2 000 zip entries',
    () => xlsxOf([], { extra: Array.from({ length: 2000 }, (_, index) => `xl/media/image${index}.xml`) }),
    'entrees.xlsx',
    422,
    IMPORT_MESSAGES.tooManyEntries,
    30,
  ],
  [
    'shared strings: one 10 000-character string shown by 600 000 cells',
    () =>
      xlsxOf(['<sheetData>', ...gridRows(6000, 100, (reference) => `<c r="${reference}" t="s"><v>0</v></c>`), '</sheetData>'], {
        parts: [sharedStrings(`<si><t>${LONG}</t></si>`)],
      }),
    'partages.xlsx',
    413,
    IMPORT_MESSAGES.tooMuchText,
    30,
  ],
  [
    'repeated references: 6 000 rows numbered 2, each of 100 cells showing one rich text of 1 000 runs',
    () =>
      xlsxOf(
        ['<sheetData>', ...gridRows(6000, 100, (reference) => `<c r="${reference}" t="s"><v>0</v></c>`, { sameRow: true }), '</sheetData>'],
        { parts: [sharedStrings(`<si>${'<r><t>xxxxxxxxxx</t></r>'.repeat(1000)}</si>`)] },
      ),
    'repetes.xlsx',
    413,
    IMPORT_MESSAGES.tooMuchText,
    30,
  ],
  [
    'formulas: 9 000 cells whose cached result is 10 000 characters long',
    () =>
      xlsxOf([
        '<sheetData>',
        ...gridRows(90, 100, (reference) => `<c r="${reference}" t="str"><f>REPT("x";10000)</f><v>${LONG}</v></c>`),
        '</sheetData>',
      ]),
    'formules.xlsx',
    413,
    IMPORT_MESSAGES.tooMuchText,
    30,
  ],
  [
    'styles: 38 000 numbers under a number format of a 10 000-character literal, below the template header',
    () =>
      xlsxOf(
        ['<sheetData>', headerRow(), ...gridRows(2000, 19, (reference) => `<c r="${reference}" s="1"><v>12345</v></c>`), '</sheetData>'],
        {
          parts: [
            {
              name: 'xl/styles.xml',
              chunks: [
                `<?xml version="1.0"?><styleSheet ${NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;${LONG}&quot;0"/></numFmts>`,
                '<fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders>',
                '<cellStyleXfs count="1"><xf/></cellStyleXfs>',
                '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>',
              ],
            },
          ],
        },
      ),
    'formats.xlsx',
    200,
    '',
    30,
  ],
  [
    'defined names: 5 000 names of 10 000 characters each, below the template header',
    () =>
      xlsxOf(['<sheetData>', headerRow(), '</sheetData>'], {
        workbookExtra: ['<definedNames>', ...repeated(`<definedName name="nom">${LONG}</definedName>`, 5000), '</definedNames>'],
      }),
    'noms.xlsx',
    422,
    IMPORT_MESSAGES.empty,
    30,
  ],
  [
    'a CSV of 20 000 lines of 100 empty cells',
    () => `${HEADER}\n${`${';'.repeat(99)}\n`.repeat(20_000)}`,
    'vides.csv',
    422,
    IMPORT_MESSAGES.empty,
    30,
  ],
  [
    'an ordinary CSV at the limits: 20 000 lines of the 19 columns, 430 characters a line',
    () => {
      const line = IMPORT_TEMPLATE.example.map((cell, column) => (column < 8 ? `${cell}, texte de la réforme` : cell)).join(';');
      return `${HEADER}\n${Array.from({ length: 20_000 }, (_, index) => `${index} ${line}`).join('\n')}`;
    },
    'ordinaire.csv',
    200,
    '',
    30,
  ],
  [
    'a CSV with one 10 MB cell',
    () => `${HEADER}\n${'x'.repeat(IMPORT_MAX_BYTES - HEADER.length - 1024)}`,
    'cellule.csv',
    422,
    IMPORT_MESSAGES.cellTooLong(2),
    30,
  ],
];

/**
 * Hostile files (issue 28): each is refused within seconds, naming the limit in French, while the server keeps
 * answering — measured on a real listening socket, so a blocked event loop would show in the probe's latency.
 */
describe('reform import limits (issue 28)', { timeout: 90_000 }, () => {
  let t: TestApp;
  let central: Caller;
  let base: string;
  let health: number[] = [];
  let mainPeak = 0;
  let probing = true;
  let probe: Promise<void>;
  const files = new Map<string, Blob>();

  beforeAll(async () => {
    // Built before the probe starts: building them takes the test's event loop, which is also the server's.
    for (const [name, build] of HOSTILE) files.set(name, new Blob([await build()]));
    t = await createTestApp();
    central = await t.as('saisie central');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1`;
    probe = (async () => {
      while (probing) {
        const started = performance.now();
        const response = await fetch(`${base}/health`);
        await response.arrayBuffer();
        health.push(performance.now() - started);
        const { heapUsed, external } = process.memoryUsage();
        mainPeak = Math.max(mainPeak, (heapUsed + external) / MB);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
  });
  afterAll(async () => {
    probing = false;
    await probe;
    await t.close();
  });

  /** The file is a Blob made beforehand: its copies are not counted in the server's memory (the same process). */
  async function preview(content: Blob, filename: string) {
    const send = async () => {
      const form = new FormData();
      form.append('file', content, filename);
      return fetch(`${base}/reformes/import/preview`, { method: 'POST', headers: central.headers, body: form });
    };
    const started = performance.now();
    let response = await send();
    // The pressure guard (503) samples the whole test process on a shared machine: one retry, its time counted.
    if (response.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      response = await send();
    }
    // A preview's rows are read and dropped as they come: this process is also the server, whose memory is measured.
    let message = '';
    if (response.ok) for await (const _piece of response.body ?? []);
    else ({ message = '' } = (await response.json()) as { message?: string });
    return { status: response.status, message, seconds: (performance.now() - started) / 1000 };
  }

  for (const [name, , filename, status, message, seconds] of HOSTILE) {
    it(`answers ${name} (${status}) within ${seconds} s, the server answering all along, its memory bounded`, async () => {
      const content = files.get(name) ?? new Blob([]);
      expect(content.size).toBeLessThanOrEqual(IMPORT_MAX_BYTES);
      // The peak RSS (VmHWM) starts again from the current RSS: what the reading adds is its peak minus that.
      fs.writeFileSync('/proc/self/clear_refs', '5');
      const before = memoryOf('VmRSS');
      health = [];
      const { heapUsed, external } = process.memoryUsage();
      const mainBefore = (heapUsed + external) / MB;
      mainPeak = 0;
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const answer = await preview(content, filename);
      const added = memoryOf('VmHWM') - before;
      await new Promise((resolve) => setTimeout(resolve, 50));
      delay.disable();
      const held = delay.max / 1e6;
      const sorted = health.toSorted((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
      console.info(
        `${name}: ${answer.status} in ${answer.seconds.toFixed(2)} s, peak RSS +${added.toFixed(1)} MB (main heap+external +${(mainPeak - mainBefore).toFixed(1)}), health p99 ${p99.toFixed(0)} ms over ${sorted.length}, worst ${sorted.at(-1)?.toFixed(0)} ms, event loop held at most ${held.toFixed(0)} ms: ${answer.message}`,
      );
      expect(answer.status, answer.message).toBe(status);
      if (message) expect(answer.message).toContain(message);
      expect(answer.seconds).toBeLessThan(seconds);
      expect(added).toBeLessThanOrEqual(status === 200 ? PREVIEW_RSS_MB : ADDED_RSS_MB);
      expect(p99).toBeLessThanOrEqual(HEALTH_P99_MS);
      expect(held).toBeLessThanOrEqual(HELD_MS);
    });
  }

  it('still previews an ordinary file afterwards', async () => {
    const answer = await preview(new Blob([`${HEADER}\n${IMPORT_TEMPLATE.example.join(';')}`]), 'modele.csv');
    expect(answer.status, answer.message).toBe(200);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
