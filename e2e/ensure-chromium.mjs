// Playwright's own browser download does not work on our machines: the journeys use Debian's chromium.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

if (!existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt) {
    console.error(`Chromium est introuvable (${CHROMIUM}). Installez-le avec :\n  sudo sh -c '${INSTALL}'`);
    process.exit(1);
  }
  console.log(`Chromium absent : installation du paquet Debian (${INSTALL})…`);
  execSync(INSTALL, { stdio: 'inherit', shell: '/bin/sh', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (!existsSync(CHROMIUM)) {
    console.error(`L'installation n'a pas fourni ${CHROMIUM}.`);
    process.exit(1);
  }
}
