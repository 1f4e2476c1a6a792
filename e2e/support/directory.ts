/** The journeys' directory (issue 42): where it listens, the client the app is registered as, its people. */
const appPort = Number(process.env.E2E_PORT ?? 3100);

export const E2E_DIRECTORY = {
  appPort,
  providerPort: Number(process.env.E2E_DIRECTORY_PORT ?? appPort + 1),
  clientId: 'reformes-e2e',
  clientSecret: 'secret-du-client-des-parcours-de-test-reformes',
};

/** The people the directory knows: an agent who has an account (validation), and one who has none. */
export const DIRECTORY_ACCOUNTS = {
  validation: {
    sub: 'agent.validation',
    email: 'validation@reformes.test',
    email_verified: true,
    given_name: 'Jean-Paul',
    usual_name: 'Moreau',
  },
  newcomer: {
    sub: 'nouvelle.agente',
    email: 'nouvelle.agente@ministere.test',
    email_verified: true,
    given_name: 'Nadia',
    usual_name: 'Nouvelle',
  },
} as const;
