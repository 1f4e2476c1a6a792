import { ACTIONS } from './permissions.ts';
import { requiredId } from './reference.ts';
import { limitedText } from './text-fields.ts';
import { ID_MAX, MAX_LIST_ITEMS, TEXT_LIMITS, tooManyItemsMessage } from './text-limits.ts';
import { z } from './zod-locale.ts';

const tooMany = { error: tooManyItemsMessage(MAX_LIST_ITEMS) };

/** Permission form (spec §5): a system feature and at least one action. */
export const permissionSchema = z.object({
  feature_id: requiredId('La fonctionnalité système est requise'),
  actions: z
    .array(z.enum(ACTIONS, { error: 'Action inconnue' }), { error: 'Au moins une action est requise' })
    .min(1, { error: 'Au moins une action est requise' })
    .max(MAX_LIST_ITEMS, tooMany),
});
export type PermissionInput = z.infer<typeof permissionSchema>;

/** Spec §7: an update may arrive as POST with a method field ("patch"), which is ignored. */
export const permissionUpdateSchema = permissionSchema.extend({ _method: limitedText(TEXT_LIMITS.label).optional() });

/** "Ajouter un droit": several permissions granted to a role at once. */
export const profileGrantSchema = z.object({
  id: requiredId('Le rôle est requis'),
  permissions: z
    .array(z.coerce.number().int().positive().max(ID_MAX), { error: 'Au moins un droit est requis' })
    .min(1, { error: 'Au moins un droit est requis' })
    .max(MAX_LIST_ITEMS, tooMany),
});
export type ProfileGrantInput = z.infer<typeof profileGrantSchema>;

/** "Copier vers": the rights of role `id` are added to role `role_id`. */
export const profileCopySchema = z.object({
  id: requiredId('Le rôle source est requis'),
  role_id: requiredId('Le rôle cible est requis'),
});
export type ProfileCopyInput = z.infer<typeof profileCopySchema>;

/** Role copy (spec §5): the windows of "ancien rôle" are given to the target role. */
export const rolesWindowsCopySchema = z.object({
  old_id: requiredId("L'ancien rôle est requis"),
  new_id: requiredId('Le rôle cible est requis'),
});
export type RolesWindowsCopyInput = z.infer<typeof rolesWindowsCopySchema>;
