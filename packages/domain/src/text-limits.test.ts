import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { permissionSchema, profileCopySchema, profileGrantSchema, rolesWindowsCopySchema } from './access.ts';
import {
  changePasswordSchema,
  firstPasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  profileSchema,
  recoveryPasswordSchema,
  refreshSchema,
  userUpdateSchema,
} from './auth.ts';
import './zod-locale.ts';
import { NUMBER_LIMITS, tooLargeNumberMessage } from './numbers.ts';
import {
  coverSchema,
  entitySchema,
  idParamsSchema,
  natureSchema,
  resetPasswordSchema,
  roleSchema,
  searchSchema,
  sectorSchema,
  structureSchema,
  userSchema,
} from './reference.ts';
import { objectifSchema, reformeFiltersSchema, reformeSchema, resultatSchema } from './reforme.ts';
import { suiviSchema } from './suivi.ts';
import { textLimitOf } from './text-fields.ts';
import {
  ID_MAX,
  isStorableText,
  lengthCounter,
  limitDescription,
  MAX_LIST_ITEMS,
  TEXT_LIMITS,
  TEXT_MESSAGES,
  tooLongMessage,
  tooManyItemsMessage,
} from './text-limits.ts';

/** Every schema that receives what a user or a client types. */
const SCHEMAS: Record<string, z.ZodObject> = {
  sectorSchema,
  natureSchema,
  coverSchema,
  entitySchema,
  structureSchema,
  userSchema,
  roleSchema,
  resetPasswordSchema,
  searchSchema,
  idParamsSchema,
  loginSchema,
  refreshSchema,
  forgotPasswordSchema,
  recoveryPasswordSchema,
  firstPasswordSchema,
  changePasswordSchema,
  profileSchema,
  userUpdateSchema,
  reformeSchema,
  reformeFiltersSchema,
  objectifSchema,
  resultatSchema,
  suiviSchema,
  permissionSchema,
  profileGrantSchema,
  profileCopySchema,
  rolesWindowsCopySchema,
};

/** The `maxLength` of every string a schema may hold (null when unlimited), arrays and wrappers included. */
function stringLimits(schema: z.core.$ZodType): Array<number | null> {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (def.type === 'string') return [textLimitOf(schema) ?? null];
  // What a pipe's output checks (an email's format) only ever sees a text its input already limited.
  if (def.type === 'pipe') {
    const input = stringLimits(def.in as z.core.$ZodType);
    if (input.length > 0 && !input.includes(null)) return input;
  }
  const children = [def.in, def.out, def.innerType, def.element, ...(def.type === 'object' ? Object.values(def.shape as object) : [])];
  return children
    .filter((child): child is z.core.$ZodType => !!child && typeof child === 'object' && '_zod' in child)
    .flatMap(stringLimits);
}

const issuesOf = (schema: z.ZodType, value: unknown, field: string) =>
  (schema.safeParse(value).error?.issues ?? []).filter((issue) => issue.path.join('.') === field).map((issue) => issue.message);

