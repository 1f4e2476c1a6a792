import { changePasswordSchema, fileLookupSchema, settingsStateParamSchema } from '../auth.ts';
import type { Action } from '../permissions.ts';
import { idParamsSchema, stateParamSchema } from '../reference.ts';
import { dataUrlsAnswer, userSettingAnswer, userSettingShape } from '../shapes/auth.ts';
import { listShape, messageShape } from '../shapes/envelope.ts';
import { routesOf } from './route.ts';

const can = <A extends Action>(action: A) => ({ feature: 'user-settings', action }) as const;

/** `POST get-file` and `get-file2`: a whitelisted folder, the caller's own signature (any for admin), as a data URL. */
const getFile = { access: can('list'), summary: 'Image stockée en data URL', body: fileLookupSchema, answer: dataUrlsAnswer } as const;

/** Spec §7 "Auth and account" (change-password) and "Files and user settings". */
export const ACCOUNT_ROUTES = {
  ...routesOf(['Mon compte'], {
    // One's own password is part of having an account, like `api/user` and `logout`: any signed-in user,
    // whatever its role (docs/decisions-issue13-roles.md).
    changePassword: {
      method: 'POST',
      path: '/api/change-password',
      access: 'signed-in',
      summary: 'Changer son mot de passe',
      body: changePasswordSchema,
      answer: messageShape,
    },
  }),
  ...routesOf(['Paramètres utilisateur'], {
    settings: {
      method: 'GET',
      path: '/user-settings',
      access: can('list'),
      summary: 'Paramètres utilisateur : lister',
      answer: listShape(userSettingShape),
    },
    settingsByState: {
      method: 'GET',
      path: '/user-settings-by-state/:state',
      access: can('list'),
      summary: 'Paramètres utilisateur : lister',
      params: settingsStateParamSchema,
      answer: listShape(userSettingShape),
    },
    setting: {
      method: 'GET',
      path: '/user-settings/:id',
      access: can('show'),
      summary: 'Paramètres utilisateur : consulter',
      params: idParamsSchema,
      answer: userSettingAnswer,
    },
    // Create and update both upload the signature of the caller ("Charger ma signature"), in the multipart
    // `signature` field: no JSON body.
    uploadSignature: {
      method: 'POST',
      path: '/user-settings',
      status: 201,
      access: can('add'),
      summary: 'Charger sa signature (multipart signature)',
      answer: userSettingAnswer,
    },
    replaceSignature: {
      method: 'POST',
      path: '/user-settings/:id',
      access: can('edit'),
      summary: 'Remplacer sa signature (_method=patch)',
      params: idParamsSchema,
      answer: userSettingAnswer,
    },
    removeSetting: {
      method: 'DELETE',
      path: '/user-settings/:id',
      access: can('delete'),
      summary: 'Paramètres utilisateur : supprimer',
      params: idParamsSchema,
      answer: messageShape,
    },
    setSettingState: {
      method: 'GET',
      path: '/user-settings-set-state/:id/state/:state',
      access: can('status'),
      summary: 'Paramètres utilisateur : activer/désactiver',
      params: stateParamSchema,
      answer: userSettingAnswer,
    },
    getFile: { method: 'POST', path: '/get-file', ...getFile },
    getFile2: { method: 'POST', path: '/get-file2', ...getFile },
  }),
};
