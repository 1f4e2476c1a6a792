import fs from 'node:fs';
import { APP_VERSION, versionText } from '@reformes/domain';
import { describe, expect, it } from 'vitest';

describe('the release number (issue 43)', () => {
  it("is the root package.json's version, and CHANGELOG.md describes it", () => {
    const root = new URL('../../../../../', import.meta.url);
    const pkg = JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    expect(fs.readFileSync(new URL('CHANGELOG.md', root), 'utf8')).toContain(`## ${APP_VERSION} `);
    expect(versionText()).toBe(`Réformes, version ${APP_VERSION}`);
  });
});