describe('text limits', () => {
  it.each(Object.entries(SCHEMAS))('gives every text field of %s a maximum length', (_name, schema) => {
    expect(stringLimits(schema)).not.toContain(null);
  });

  it('refuses a label one character too long, in French, and keeps the required message alone for a blank one', () => {
    expect(sectorSchema.safeParse({ libsecteur: 'a'.repeat(255) }).success).toBe(true);
    expect(issuesOf(sectorSchema, { libsecteur: 'a'.repeat(256) }, 'libsecteur')).toEqual(['Ce champ ne doit pas dépasser 255 caractères']);
    expect(issuesOf(sectorSchema, { libsecteur: '   ' }, 'libsecteur')).toEqual(['Le libellé du secteur est requis']);
    expect(issuesOf(sectorSchema, {}, 'libsecteur')).toEqual(['Le libellé du secteur est requis']);
  });

  it('counts the limit after trimming, in characters (an emoji is one) as PostgreSQL does', () => {
    expect(natureSchema.safeParse({ libnature: ` ${'é'.repeat(255)} ` }).success).toBe(true);
    expect(natureSchema.safeParse({ libnature: '😀'.repeat(255) }).success).toBe(true);
    expect(issuesOf(natureSchema, { libnature: '😀'.repeat(256) }, 'libnature')).toEqual([tooLongMessage(255)]);
  });

  it('refuses a NUL byte and a lone surrogate in any text, and accepts other unicode', () => {
    expect(issuesOf(coverSchema, { lib_couvert: 'Natio\u0000nale' }, 'lib_couvert')).toEqual([TEXT_MESSAGES.forbiddenCharacter]);
    expect(issuesOf(entitySchema, { libelle: 'a\ud800b' }, 'libelle')).toEqual(['Caractère non autorisé']);
    expect(issuesOf(entitySchema, { libelle: 'b\udc00' }, 'libelle')).toEqual(['Caractère non autorisé']);
    expect(entitySchema.safeParse({ libelle: "Ministère de l'Économie 😀 — Ω ✓ 中文" }).success).toBe(true);
    expect(isStorableText('\u0000')).toBe(false);
    expect(isStorableText('😀')).toBe(true);
  });

  it('gives long texts 5 000 characters and one-line reform fields 255', () => {
    const long = 'x'.repeat(TEXT_LIMITS.longText + 1);
    for (const field of ['objectif_glob', 'struct_impl', 'difficult', 'solution', 'perspective']) {
      expect(issuesOf(reformeSchema, { [field]: long }, field)).toContain('Ce champ ne doit pas dépasser 5\u202f000 caractères');
      expect(issuesOf(reformeSchema, { [field]: long.slice(1) }, field).filter((message) => message.includes('dépasser'))).toEqual([]);
    }
    for (const field of ['libref', 'popul_cible', 'cadreinst_mor']) {
      expect(issuesOf(reformeSchema, { [field]: 'x'.repeat(256) }, field)).toContain(tooLongMessage(255));
    }
    expect(issuesOf(objectifSchema, { libobjectif: long }, 'libobjectif')).toContain(tooLongMessage(TEXT_LIMITS.longText));
  });

  it('keeps the spec required messages of the reform form unchanged', () => {
    expect(issuesOf(reformeSchema, { libref: '' }, 'libref')).toEqual(['Le Libellé de la réforme est requis']);
    expect(issuesOf(reformeSchema, { objectif_glob: ' ' }, 'objectif_glob')).toEqual(["L'objectif est requis"]);
    expect(issuesOf(resultatSchema, { indicateur: '' }, 'indicateur')).toEqual(["L'indicateur est requis"]);
  });

  it('limits emails to 254 characters, phones to 20 and passwords to 128', () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(185)}.test`;
    expect(email).toHaveLength(255);
    expect(issuesOf(forgotPasswordSchema, { email }, 'email')).toEqual([tooLongMessage(254)]);
    expect(issuesOf(profileSchema, { phone: '1'.repeat(21) }, 'phone')).toEqual([tooLongMessage(20)]);
    expect(issuesOf(structureSchema, { telephone: '1'.repeat(21) }, 'telephone')).toEqual([tooLongMessage(20)]);
    expect(issuesOf(loginSchema, { email: 'a@b.test', password: 'p'.repeat(129) }, 'password')).toEqual([tooLongMessage(128)]);
    expect(issuesOf(changePasswordSchema, { new_password: 'p'.repeat(129) }, 'new_password')).toEqual([tooLongMessage(128)]);
  });

  it('limits search texts, in a search body and in the reform filters', () => {
    expect(searchSchema.safeParse({ search: 'a'.repeat(255) }).success).toBe(true);
    expect(issuesOf(searchSchema, { search: 'a'.repeat(256) }, 'search')).toEqual([tooLongMessage(255)]);
    expect(issuesOf(reformeFiltersSchema, { search: 'x\u0000' }, 'search')).toEqual([TEXT_MESSAGES.forbiddenCharacter]);
  });

  it('refuses ids beyond what the database holds and lists longer than 1 000 items', () => {
    expect(issuesOf(idParamsSchema, { id: String(ID_MAX + 1) }, 'id')).toEqual(['Identifiant invalide']);
    expect(idParamsSchema.safeParse({ id: String(ID_MAX) }).success).toBe(true);
    expect(issuesOf(structureSchema, { sector_id: 1e20 }, 'sector_id')).toEqual(['Le libellé du secteur est requis']);
    const permissions = Array.from({ length: MAX_LIST_ITEMS + 1 }, (_, index) => index + 1);
    expect(issuesOf(profileGrantSchema, { id: 1, permissions }, 'permissions')).toEqual([tooManyItemsMessage(MAX_LIST_ITEMS)]);
    expect(issuesOf(userSchema, { roles: Array(MAX_LIST_ITEMS + 1).fill('saisie') }, 'roles')).toEqual(['Pas plus de 1\u202f000 éléments']);
  });

  it('refuses amounts and measures the database columns cannot hold', () => {
    expect(issuesOf(reformeSchema, { montant_prevu: '9999999999999,99' }, 'montant_prevu')).toEqual([]);
    expect(issuesOf(reformeSchema, { montant_prevu: '10000000000000' }, 'montant_prevu')).toEqual([
      tooLargeNumberMessage(NUMBER_LIMITS.amount),
    ]);
    expect(issuesOf(resultatSchema, { valeur_cible: '-100000000000000' }, 'valeur_cible')).toEqual([
      tooLargeNumberMessage(NUMBER_LIMITS.measure),
    ]);
    expect(issuesOf(suiviSchema, { taux_realisat: 1e14 }, 'taux_realisat')).toEqual([tooLargeNumberMessage(NUMBER_LIMITS.measure)]);
  });

  it('reads the limit of a field through its wrappers, for the forms', () => {
    expect(textLimitOf(sectorSchema.shape.libsecteur)).toBe(255);
    expect(textLimitOf(structureSchema.shape.email)).toBe(254);
    expect(textLimitOf(userSchema.shape.phone)).toBe(20);
    expect(textLimitOf(reformeSchema.shape.difficult)).toBe(5000);
    expect(textLimitOf(reformeFiltersSchema.shape.search)).toBe(255);
    expect(textLimitOf(userSchema.shape.is_signer)).toBeUndefined();
    expect(textLimitOf(structureSchema.shape.sector_id)).toBeUndefined();
  });

  it('writes the description and the counter of a long text in French', () => {
    expect(limitDescription(5000)).toBe('5\u202f000 caractères au plus');
    expect(lengthCounter(123, 5000)).toBe('123 / 5\u202f000');
  });
});
