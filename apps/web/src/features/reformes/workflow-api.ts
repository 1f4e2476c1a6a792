import { REFORMES_ROUTES } from '@reformes/domain';
import { call } from '../../api/call.ts';

/** Spec §9 assignment sens: -1 transmits one stage up, 1 returns one stage down (with an instruction). */
export const SENS = { transmit: -1, return: 1 } as const;

export const transmitReforme = (reformeId: number) =>
  call(REFORMES_ROUTES.affectation, { body: { reforme_id: reformeId, sens: SENS.transmit } });

export const returnReforme = (reformeId: number, instruction: string) =>
  call(REFORMES_ROUTES.affectation, { body: { reforme_id: reformeId, sens: SENS.return, instruction } });

export const publishReforme = (reformeId: number) => call(REFORMES_ROUTES.publish, { params: { id: reformeId } });

export const unpublishReforme = (reformeId: number) => call(REFORMES_ROUTES.unpublish, { params: { id: reformeId } });
