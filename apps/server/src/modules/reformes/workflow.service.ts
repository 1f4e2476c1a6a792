import { type HistoryEvent, STAGES, seesAllStructures, transitionOf, WORKFLOW_MESSAGES, type WorkflowAction } from '@reformes/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { affectations, reformes, users } from '../../db/schema/index.ts';
import { AppError, invalid } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import { enqueueMail } from '../../jobs/queue.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { reformeScope } from './reforme-scope.ts';

const STAGE_ROLE: Record<number, string> = {
  [STAGES.transmission]: 'saisie',
  [STAGES.validation]: 'validation',
  [STAGES.publication]: 'publication',
};
const EVENT_OF: Record<WorkflowAction, HistoryEvent> = {
  transmit: 'transmission',
  return: 'retour',
  publish: 'publication',
  unpublish: 'depublication',
};
const SENS_OF: Record<WorkflowAction, number> = { transmit: -1, return: 1, publish: 0, unpublish: 0 };

interface Notice {
  to: string[];
  subject: string;
  text: string;
}

/**
 * Transmit, return, publish and unpublish. The reform row is locked for the transition, so two
 * concurrent requests make exactly one transition; the history row is written in the same
 * transaction; mails leave after the commit.
 */
export function createWorkflowService({ db, publicUrl }: { db: Db; publicUrl: string }) {
  async function recipientsAt(executor: Pick<Db, 'execute'>, stage: number, structureId: number): Promise<string[]> {
    const role = STAGE_ROLE[stage];
    const rows = await executor.execute<{ email: string }>(sql`
      select u.email from users u
      where u.is_active and (${seesAllStructures(role)} or u.structure_id = ${structureId})
        and (select r.name from user_roles ur join roles r on r.id = ur.role_id
             where ur.user_id = u.id order by ur.position, r.id limit 1) = ${role}`);
    return rows.rows.map((row) => row.email);
  }

  async function notify(tx: Pick<Db, 'insert'>, notice: Notice | undefined) {
    if (!notice) return;
    for (const to of notice.to) await enqueueMail(tx, { to, subject: notice.subject, text: notice.text });
  }

  return {
    async apply(auth: AuthContext, reformeId: number, action: WorkflowAction, instruction?: string | null) {
      const text = instruction?.trim() || null;
      if (action === 'return' && !text) throw invalid({ instruction: [WORKFLOW_MESSAGES.instructionRequired] });
      await db.transaction(async (tx) => {
        const [reforme] = await tx
          .select()
          .from(reformes)
          .where(and(eq(reformes.id, reformeId), reformeScope(auth)))
          .for('update');
        if (!reforme) throw new AppError(404, "L'élément demandé est introuvable.");
        const transition = transitionOf(reforme, action, auth.role);
        if (!transition.allowed) throw new AppError(transition.status, transition.message);
        const isPublished = action === 'publish' ? true : action === 'unpublish' ? false : reforme.isPublished;
        await tx.update(reformes).set({ stage: transition.to, isPublished, updated_at: new Date() }).where(eq(reformes.id, reformeId));
        await tx.insert(affectations).values({
          reforme_id: reformeId,
          sens: SENS_OF[action],
          event: EVENT_OF[action],
          from_stage: reforme.stage,
          to_stage: transition.to,
          instruction: action === 'return' || action === 'transmit' ? text : null,
          user_id: auth.userId,
        });
        if (action === 'publish' || action === 'unpublish') {
          await recordAudit(tx, { action: `reforme.${action}`, target: { type: 'reforme', id: reformeId, label: reforme.libref } });
        }
        // The notices leave once the transition is committed (jobs/queue.ts), and never for one rolled back.
        const link = `${publicUrl}/admin/treatment-reformes?reforme=${reforme.id}`;
        let notice: Notice | undefined;
        if (action === 'transmit' || action === 'return') {
          const verb = action === 'transmit' ? 'vous a été transmise' : 'vous est retournée pour correction';
          notice = {
            to: await recipientsAt(tx, transition.to, reforme.structure_id),
            subject: `Réformes : « ${reforme.libref} » ${verb}`,
            text:
              `Bonjour,\n\nLa réforme « ${reforme.libref} » ${verb}.\n` +
              (text ? `\nInstruction : ${text}\n` : '') +
              `\nConsultez-la ici : ${link}\n`,
          };
        } else if (action === 'publish') {
          const [creator] = await tx.select({ email: users.email }).from(users).where(eq(users.id, reforme.created_by));
          notice = creator && {
            to: [creator.email],
            subject: `Réformes : « ${reforme.libref} » est publiée`,
            text: `Bonjour,\n\nLa réforme « ${reforme.libref} » que vous avez enregistrée vient d'être publiée.\n\nConsultez-la ici : ${link}\n`,
          };
        }
        await notify(tx, notice);
      });

      const messages = {
        transmit: WORKFLOW_MESSAGES.transmitted,
        return: WORKFLOW_MESSAGES.returned,
        publish: WORKFLOW_MESSAGES.published,
        unpublish: WORKFLOW_MESSAGES.unpublished,
      };
      return messages[action];
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
