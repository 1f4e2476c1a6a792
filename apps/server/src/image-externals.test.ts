import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build scripts, without declarations.
import { IMAGE_EXTERNALS } from '../scripts/image-externals.mjs';

const SRC = fileURLToPath(new URL('.', import.meta.url));

function sources(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('the image bundle (build.mjs --bundle-dependencies)', () => {
  it('keeps in node_modules every package the server loads by require() or resolve(), which esbuild cannot bundle', () => {
    const loaded = sources(SRC).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/\brequire(?:\(\))?(?:\.resolve)?\(\s*'([^'./][^']*)'\s*\)/g)].map((match) => ({
        file: path.relative(SRC, file),
        name: match[1],
      })),
    );
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const outside = loaded.filter(
      ({ name }) => !name.startsWith('node:') && !IMAGE_EXTERNALS.includes(packageOf(name)) && name !== 'tsx/esm',
    );
    expect(loaded.length).toBeGreaterThan(0);
    expect(outside).toEqual([]);
  });
});
