import { type ApiResponse, api } from '../../api/client.ts';
import type { ReformeDetail } from './reformes-api.ts';

/** Spec §9 assignment sens: -1 transmits one stage up, 1 returns one stage down (with an instruction). */
export const SENS = { transmit: -1, return: 1 } as const;

export const transmitReforme = (reformeId: number) =>
  api.post<ApiResponse<ReformeDetail>>('affectations', { action: 'add', body: { reforme_id: reformeId, sens: SENS.transmit } });

export const returnReforme = (reformeId: number, instruction: string) =>
  api.post<ApiResponse<ReformeDetail>>('affectations', {
    action: 'add',
    body: { reforme_id: reformeId, sens: SENS.return, instruction },
  });

export const publishReforme = (reformeId: number) =>
  api.get<ApiResponse<ReformeDetail>>(`reformes/state/publish/${reformeId}`, { action: 'edit' });

export const unpublishReforme = (reformeId: number) =>
  api.get<ApiResponse<ReformeDetail>>(`reformes/state/unpublish/${reformeId}`, { action: 'edit' });
