/**
 * Creates the first administrator of an installation (production never gets demo data):
 *   npm run create-admin -- --email a@b.fr --lastname Nom --firstname Prénom --structure "Direction" --sigl DIR
 * Prints a temporary password, to be changed at the first sign-in.
 */
import { parseArgs } from 'node:util';
import { emailField } from '@reformes/domain';
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { roles, sectors, structures, userRoles, users } from '../db/schema/index.ts';
import { seedReferenceData } from '../db/seed/reference.ts';
import { generateTemporaryPassword, hashPassword } from '../modules/auth/password.ts';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    lastname: { type: 'string', default: 'Administrateur' },
    firstname: { type: 'string', default: 'Principal' },
    structure: { type: 'string', default: 'Administration centrale' },
    sigl: { type: 'string', default: 'ADM' },
  },
});
const email = emailField.safeParse(values.email);
if (!email.success) {
  console.error(
    'Usage : npm run create-admin -- --email admin@exemple.fr [--lastname Nom --firstname Prénom --structure "Libellé" --sigl SIGLE]',
  );
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase(config, { log: (message) => console.log(message) }).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
try {
  await seedReferenceData(database.db);
  const password = generateTemporaryPassword();
  const password_hash = await hashPassword(password);
  await database.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.data.toLowerCase()));
    if (existing) throw new Error(`Un compte existe déjà pour ${email.data}.`);
    const [sector] = await tx.insert(sectors).values({ libsecteur: 'Administration' }).onConflictDoNothing().returning({ id: sectors.id });
    const sectorId =
      sector?.id ??
      (
        await tx
          .select({ id: sectors.id })
          .from(sectors)
          .where(eq(sql`lower(${sectors.libsecteur})`, 'administration'))
      )[0].id;
    const [structure] = await tx
      .insert(structures)
      .values({
        designation: values.structure,
        sigl: values.sigl,
        adresse_struct: '-',
        email: email.data,
        telephone: '0',
        sector_id: sectorId,
      })
      .onConflictDoNothing()
      .returning({ id: structures.id });
    const structureId =
      structure?.id ??
      (
        await tx
          .select({ id: structures.id })
          .from(structures)
          .where(eq(sql`lower(${structures.designation})`, values.structure.toLowerCase()))
      )[0].id;
    const [user] = await tx
      .insert(users)
      .values({
        email: email.data,
        lastname: values.lastname,
        firstname: values.firstname,
        structure_id: structureId,
        password_hash,
        must_change_password: true,
      })
      .returning({ id: users.id });
    const [admin] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, 'admin'));
    await tx.insert(userRoles).values({ user_id: user.id, role_id: admin.id, position: 0 });
  });
  console.log(`Administrateur ${email.data} créé. Mot de passe temporaire : ${password}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
