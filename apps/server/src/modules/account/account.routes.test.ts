import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, type Caller, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082',
  'hex',
);
const OTHER_PNG = Buffer.concat([PNG, Buffer.from('fin de la seconde signature')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF signature numérisée'), Buffer.from([0xff, 0xd9])]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><script>alert(document.cookie)</script></svg>',
);

const MESSAGES = {
  invalid: 'Les données envoyées sont invalides.',
  wrongOld: "L'ancien mot de passe est incorrect.",
  differ: 'Nouveaux mots de passe non identique',
  min: 'Le mot de passe doit contenir au moins 8 caractères',
  changed: 'Mot de passe modifié avec succès : reconnectez-vous.',
  unauthenticated: 'Session expirée ou absente, veuillez vous reconnecter.',
  invalidRefresh: 'Session invalide, veuillez vous reconnecter.',
  invalidCredentials: 'Email ou mot de passe incorrect.',
  signatureSaved: 'Signature enregistrée avec succès',
  imagesOnly: 'La signature doit être une image PNG ou JPEG.',
  signatureRequired: 'La signature est requise',
  notSigner: 'Seuls les comptes signataires peuvent charger une signature.',
  pathInName: 'Le nom du fichier ne doit pas contenir de chemin',
  folderNotAllowed: "Ce dossier n'est pas accessible.",
  fileNotAllowed: "Ce fichier n'est pas accessible.",
  badFilename: 'Nom de fichier invalide',
  notFound: "L'élément demandé est introuvable.",
  forbidden: "Vous n'avez pas les droits nécessaires pour effectuer cette action.",
  deleted: 'Suppression effectuée avec succès',
};

/** The multipart body of "Charger ma signature". */
function signatureForm(content: Buffer, filename = 'signature.png', type = 'image/png', field = 'signature') {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), filename);
  return form;
}

