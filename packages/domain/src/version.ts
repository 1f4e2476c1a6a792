/**
 * The release (issue 43): the root package.json's `version`, which CHANGELOG.md describes. Written here so that the
 * server (GET health) and the web app (the footer of « Mon compte ») show it without reading files at run time;
 * version.test.ts fails when the two differ.
 */
export const APP_VERSION = '1.0.0';

/** « Réformes, version 1.0.0 » */
export const versionText = (version: string = APP_VERSION) => `Réformes, version ${version}`;
