import { periodText, type RoleName, STAGES } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  affectations,
  covers,
  entities,
  natures,
  objectifs,
  reformes,
  resultats,
  roles,
  sectors,
  structures,
  suiviResults,
  userRoles,
  users,
} from '../schema/index.ts';

export const DEMO_PASSWORD = 'Reformes2026!';

/**
 * DEMO_PASSWORD's argon2id hash (modules/auth/password.ts's settings, demo.test.ts checks it verifies): the seed is
 * data, hashes nothing and knows no module (issue 41). The password is published (README), so one fixed salt
 * hides nothing a fresh one would; every demo account shared one hash already.
 */
export const DEMO_PASSWORD_HASH = '$argon2id$v=19$m=7168,t=5,p=1$GScZPjWZWkMLqqgdlm+ZuA$KGqRGH5xdF2s3nOdETSO9GzXo9D9ALVd/i2QJIxcUSk';

export const DEMO_ACCOUNTS: Array<{ email: string; role: RoleName; lastname: string; firstname: string; structure: string }> = [
  { email: 'admin@reformes.test', role: 'admin', lastname: 'Martin', firstname: 'Claire', structure: 'DGB' },
  { email: 'central@reformes.test', role: 'saisie central', lastname: 'Bernard', firstname: 'Louis', structure: 'DGB' },
  { email: 'saisie@reformes.test', role: 'saisie', lastname: 'Dubois', firstname: 'Awa', structure: 'MS' },
  { email: 'validation@reformes.test', role: 'validation', lastname: 'Moreau', firstname: 'Jean-Paul', structure: 'MS' },
  { email: 'publication@reformes.test', role: 'publication', lastname: 'Laurent', firstname: 'Sophie', structure: 'MEN' },
];

const SECTORS = ['Santé', 'Éducation', 'Finances publiques', 'Agriculture', 'Numérique'];
const STRUCTURES = [
  { sigl: 'MS', designation: 'Ministère de la Santé', sector: 'Santé', adresse_struct: '12 avenue de la République' },
  { sigl: 'MEN', designation: "Ministère de l'Éducation nationale", sector: 'Éducation', adresse_struct: '3 rue des Écoles' },
  { sigl: 'DGB', designation: 'Direction générale du Budget', sector: 'Finances publiques', adresse_struct: '1 boulevard des Finances' },
  { sigl: 'MAG', designation: "Ministère de l'Agriculture", sector: 'Agriculture', adresse_struct: '78 rue de Varenne' },
  { sigl: 'ANUM', designation: 'Agence du Numérique', sector: 'Numérique', adresse_struct: '20 quai de la Donnée' },
];
const COVERS = ['Nationale', 'Régionale', 'Locale'];
const ENTITIES = ['Direction générale', 'Direction régionale', 'Service déconcentré'];

/** The subjects of the demo reforms (the bench reuses them). */
export const DEMO_SUBJECTS = [
  'Dématérialisation des procédures',
  'Réorganisation des services',
  'Modernisation de la chaîne de dépense',
  'Simplification des autorisations',
  'Couverture sanitaire universelle',
  'Réforme des programmes scolaires',
  'Guichet unique des entreprises',
  'Contrôle interne budgétaire',
  'Gestion prévisionnelle des emplois',
  'Transparence des marchés publics',
];
const ETATS = ['en_cours', 'planifiee', 'terminee', 'suspendue'] as const;

function isoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The demo data set of the architecture §5: five accounts, five structures and thirty reforms
 * spread over every stage (some published) with objectives, results and follow-up records.
 * Deterministic, so tests can count on it.
 */
