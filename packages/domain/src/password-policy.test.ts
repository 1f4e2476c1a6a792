import { describe, expect, it } from 'vitest';
import { changePasswordSchema, firstPasswordSchema, recoveryPasswordSchema } from './auth.ts';
import {
  containsAppName,
  containsOwnerWord,
  foldPassword,
  ownerWordsOf,
  passwordIssueMessage,
  passwordIssueOf,
} from './password-policy.ts';
import { resetPasswordSchema } from './reference.ts';

const owner = { email: 'jp.moreau@reformes.test', lastname: 'Moreau', firstname: 'Jean-Paul' };
const isCommon = (password: string) => ['password', 'azerty123', 'motdepasse'].includes(password.toLowerCase());

describe('foldPassword', () => {
  it('lowers the case, drops accents and keeps letters and digits only', () => {
    expect(foldPassword('Ré-formes 2026!')).toBe('reformes2026');
    expect(foldPassword('ÉLODIE_ÇA')).toBe('elodieca');
  });
});

describe('containsAppName', () => {
  it.each(['reformes', 'Reformes2026!', 'RÉFORMES', 'réformes', '2026-Réforme#', 'Ma.Re-forme.Preferee'])('refuses %s', (password) => {
    expect(containsAppName(password)).toBe(true);
  });

  it.each(['Tournesol-Bleu-42', 'Refrain-Formel-9', 'Forme2026!Re'])('accepts %s', (password) => {
    expect(containsAppName(password)).toBe(false);
  });
});

describe('ownerWordsOf and containsOwnerWord', () => {
  it('takes the words of the names and of the email local part, folded, of 3 characters at least', () => {
    expect(ownerWordsOf(owner)).toEqual(['moreau', 'jean', 'paul']);
    expect(ownerWordsOf({ email: 'li.bo@x.fr', lastname: 'Li', firstname: 'Bo' })).toEqual([]);
    expect(ownerWordsOf({ email: 'élodie@x.fr' })).toEqual(['elodie']);
  });

  it('finds a name or the email in the password, whatever the case, accents or separators', () => {
    for (const password of ['JeanPaul2026!', 'MOREAU-1234', 'xxPAULxx99', 'jp.moreau!!']) {
      expect(containsOwnerWord(password, owner), password).toBe(true);
    }
    expect(containsOwnerWord('Elodie2026!', { firstname: 'Élodie' })).toBe(true);
    expect(containsOwnerWord('Tournesol-Bleu-42', owner)).toBe(false);
    // "jp" is too short to count.
    expect(containsOwnerWord('JP-Tournesol-42', owner)).toBe(false);
  });
});

describe('passwordIssueOf', () => {
  it('refuses the app name first, then a common password, then the owner', () => {
    expect(passwordIssueOf('Reformes2026!', { owner, isCommon })).toBe('app-name');
    expect(passwordIssueOf('Password', { owner, isCommon })).toBe('common');
    expect(passwordIssueOf('AZERTY123', { owner, isCommon })).toBe('common');
    expect(passwordIssueOf('Moreau-Tournesol', { owner, isCommon })).toBe('personal');
    expect(passwordIssueOf('Tournesol-Bleu-42', { owner, isCommon })).toBeUndefined();
  });

  it('skips the rules it has no data for', () => {
    expect(passwordIssueOf('password')).toBeUndefined();
    expect(passwordIssueOf('Moreau-Tournesol')).toBeUndefined();
    expect(passwordIssueOf('reformes')).toBe('app-name');
  });
});

describe('passwordIssueMessage', () => {
  it('says each refusal in French, about oneself or about the user an administrator resets', () => {
    expect(passwordIssueMessage('common')).toBe('Ce mot de passe est trop courant');
    expect(passwordIssueMessage('app-name')).toBe("Le mot de passe ne doit pas contenir le nom de l'application");
    expect(passwordIssueMessage('personal')).toBe('Le mot de passe ne doit pas contenir votre nom ou votre email');
    expect(passwordIssueMessage('personal', { forOther: true })).toBe(
      "Le mot de passe ne doit pas contenir le nom ou l'email de l'utilisateur",
    );
  });
});

describe('every new-password schema refuses the app name (the rule the web can check alone)', () => {
  const APP_NAME = "Le mot de passe ne doit pas contenir le nom de l'application";

  it('first password, recovery, account change and admin reset', () => {
    const password = 'Réformes2026!';
    expect(firstPasswordSchema.safeParse({ password, confirm_password: password }).error?.issues[0]).toMatchObject({
      path: ['password'],
      message: APP_NAME,
    });
    expect(recoveryPasswordSchema.safeParse({ token: 't', password, password_confirmation: password }).error?.issues[0]).toMatchObject({
      path: ['password'],
      message: APP_NAME,
    });
    expect(
      changePasswordSchema.safeParse({ old_password: 'x', new_password: password, confirm_password: password }).error?.issues[0],
    ).toMatchObject({ path: ['new_password'], message: APP_NAME });
    expect(
      resetPasswordSchema.safeParse({ id: 1, email: 'a@b.fr', password, password_confirmation: password }).error?.issues[0],
    ).toMatchObject({ path: ['password'], message: APP_NAME });
  });

  it('keeps the spec messages for a short password and accepts a strong one', () => {
    expect(firstPasswordSchema.safeParse({ password: 'court', confirm_password: 'court' }).error?.issues.map((i) => i.message)).toEqual([
      'Le mot de passe doit contenir au moins 8 caractères',
      'Le mot de passe doit contenir au moins 8 caractères',
    ]);
    expect(firstPasswordSchema.safeParse({ password: 'Tournesol-Bleu-42', confirm_password: 'Tournesol-Bleu-42' }).success).toBe(true);
  });
});
