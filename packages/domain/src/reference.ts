import { emailField, passwordField, phoneField } from './auth.ts';
import { MESSAGES } from './messages.ts';
import { limitedText, requiredText } from './text-fields.ts';
import { ID_MAX, MAX_LIST_ITEMS, TEXT_LIMITS, tooManyItemsMessage } from './text-limits.ts';
import { z } from './zod-locale.ts';

/** Reference lists (spec §3, §5): one schema per entity, messages verbatim. */
export const sectorSchema = z.object({ libsecteur: requiredText('Le libellé du secteur est requis') });
export type SectorInput = z.infer<typeof sectorSchema>;

export const natureSchema = z.object({ libnature: requiredText('Le libellé est requis') });
export type NatureInput = z.infer<typeof natureSchema>;

export const coverSchema = z.object({ lib_couvert: requiredText('Le libellé est requis') });
export type CoverInput = z.infer<typeof coverSchema>;

export const entitySchema = z.object({ libelle: requiredText('Le libellé est requis') });
export type EntityInput = z.infer<typeof entitySchema>;

/** A required reference to another row, given as an id (selects send strings, the API numbers). */
export function requiredId(message: string) {
  return z.coerce
    .number({ error: message })
    .int({ error: message, abort: true })
    .positive({ error: message })
    .max(ID_MAX, { error: message });
}

export const structureSchema = z.object({
  designation: requiredText('Le libellé est requis'),
  sigl: requiredText('Le sigle est requis'),
  adresse_struct: requiredText("L'adresse est requise"),
  email: requiredText("L'email est requis", TEXT_LIMITS.email).pipe(z.email({ error: "L'email n'est pas valide" })),
  telephone: requiredText('Le contact est requis', TEXT_LIMITS.phone),
  sector_id: requiredId('Le libellé du secteur est requis'),
});
export type StructureInput = z.infer<typeof structureSchema>;

/** Checkbox values as forms and query strings send them; blank is false (spec §3 is_signer, canOverwrite). */
export function booleanish(value: unknown): unknown {
  if (value === '' || value === null || value === undefined || value === 'false' || value === '0' || value === 0) return false;
  if (value === 'true' || value === '1' || value === 1) return true;
  return value;
}

/** Create/edit user (spec §5): every field required, roles several, is_signer blank -> false. */
export const userSchema = z.object({
  lastname: requiredText('Le nom est requis'),
  firstname: requiredText('Les prénoms sont requis'),
  address: requiredText("L'adresse est requise"),
  email: emailField,
  phone: phoneField,
  structure_id: requiredId('La structure est requise'),
  roles: z
    .array(requiredText('Au moins un rôle est requis'), { error: 'Au moins un rôle est requis' })
    .min(1, { error: 'Au moins un rôle est requis' })
    .max(MAX_LIST_ITEMS, { error: tooManyItemsMessage(MAX_LIST_ITEMS) }),
  is_signer: z.preprocess(booleanish, z.boolean()),
});
export type UserInput = z.infer<typeof userSchema>;

const idParam = z.coerce
  .number({ error: 'Identifiant invalide' })
  .int({ error: 'Identifiant invalide', abort: true })
  .positive({ error: 'Identifiant invalide' })
  .max(ID_MAX, { error: 'Identifiant invalide' });
export const idParamsSchema = z.object({ id: idParam });

export const stateParamSchema = z.object({
  id: idParam,
  state: z.enum(['0', '1'], { error: "L'état doit valoir 0 ou 1" }),
});

export const searchSchema = z.object({ search: limitedText(TEXT_LIMITS.search, 'Le texte recherché est requis') });

/** Largest page a client may ask for, and the size of the implicit page of a list asked for without `per_page`. */
export const MAX_PER_PAGE = 100;
export const WHOLE_LIST_MAX = 1000;

/** Admin's reset-password form (spec §5): email, password and confirmation, min 8, equal (our decision). */
export const resetPasswordSchema = z
  .object({
    id: requiredId('Utilisateur requis'),
    email: emailField,
    password: passwordField,
    password_confirmation: passwordField,
  })
  .refine((value) => value.password === value.password_confirmation, {
    error: MESSAGES.passwordsDiffer,
    path: ['password_confirmation'],
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** Role form (spec §5): Libellé, and "Fixer ce rôle ?" where blank becomes false. */
export const roleSchema = z.object({
  name: requiredText('Le libellé est requis'),
  canOverwrite: z.preprocess(booleanish, z.boolean()).default(false),
  guard_name: z.literal('api').default('api'),
  /** Issue 18: "Exiger la double authentification" for the role's users. */
  requires_two_factor: z.preprocess(booleanish, z.boolean()).default(false),
});
export type RoleInput = z.infer<typeof roleSchema>;
