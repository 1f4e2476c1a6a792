import { describe, expect, it } from 'vitest';
import { transitionOf, transmitConfirmationOf, WORKFLOW_MESSAGES, type WorkflowAction, workStageOf } from './workflow.ts';

/**
 * The expected outcome of every (action, role, stage, published) combination, written out by hand
 * from the architecture §4 rather than derived from the code. Columns, in order:
 * stage 1 unpublished, stage 1 published, stage 2 unpublished, stage 2 published, stage 3 unpublished, stage 3 published.
 *   '->N'     allowed, the reform goes to stage N
 *   'role'    403, the role may not take this action
 *   'stage'   409, the reform is not at the stage for this action
 *   'locked'  409, a published reform no longer moves
 *   'already' 409, already published
 *   'notpub'  409, not published
 */
type Outcome = '->1' | '->2' | '->3' | 'role' | 'stage' | 'locked' | 'already' | 'notpub';
type Row = [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome];

const ROLES = ['saisie', 'validation', 'publication', 'saisie central', 'admin', 'inconnu', undefined] as const;
type RoleKey = Exclude<(typeof ROLES)[number], undefined> | 'none';

const NEVER: Row = ['role', 'role', 'role', 'role', 'role', 'role'];

const EXPECTED: Record<WorkflowAction, Record<RoleKey, Row>> = {
  transmit: {
    saisie: ['->2', 'locked', 'stage', 'locked', 'stage', 'locked'],
    validation: ['stage', 'locked', '->3', 'locked', 'stage', 'locked'],
    publication: NEVER,
    'saisie central': NEVER,
    admin: NEVER,
    inconnu: NEVER,
    none: NEVER,
  },
  return: {
    saisie: NEVER,
    validation: ['stage', 'locked', '->1', 'locked', 'stage', 'locked'],
    publication: ['stage', 'locked', 'stage', 'locked', '->2', 'locked'],
    'saisie central': NEVER,
    admin: NEVER,
    inconnu: NEVER,
    none: NEVER,
  },
  publish: {
    saisie: NEVER,
    validation: NEVER,
    publication: ['stage', 'stage', 'stage', 'stage', '->3', 'already'],
    'saisie central': ['stage', 'stage', 'stage', 'stage', '->3', 'already'],
    admin: NEVER,
    inconnu: NEVER,
    none: NEVER,
  },
  unpublish: {
    saisie: NEVER,
    validation: NEVER,
    publication: ['stage', 'stage', 'stage', 'stage', 'notpub', '->3'],
    'saisie central': ['stage', 'stage', 'stage', 'stage', 'notpub', '->3'],
    admin: NEVER,
    inconnu: NEVER,
    none: NEVER,
  },
};

const REFUSALS = {
  role: { allowed: false, status: 403, message: WORKFLOW_MESSAGES.wrongRole },
  stage: { allowed: false, status: 409, message: WORKFLOW_MESSAGES.wrongStage },
  locked: { allowed: false, status: 409, message: WORKFLOW_MESSAGES.publishedLocked },
  already: { allowed: false, status: 409, message: WORKFLOW_MESSAGES.alreadyPublished },
  notpub: { allowed: false, status: 409, message: WORKFLOW_MESSAGES.notPublished },
} as const;

function expectedTransition(outcome: Outcome) {
  return outcome.startsWith('->') ? { allowed: true, to: Number(outcome.slice(2)) } : REFUSALS[outcome as keyof typeof REFUSALS];
}

const ACTIONS: WorkflowAction[] = ['transmit', 'return', 'publish', 'unpublish'];
const STATES = [1, 2, 3].flatMap((stage) => [false, true].map((isPublished) => ({ stage, isPublished })));

const cases = ACTIONS.flatMap((action) =>
  ROLES.flatMap((role) =>
    STATES.map((reforme, column) => {
      const outcome = EXPECTED[action][role ?? 'none'][column];
      return {
        action,
        role,
        reforme,
        outcome,
        name: `${action} by ${role ?? 'no role'} at stage ${reforme.stage}${reforme.isPublished ? ' (published)' : ''} -> ${outcome}`,
      };
    }),
  ),
);

describe('transitionOf', () => {
  it('covers every stage, publication flag, action and role', () => {
    expect(cases).toHaveLength(3 * 2 * ACTIONS.length * ROLES.length);
  });

  it.each(cases)('$name', ({ action, role, reforme, outcome }) => {
    expect(transitionOf(reforme, action, role)).toEqual(expectedTransition(outcome));
  });

  it('does not change the reform it is given', () => {
    const reforme = Object.freeze({ stage: 1, isPublished: false });
    transitionOf(reforme, 'transmit', 'saisie');
    expect(reforme).toEqual({ stage: 1, isPublished: false });
  });
});

describe('workStageOf', () => {
  it('places saisie at stage 1, validation at 2, publication at 3 and nobody else', () => {
    expect(workStageOf('saisie')).toBe(1);
    expect(workStageOf('validation')).toBe(2);
    expect(workStageOf('publication')).toBe(3);
    for (const role of ['saisie central', 'admin', 'inconnu', undefined]) expect(workStageOf(role)).toBeUndefined();
  });
});

describe('transmitConfirmationOf', () => {
  it('asks saisie to transmit the reform, under "Transmission de la réforme"', () => {
    expect(transmitConfirmationOf('saisie')).toEqual({
      title: 'Transmission de la réforme',
      question: 'Voulez vous transmettre cet enregistrement ?',
    });
  });

  it('asks validation to send the record on, under "Transmission de l\'enregistrement"', () => {
    expect(transmitConfirmationOf('validation')).toEqual({
      title: "Transmission de l'enregistrement",
      question: 'Voulez vous envoyer cet enregistrement ?',
    });
  });

  it('keeps the transmission wording for any other role', () => {
    expect(transmitConfirmationOf(undefined).question).toBe('Voulez vous transmettre cet enregistrement ?');
  });
});