export async function seedDemoData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const sectorRows = await tx
      .insert(sectors)
      .values(SECTORS.map((libsecteur) => ({ libsecteur })))
      .returning();
    const sectorId = new Map(sectorRows.map((row) => [row.libsecteur, row.id]));
    const structureRows = await tx
      .insert(structures)
      .values(
        STRUCTURES.map((s) => ({
          designation: s.designation,
          sigl: s.sigl,
          adresse_struct: s.adresse_struct,
          email: `contact@${s.sigl.toLowerCase()}.gouv.test`,
          telephone: '0102030405',
          sector_id: sectorId.get(s.sector) as number,
        })),
      )
      .returning();
    const structureId = new Map(structureRows.map((row) => [row.sigl, row.id]));
    const coverRows = await tx
      .insert(covers)
      .values(COVERS.map((lib_couvert) => ({ lib_couvert })))
      .returning();
    await tx.insert(entities).values(ENTITIES.map((libelle) => ({ libelle })));
    const natureRows = await tx.select().from(natures).orderBy(natures.id);
    const roleRows = await tx.select().from(roles);
    const roleId = new Map(roleRows.map((row) => [row.name, row.id]));

    const userId = new Map<RoleName, number>();
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await tx
        .insert(users)
        .values({
          lastname: account.lastname,
          firstname: account.firstname,
          address: 'Cité administrative',
          email: account.email,
          phone: '0600000000',
          structure_id: structureId.get(account.structure) as number,
          password_hash: DEMO_PASSWORD_HASH,
          is_signer: account.role === 'publication',
        })
        .returning({ id: users.id });
      userId.set(account.role, user.id);
      await tx.insert(userRoles).values({ user_id: user.id, role_id: roleId.get(account.role) as number, position: 0 });
    }

    // Reforms 0..29: stage and publication cycle so every stage has some, in several structures.
    for (let i = 0; i < 30; i++) {
      const stage = ([STAGES.transmission, STAGES.validation, STAGES.publication] as const)[i % 3];
      const isPublished = stage === STAGES.publication && i % 2 === 0;
      const structureSigl = i % 5 === 4 ? 'MEN' : i % 5 === 3 ? 'DGB' : 'MS';
      const creator: RoleName = structureSigl === 'MS' ? 'saisie' : 'saisie central';
      const year = 2024 + (i % 3);
      const date_debut = isoDate(year, (i % 12) + 1, 1);
      const date_fin = isoDate(year + 2, (i % 12) + 1, 28);
      const [reforme] = await tx
        .insert(reformes)
        .values({
          libref:
            `${DEMO_SUBJECTS[i % DEMO_SUBJECTS.length]} ${i < DEMO_SUBJECTS.length ? '' : `— phase ${Math.floor(i / DEMO_SUBJECTS.length) + 1}`}`.trim(),
          typeref: i % 2 === 0 ? 'SECTORIELLE' : 'TRANSVERSALE',
          nature_id: natureRows[i % natureRows.length].id,
          objectif_glob: `Améliorer la qualité du service public (réforme n° ${i + 1})`,
          popul_cible: i % 2 === 0 ? 'Usagers du service public' : 'Agents publics',
          couverture_id: coverRows[i % coverRows.length].id,
          struct_impl: 'Ministères concernés et services déconcentrés',
          date_debut,
          date_fin,
          periodexe: periodText(date_debut, date_fin),
          cadreinst_mor: 'Comité de pilotage interministériel',
          etat_mor: ETATS[i % ETATS.length],
          montant_prevu: String(100_000 + i * 25_000),
          montant_trealise: String(50_000 + i * 10_000),
          difficult: 'Disponibilité des ressources humaines',
          solution: 'Formation des agents',
          perspective: 'Généralisation à tout le territoire',
          isPublished,
          stage,
          structure_id: structureId.get(structureSigl) as number,
          created_by: userId.get(creator) as number,
        })
        .returning({ id: reformes.id });
      await tx.insert(affectations).values({
        reforme_id: reforme.id,
        sens: 0,
        event: 'creation',
        from_stage: null,
        to_stage: STAGES.transmission,
        user_id: userId.get(creator),
      });
      for (let s = STAGES.transmission; s < stage; s++) {
        await tx.insert(affectations).values({
          reforme_id: reforme.id,
          sens: -1,
          event: 'transmission',
          from_stage: s,
          to_stage: s + 1,
          user_id: userId.get(s === STAGES.transmission ? 'saisie' : 'validation'),
        });
      }
      if (isPublished) {
        await tx.insert(affectations).values({
          reforme_id: reforme.id,
          sens: 0,
          event: 'publication',
          from_stage: stage,
          to_stage: stage,
          user_id: userId.get('publication'),
        });
      }
      for (let o = 0; o < 1 + (i % 2); o++) {
        const [objectif] = await tx
          .insert(objectifs)
          .values({ reforme_id: reforme.id, libobjectif: `Objectif ${o + 1} de la réforme n° ${i + 1}` })
          .returning({ id: objectifs.id });
        for (let r = 0; r < 2; r++) {
          const hasFollowUp = (i + r) % 3 !== 0;
          const [resultat] = await tx
            .insert(resultats)
            .values({
              objectif_id: objectif.id,
              libresult: `Résultat ${r + 1} de l'objectif ${o + 1}`,
              indicateur: r === 0 ? 'Taux de dématérialisation (%)' : 'Nombre de bénéficiaires',
              valeur_cible: r === 0 ? '100' : '5000',
              valeurref: r === 0 ? '20' : '1000',
              status: hasFollowUp && isPublished && r === 0 ? 1 : 0,
            })
            .returning({ id: resultats.id });
          if (!hasFollowUp) continue;
          await tx.insert(suiviResults).values(
            [0, 1, 2].map((k) => ({
              result_id: resultat.id,
              taux_realisat: String(20 + k * 15),
              valeur_realise: String(r === 0 ? 20 + k * 15 : 1000 + k * 800),
              date: isoDate(year + k, ((i + k * 3) % 12) + 1, 15),
              created_by: userId.get('saisie'),
            })),
          );
        }
      }
    }
  });
}

/** True when the database holds no user yet: the only case where demo data may be created. */
export async function hasNoUsers(db: Db): Promise<boolean> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  return count === 0;
}