describe('my account', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
  });
  afterAll(() => t.close());

  describe('password change (POST api/change-password)', () => {
    const email = 'validation@reformes.test';
    const newPassword = 'NouveauMotDePasse2026';
    let signedIn: Caller;

    beforeAll(async () => {
      signedIn = t.caller(await t.login(email));
    });

    it('refuses a wrong old password (422 "L\'ancien mot de passe est incorrect.") and keeps the password', async () => {
      const response = await signedIn.post('api/change-password', {
        old_password: 'PasLeBonMotDePasse',
        new_password: newPassword,
        confirm_password: newPassword,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: MESSAGES.wrongOld, errorsList: { old_password: [MESSAGES.wrongOld] } });
      expect((await signedIn.get('api/user')).statusCode).toBe(200);
      await t.login(email, DEMO_PASSWORD);
    });

    it('refuses a confirmation that differs (422 "Nouveaux mots de passe non identique")', async () => {
      const response = await signedIn.post('api/change-password', {
        old_password: DEMO_PASSWORD,
        new_password: newPassword,
        confirm_password: `${newPassword}x`,
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: MESSAGES.invalid, errorsList: { confirm_password: [MESSAGES.differ] } });
    });

    it('refuses a new password under 8 characters (422 with the minimum-length message)', async () => {
      const response = await signedIn.post('api/change-password', {
        old_password: DEMO_PASSWORD,
        new_password: 'Court1',
        confirm_password: 'Court1',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: MESSAGES.invalid,
        errorsList: { new_password: [MESSAGES.min], confirm_password: [MESSAGES.min] },
      });
      await t.login(email, DEMO_PASSWORD);
    });

    it('requires a signed-in user (401)', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api/change-password',
        payload: { old_password: DEMO_PASSWORD, new_password: newPassword, confirm_password: newPassword },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: MESSAGES.unauthenticated });
    });

    it('changes the password, ends every session of the user, and lets them sign in with the new one only', async () => {
      const current = await t.login(email);
      const otherDevice = await t.login(email);
      const response = await t.caller(current).post('api/change-password', {
        old_password: DEMO_PASSWORD,
        new_password: newPassword,
        confirm_password: newPassword,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: MESSAGES.changed });

      for (const caller of [t.caller(current), t.caller(otherDevice), signedIn]) {
        const me = await caller.get('api/user');
        expect(me.statusCode).toBe(401);
        expect(me.json()).toMatchObject({ message: MESSAGES.unauthenticated });
      }
      for (const session of [current, otherDevice]) {
        const refresh = await t.app.inject({
          method: 'POST',
          url: '/api/v1/api/refresh',
          payload: { refresh_token: session.refresh_token },
        });
        expect(refresh.statusCode).toBe(401);
        expect(refresh.json()).toMatchObject({ message: MESSAGES.invalidRefresh });
      }

      const oldPassword = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api/login',
        payload: { email, password: DEMO_PASSWORD, device: 'web' },
      });
      expect(oldPassword.statusCode).toBe(401);
      expect(oldPassword.json()).toMatchObject({ message: MESSAGES.invalidCredentials });
      const fresh = await t.login(email, newPassword);
      const me = await t.caller(fresh).get('api/user');
      expect(me.statusCode).toBe(200);
      expect(me.json().data).toMatchObject({ email, must_change_password: false });
    });

    it("leaves other users' sessions alone", async () => {
      const other = await t.login('saisie@reformes.test');
      const own = await t.login(email, newPassword);
      expect(
        (
          await t.caller(own).post('api/change-password', {
            old_password: newPassword,
            new_password: 'EncoreUnMotDePasse2026',
            confirm_password: 'EncoreUnMotDePasse2026',
          })
        ).statusCode,
      ).toBe(200);
      expect((await t.caller(other).get('api/user')).statusCode).toBe(200);
      // The demo password cannot come back: it holds the app's name, which a new password may not.
      await t.login(email, 'EncoreUnMotDePasse2026');
    });

    it('counts wrong old passwords like sign-ins: past LOGIN_MAX_FAILURES the account waits (429), the right one too', async () => {
      const user = await t.createAccount('saisie');
      const session = t.caller(await t.login(user.email));
      const attempt = (old_password: string) =>
        session.post('api/change-password', { old_password, new_password: newPassword, confirm_password: newPassword });
      const statuses: number[] = [];
      for (let count = 0; count < 5; count += 1) statuses.push((await attempt(`Pas-le-bon-${count}`)).statusCode);
      expect(statuses).toEqual([422, 422, 422, 422, 422]);
      const right = await attempt(DEMO_PASSWORD);
      expect(right.statusCode).toBe(429);
      expect(right.json().message).toMatch(/^Trop de tentatives de connexion\. Réessayez dans \d+ secondes?\.$/);
      expect((await session.get('api/user')).statusCode).toBe(200);
    });

    it('checks the old password before the policy: a weak new password is told only to the right old one', async () => {
      const user = await t.createAccount('saisie');
      const session = t.caller(await t.login(user.email));
      const weak = (old_password: string) =>
        session.post('api/change-password', { old_password, new_password: 'motdepasse', confirm_password: 'motdepasse' });
      const wrongOld = await weak('Pas-le-bon-2026');
      expect(wrongOld.json()).toMatchObject({ message: MESSAGES.wrongOld, errorsList: { old_password: [MESSAGES.wrongOld] } });
      const rightOld = await weak(DEMO_PASSWORD);
      expect(rightOld.statusCode).toBe(422);
      expect(Object.keys(rightOld.json().errorsList)).toEqual(['new_password']);
    });

    it('mails the notice of the password change to the account, without the password', async () => {
      const user = await t.createAccount('saisie');
      const session = t.caller(await t.login(user.email));
      const before = t.outbox().length;
      const changed = await session.post('api/change-password', {
        old_password: DEMO_PASSWORD,
        new_password: newPassword,
        confirm_password: newPassword,
      });
      expect(changed.statusCode).toBe(200);
      const mails = t.outbox().slice(before);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatch(new RegExp(`^To: ${user.email}$`, 'm'));
      expect(mails[0]).toContain(`Bonjour ${user.firstname} ${user.lastname},`);
      expect(mails[0]).toContain('Le mot de passe de votre compte Réformes a été changé le ');
      expect(mails[0]).toContain("Si vous n'êtes pas à l'origine de ce changement, contactez sans attendre un administrateur");
      expect(mails[0]).not.toContain(newPassword);
      expect(mails[0]).not.toContain(DEMO_PASSWORD);
    });
  });

  describe('signature (user-settings, get-file)', () => {
    let signer: Caller;
    let signerId: number;
    let saisie: Caller;
    let admin: Caller;
    let settingId: number;
    let firstName: string;
    const directory = () => path.join(t.config.storageDir, 'director');
    const storedNames = () => (fs.existsSync(directory()) ? fs.readdirSync(directory()).sort() : []);
    const upload = (caller: Caller, form: FormData, url = 'user-settings') =>
      t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: caller.headers, payload: form });
    const getFile = (caller: Caller, body: object, url = 'get-file') => caller.post(url, body);

    beforeAll(async () => {
      signer = await t.as('publication');
      signerId = signer.session.user.id;
      saisie = await t.as('saisie');
      admin = await t.as('admin');
    });

    it('lets a signer upload a PNG (201), stored under a generated name in STORAGE_DIR/director', async () => {
      const response = await upload(signer, signatureForm(PNG, 'ma signature.png'));
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({ message: MESSAGES.signatureSaved, data: { id: expect.any(Number), user_id: signerId } });
      firstName = body.data.signature;
      settingId = body.data.id;
      expect(firstName).toMatch(/^[0-9a-f-]{36}\.png$/);
      expect(storedNames()).toEqual([firstName]);
      expect(fs.readFileSync(path.join(directory(), firstName))).toEqual(PNG);
    });

    it('shows the stored signature in the current user (GET api/user user_setting.signature)', async () => {
      const response = await signer.get('api/user');
      expect(response.json().data.user_setting).toEqual({ id: settingId, signature: firstName });
    });

    it('returns the image as a PNG data URL (POST get-file and get-file2 {folder: "director", disk: "local"})', async () => {
      for (const url of ['get-file', 'get-file2']) {
        const response = await getFile(signer, { folder: 'director', disk: 'local', filename: firstName }, url);
        expect(response.statusCode).toBe(200);
        const data = response.json().data as string[];
        expect(data).toHaveLength(1);
        expect(data[0].startsWith('data:image/png;base64,')).toBe(true);
        expect(Buffer.from(data[0].slice('data:image/png;base64,'.length), 'base64')).toEqual(PNG);
      }
    });

    it('refuses a PDF (415) and an SVG carrying a script (415), whatever their name, and stores nothing', async () => {
      for (const form of [
        signatureForm(PDF, 'signature.pdf', 'application/pdf'),
        signatureForm(PDF, 'signature.png'),
        signatureForm(SVG, 'signature.svg', 'image/svg+xml'),
        signatureForm(SVG, 'signature.png'),
      ]) {
        const response = await upload(signer, form, `user-settings/${settingId}`);
        expect(response.statusCode).toBe(415);
        expect(response.json()).toMatchObject({ message: MESSAGES.imagesOnly });
      }
      expect(storedNames()).toEqual([firstName]);
      expect((await signer.get('api/user')).json().data.user_setting.signature).toBe(firstName);
    });

    it.each(['../x.png', 'dossier/x.png', '..\\x.png'])('refuses a file name with a path in it: %s (422)', async (filename) => {
      const response = await upload(signer, signatureForm(PNG, filename));
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: MESSAGES.invalid, errorsList: { signature: [MESSAGES.pathInName] } });
      expect(storedNames()).toEqual([firstName]);
    });

    it('asks for the signature when the field is missing or the request is not multipart (422)', async () => {
      const wrongField = await upload(signer, signatureForm(PNG, 'signature.png', 'image/png', 'photo'));
      expect(wrongField.statusCode).toBe(422);
      expect(wrongField.json()).toMatchObject({ message: MESSAGES.invalid, errorsList: { signature: [MESSAGES.signatureRequired] } });
      const json = await signer.post('user-settings', { signature: PNG.toString('base64') });
      expect(json.statusCode).toBe(422);
      expect(json.json().errorsList).toEqual({ signature: [MESSAGES.signatureRequired] });
      expect(storedNames()).toEqual([firstName]);
    });

    it('refuses an account that is not a signer (403 "Seuls les comptes signataires peuvent charger une signature.")', async () => {
      const response = await upload(saisie, signatureForm(PNG));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: MESSAGES.notSigner });
      expect(storedNames()).toEqual([firstName]);
      expect((await saisie.get('api/user')).json().data.user_setting).toBeNull();
    });

    it('serves only the whitelisted folder of the local disk (403 otherwise)', async () => {
      for (const body of [
        { folder: 'reformes', disk: 'local', filename: firstName },
        { folder: 'director', disk: 'public', filename: firstName },
        { folder: '../director', disk: 'local', filename: firstName },
        { folder: 'backups', disk: 'local', filename: firstName },
      ]) {
        const response = await getFile(signer, body);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ message: MESSAGES.folderNotAllowed });
      }
    });

    it('refuses a path-like or foreign file name (422)', async () => {
      for (const filename of ['../../etc/passwd', `../director/${firstName}`, 'signature.svg', `${firstName.slice(0, -4)}.pdf`]) {
        const response = await getFile(signer, { folder: 'director', disk: 'local', filename });
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({ message: MESSAGES.invalid, errorsList: { filename: [MESSAGES.badFilename] } });
      }
      const missing = await getFile(signer, { folder: 'director', disk: 'local' });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errorsList).toEqual({ filename: ['Le nom du fichier est requis'] });
    });

    it("hides another user's signature from a non-admin (404) and shows it to an admin (200)", async () => {
      const bySaisie = await getFile(saisie, { folder: 'director', disk: 'local', filename: firstName });
      expect(bySaisie.statusCode).toBe(404);
      expect(bySaisie.json()).toMatchObject({ message: MESSAGES.fileNotAllowed });
      const byAdmin = await getFile(admin, { folder: 'director', disk: 'local', filename: firstName });
      expect(byAdmin.statusCode).toBe(200);
      expect(byAdmin.json().data[0]).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
      const unknown = await getFile(signer, { folder: 'director', disk: 'local', filename: '00000000-0000-0000-0000-000000000000.png' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ message: MESSAGES.fileNotAllowed });
    });

    it("keeps other users' settings private (GET user-settings/{id} 404 for non-admin)", async () => {
      expect((await signer.get(`user-settings/${settingId}`)).json()).toMatchObject({ data: { signature: firstName } });
      const bySaisie = await saisie.get(`user-settings/${settingId}`);
      expect(bySaisie.statusCode).toBe(404);
      expect(bySaisie.json()).toMatchObject({ message: MESSAGES.notFound });
      expect((await saisie.get('user-settings')).json().data).toEqual([]);
      expect((await admin.get(`user-settings/${settingId}`)).statusCode).toBe(200);
    });

    it("refuses to replace someone else's signature (404 non-admin, 403 admin)", async () => {
      const bySaisie = await upload(saisie, signatureForm(OTHER_PNG), `user-settings/${settingId}`);
      expect(bySaisie.statusCode).toBe(404);
      const byAdmin = await upload(admin, signatureForm(OTHER_PNG), `user-settings/${settingId}`);
      expect(byAdmin.statusCode).toBe(403);
      expect(byAdmin.json()).toMatchObject({ message: MESSAGES.forbidden });
      expect(storedNames()).toEqual([firstName]);
    });

    it('replaces the signature (POST user-settings/{id}) and removes the old file from STORAGE_DIR/director', async () => {
      const response = await upload(signer, signatureForm(OTHER_PNG), `user-settings/${settingId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: MESSAGES.signatureSaved, data: { id: settingId, user_id: signerId } });
      const secondName = response.json().data.signature as string;
      expect(secondName).not.toBe(firstName);
      expect(storedNames()).toEqual([secondName]);
      expect(fs.readFileSync(path.join(directory(), secondName))).toEqual(OTHER_PNG);
      expect((await signer.get('api/user')).json().data.user_setting).toEqual({ id: settingId, signature: secondName });
      const old = await getFile(signer, { folder: 'director', disk: 'local', filename: firstName });
      expect(old.statusCode).toBe(404);

      const jpeg = await upload(signer, signatureForm(JPEG, 'signature.jpg', 'image/jpeg'));
      expect(jpeg.statusCode).toBe(201);
      const jpegName = jpeg.json().data.signature as string;
      expect(jpegName).toMatch(/^[0-9a-f-]{36}\.jpg$/);
      expect(storedNames()).toEqual([jpegName]);
      const image = await getFile(signer, { folder: 'director', disk: 'local', filename: jpegName });
      expect(image.json().data[0]).toBe(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
    });

    it('deletes the setting and its file (DELETE user-settings/{id})', async () => {
      const response = await signer.delete(`user-settings/${settingId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: MESSAGES.deleted });
      expect(storedNames()).toEqual([]);
      expect((await signer.get('api/user')).json().data.user_setting).toBeNull();
    });
  });

  describe('signature size limit', () => {
    let small: TestApp;
    beforeAll(async () => {
      small = await createTestApp({ SIGNATURE_MAX_MB: '0.001' });
    });
    afterAll(() => small.close());

    it('refuses a signature over SIGNATURE_MAX_MB (413) and stores nothing', async () => {
      const signer = bearer((await small.login('publication@reformes.test')).access_token);
      const big = Buffer.concat([PNG, Buffer.alloc(4096, 7)]);
      const response = await small.app.inject({
        method: 'POST',
        url: '/api/v1/user-settings',
        headers: signer,
        payload: signatureForm(big),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ message: 'Le fichier est trop volumineux. (maximum 0,001 Mo)' });
      expect(
        fs.existsSync(path.join(small.config.storageDir, 'director')) ? fs.readdirSync(path.join(small.config.storageDir, 'director')) : [],
      ).toEqual([]);
      const within = await small.app.inject({ method: 'POST', url: '/api/v1/user-settings', headers: signer, payload: signatureForm(PNG) });
      expect(within.statusCode).toBe(201);
    });
  });
});
