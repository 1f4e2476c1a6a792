import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reformes } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const valid = {
  libref: 'Réforme du circuit',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Tenir le circuit',
  popul_cible: 'Agents publics',
  couverture_id: 1,
  struct_impl: 'Direction de la solde',
  date_debut: '2026-01-15',
  date_fin: '2026-12-31',
};

// Where the reform waits when the call comes.
const PLACES = {
  draft: { stage: 1, isPublished: false },
  validation: { stage: 2, isPublished: false },
  publication: { stage: 3, isPublished: false },
  published: { stage: 3, isPublished: true },
} as const;
type Place = keyof typeof PLACES;
type Change = 'edit' | 'delete' | 'status';

// The answer each role gets, written out by hand: [edit, delete, status]. 403 = the role never changes
// reforms (or lacks the right: only saisie central holds reformes.status, spec §6 "state"), 409 = not at
// this moment (another stage, published, ...), 200 = done.
const EXPECTED: Record<string, Record<Place, [number, number, number]>> = {
  admin: { draft: [403, 403, 403], validation: [403, 403, 403], publication: [403, 403, 403], published: [403, 403, 403] },
  central: { draft: [409, 409, 409], validation: [409, 409, 409], publication: [200, 200, 200], published: [200, 409, 200] },
  saisie: { draft: [200, 200, 403], validation: [409, 409, 403], publication: [409, 409, 403], published: [409, 409, 403] },
  validation: { draft: [409, 409, 403], validation: [200, 200, 403], publication: [409, 409, 403], published: [409, 409, 403] },
  publication: { draft: [409, 409, 403], validation: [409, 409, 403], publication: [200, 200, 403], published: [200, 409, 403] },
};
const CHANGES: Change[] = ['edit', 'delete', 'status'];

describe('who edits, deletes and (de)activates a reform: every role x stage x action over HTTP', () => {
  let t: TestApp;
  const callers: Record<string, Caller> = {};

  let structureId: number;

  /** A reform of saisie's structure (validation's too), put where the case needs it. */
  async function reformeAt(place: Place) {
    const created = await callers.saisie.post('reformes', valid);
    expect(created.statusCode).toBe(201);
    const id: number = created.json().data.id;
    structureId = created.json().data.structure_id;
    await t.db.update(reformes).set(PLACES[place]).where(eq(reformes.id, id));
    return id;
  }

  const send = (change: Change, id: number, as: Caller) => {
    switch (change) {
      case 'edit':
        // Saisie central names the structure in charge (spec §5); the others' is their own.
        return as.put(`reformes/${id}`, { ...valid, libref: 'Modifiée', structure_id: structureId });
      case 'delete':
        return as.delete(`reformes/${id}`);
      case 'status':
        return as.get(`reformes/${id}/state/0`);
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    for (const [name, email] of Object.entries({
      admin: 'admin@reformes.test',
      central: 'central@reformes.test',
      saisie: 'saisie@reformes.test',
      validation: 'validation@reformes.test',
      publication: 'publication@reformes.test',
    })) {
      callers[name] = await t.as(email);
    }
  });
  afterAll(() => t.close());

  for (const [role, places] of Object.entries(EXPECTED)) {
    for (const [place, codes] of Object.entries(places) as [Place, [number, number, number]][]) {
      it(`${role} on a reform in ${place}: ${CHANGES.map((change, i) => `${change} ${codes[i]}`).join(', ')}`, async () => {
        for (const [i, change] of CHANGES.entries()) {
          const id = await reformeAt(place);
          const before = (await t.db.select().from(reformes).where(eq(reformes.id, id)))[0];
          const response = await send(change, id, callers[role]);
          expect({ change, status: response.statusCode }).toEqual({ change, status: codes[i] });
          const after = (await t.db.select().from(reformes).where(eq(reformes.id, id)))[0];
          if (codes[i] === 200) {
            if (change === 'delete') expect(after).toBeUndefined();
            if (change === 'edit') expect(after.libref).toBe('Modifiée');
            if (change === 'status') expect(after.is_active).toBe(false);
          } else {
            expect(response.json().message).toEqual(expect.any(String));
            expect(after).toEqual(before);
          }
        }
      });
    }
  }
});
