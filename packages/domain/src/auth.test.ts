import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  changePasswordSchema,
  firstPasswordSchema,
  forgotPasswordSchema,
  isEmailChange,
  loginSchema,
  profileSchema,
  recoveryPasswordSchema,
  requireCurrentPasswordOnEmailChange,
  tooManyAttemptsMessage,
  userUpdateSchema,
} from './auth.ts';
import './zod-locale.ts';

/** The French messages of a failed parse, by field, as the API's errorsList carries them. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

describe('loginSchema', () => {
  it('requires the email and the password, in French', () => {
    expect(errorsOf(loginSchema, {})).toEqual({ email: ["L'email est requis"], password: ['Le mot de passe est requis'] });
    expect(errorsOf(loginSchema, { email: '   ', password: '' })).toEqual({
      email: ["L'email est requis"],
      password: ['Le mot de passe est requis'],
    });
  });

  it('refuses a malformed email', () => {
    expect(errorsOf(loginSchema, { email: 'claire.martin', password: 'x' })).toEqual({ email: ["L'email n'est pas valide"] });
  });

  it('accepts any non-empty password at sign-in and defaults the device to "web"', () => {
    expect(loginSchema.parse({ email: ' admin@reformes.test ', password: 'x' })).toEqual({
      email: 'admin@reformes.test',
      password: 'x',
      device: 'web',
    });
  });
});

describe('forgotPasswordSchema', () => {
  it('requires the email', () => {
    expect(errorsOf(forgotPasswordSchema, {})).toEqual({ email: ["L'email est requis"] });
    expect(errorsOf(forgotPasswordSchema, { email: 'a@b.fr' })).toEqual({});
  });
});

describe('firstPasswordSchema and recoveryPasswordSchema (spec §5)', () => {
  it('refuses a confirmation that differs with "Nouveaux mots de passe non identique"', () => {
    expect(errorsOf(firstPasswordSchema, { password: 'MotDePasse1', confirm_password: 'MotDePasse2' })).toEqual({
      confirm_password: ['Nouveaux mots de passe non identique'],
    });
    expect(errorsOf(recoveryPasswordSchema, { token: 'abc', password: 'MotDePasse1', password_confirmation: 'MotDePasse2' })).toEqual({
      password_confirmation: ['Nouveaux mots de passe non identique'],
    });
  });

  it('requires at least 8 characters', () => {
    expect(errorsOf(firstPasswordSchema, { password: '1234567', confirm_password: '1234567' })).toEqual({
      password: ['Le mot de passe doit contenir au moins 8 caractères'],
      confirm_password: ['Le mot de passe doit contenir au moins 8 caractères'],
    });
    expect(errorsOf(firstPasswordSchema, { password: '12345678', confirm_password: '12345678' })).toEqual({});
  });

  it('requires both fields', () => {
    expect(errorsOf(firstPasswordSchema, {})).toEqual({
      password: ['Le mot de passe est requis'],
      confirm_password: ['Le mot de passe est requis'],
    });
  });

  it('requires the recovery token, with the invalid-link message', () => {
    expect(errorsOf(recoveryPasswordSchema, { password: 'MotDePasse1', password_confirmation: 'MotDePasse1' })).toEqual({
      token: ['Ce lien de réinitialisation est invalide ou a expiré.'],
    });
  });
});

describe('changePasswordSchema', () => {
  it('requires the old password and a matching new one of 8 characters', () => {
    expect(errorsOf(changePasswordSchema, { old_password: '', new_password: 'NouveauMdp1', confirm_password: 'NouveauMdp1' })).toEqual({
      old_password: ['Le mot de passe est requis'],
    });
    expect(errorsOf(changePasswordSchema, { old_password: 'ancien', new_password: 'NouveauMdp1', confirm_password: 'AutreMdp11' })).toEqual(
      {
        confirm_password: ['Nouveaux mots de passe non identique'],
      },
    );
  });
});

describe('profileSchema and userUpdateSchema (spec §2.2, §5)', () => {
  const valid = { lastname: 'Martin', firstname: 'Claire', email: 'claire@reformes.test', phone: '0102030405' };

  it('accepts a complete profile', () => {
    expect(profileSchema.parse(valid)).toEqual(valid);
  });

  it('requires every field of the profile modal, in French', () => {
    expect(errorsOf(profileSchema, {})).toEqual({
      lastname: ['Le nom est requis'],
      firstname: ['Les prénoms sont requis'],
      email: ["L'email est requis"],
      phone: ['Le téléphone est requis'],
    });
  });

  it('accepts digits only in the phone', () => {
    for (const phone of ['06 01 02 03 04', '+33601020304', '06AB0000', '06-01']) {
      expect(errorsOf(profileSchema, { ...valid, phone })).toEqual({ phone: ['Le téléphone ne doit contenir que des chiffres'] });
    }
  });

  it('lets the account page send the email alone, but never without it', () => {
    expect(userUpdateSchema.parse({ email: 'claire@reformes.test' })).toEqual({ email: 'claire@reformes.test' });
    expect(errorsOf(userUpdateSchema, { lastname: 'Martin' })).toEqual({ email: ["L'email est requis"] });
    expect(errorsOf(userUpdateSchema, { email: 'claire@reformes.test', phone: 'abc' })).toEqual({
      phone: ['Le téléphone ne doit contenir que des chiffres'],
    });
  });

  it('drops fields a profile does not own', () => {
    expect(userUpdateSchema.parse({ email: 'claire@reformes.test', is_active: false, roles: ['admin'] })).toEqual({
      email: 'claire@reformes.test',
    });
  });
});

describe('a change of email requires the current password (issue 14)', () => {
  it('counts as a change only a different address, not its case or spaces', () => {
    expect(isEmailChange('claire@reformes.test', 'claire.martin@reformes.test')).toBe(true);
    expect(isEmailChange('claire@reformes.test', ' CLAIRE@Reformes.test ')).toBe(false);
    expect(isEmailChange('claire@reformes.test', undefined)).toBe(false);
  });

  it('carries current_password through the API schema', () => {
    expect(userUpdateSchema.parse({ email: 'a@b.fr', current_password: 'secret' })).toEqual({
      email: 'a@b.fr',
      current_password: 'secret',
    });
  });

  it('makes the forms require it once the email differs, with "Le mot de passe actuel est requis pour changer d\'email"', () => {
    const schema = requireCurrentPasswordOnEmailChange(
      userUpdateSchema.pick({ email: true, current_password: true }),
      'claire@reformes.test',
    );
    expect(errorsOf(schema, { email: 'claire@reformes.test' })).toEqual({});
    expect(errorsOf(schema, { email: 'autre@reformes.test' })).toEqual({
      current_password: ["Le mot de passe actuel est requis pour changer d'email"],
    });
    expect(errorsOf(schema, { email: 'autre@reformes.test', current_password: '' })).toEqual({
      current_password: ["Le mot de passe actuel est requis pour changer d'email"],
    });
    expect(errorsOf(schema, { email: 'autre@reformes.test', current_password: 'secret' })).toEqual({});
  });
});

describe('tooManyAttemptsMessage', () => {
  it('says the wait in seconds under a minute, in whole minutes (rounded up) beyond', () => {
    expect(tooManyAttemptsMessage(1)).toBe('Trop de tentatives de connexion. Réessayez dans 1 seconde.');
    expect(tooManyAttemptsMessage(16)).toBe('Trop de tentatives de connexion. Réessayez dans 16 secondes.');
    expect(tooManyAttemptsMessage(60)).toBe('Trop de tentatives de connexion. Réessayez dans 1 minute.');
    expect(tooManyAttemptsMessage(61)).toBe('Trop de tentatives de connexion. Réessayez dans 2 minutes.');
    expect(tooManyAttemptsMessage(900)).toBe('Trop de tentatives de connexion. Réessayez dans 15 minutes.');
  });
});
