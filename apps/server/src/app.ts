import helmet from '@fastify/helmet';
import jwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import { DIRECTORY_CALLBACK_PATH, DIRECTORY_OUTCOME_ELEMENT_ID, MESSAGES, REMINDERS_DAILY_AT } from '@reformes/domain';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerApiDocs } from './http/api-docs.ts';
import { registerNoStore } from './http/cache-control.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { API_BASE, authorisationGuard } from './http/guard.ts';
import { loggerOptions } from './http/log-options.ts';
import { registerMetrics } from './http/metrics.ts';
import { type PressureLimits, registerPressureGuard } from './http/pressure.ts';
import { addGauge } from './http/prometheus.ts';
import { requestContext } from './http/request-context.ts';
import { registerRequestIdHeader, requestIdOptions } from './http/request-id.ts';
import { responseSerializerCompiler } from './http/response-serializer.ts';
import { registerOutcomePage, registerWebApp } from './http/web-app.ts';
import { hasQueued } from './jobs/queue.ts';
import { createScheduler, dailyAt, everyHours } from './jobs/schedule.ts';
import { createJobWorker, type JobHandlers, jobCounts } from './jobs/worker.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { accessRoutes } from './modules/access/access.routes.ts';
import { createAccessService } from './modules/access/access.service.ts';
import { accountRoutes } from './modules/account/account.routes.ts';
import { createAccountService } from './modules/account/account.service.ts';
import { createRefusalAudit } from './modules/audit/access-refusals.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { purgeAuditLog } from './modules/audit/audit-retention.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createDeviceCookies } from './modules/auth/device-cookie.ts';
import { createSessions } from './modules/auth/sessions.ts';
import { createRateLimits, createThrottles } from './modules/auth/throttles.ts';
import { twoFactorRoutes } from './modules/auth/two-factor.routes.ts';
import { createTwoFactorService } from './modules/auth/two-factor.service.ts';
import { createTwoFactor, twoFactorKeys } from './modules/auth/two-factor.ts';
import { backupsRoutes } from './modules/backups/backups.routes.ts';
import { createBackupsService } from './modules/backups/backups.service.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { directoryRoutes } from './modules/directory/directory.routes.ts';
import { createDirectoryService, type DirectoryService } from './modules/directory/directory.service.ts';
import { createDirectoryClient } from './modules/directory/directory-client.ts';
import { clearStateCookie, stateCookieOf } from './modules/directory/state-cookie.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createHealthService } from './modules/health/health.service.ts';
import { jobsRoutes } from './modules/jobs/jobs.routes.ts';
import { createJobsService } from './modules/jobs/jobs.service.ts';
import { portfolioRoutes } from './modules/portfolio/portfolio.routes.ts';
import { createPortfolioService } from './modules/portfolio/portfolio.service.ts';
import { publicRoutes } from './modules/public/public.routes.ts';
import { createPublicService } from './modules/public/public.service.ts';
import { createReferenceServices } from './modules/reference/reference.resources.ts';
import { referenceRoutes } from './modules/reference/reference.routes.ts';
import { filesRoutes } from './modules/reformes/files.routes.ts';
import { createFilesService } from './modules/reformes/files.service.ts';
import { importRoutes } from './modules/reformes/import.routes.ts';
import { createImportService } from './modules/reformes/import.service.ts';
import { objectifsRoutes } from './modules/reformes/objectifs.routes.ts';
import { createObjectifsService } from './modules/reformes/objectifs.service.ts';
import { reformesRoutes } from './modules/reformes/reformes.routes.ts';
import { createReformesService } from './modules/reformes/reformes.service.ts';
import { suiviRoutes } from './modules/reformes/suivi.routes.ts';
import { createSuiviService } from './modules/reformes/suivi.service.ts';
import { timelineRoutes } from './modules/reformes/timeline.routes.ts';
import { createTimelineService } from './modules/reformes/timeline.service.ts';
import { createWorkflowService } from './modules/reformes/workflow.service.ts';
import { remindersRoutes } from './modules/reminders/reminders.routes.ts';
import { createRemindersService } from './modules/reminders/reminders.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { openStores } from './storage/stores.ts';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Where the production logger writes instead of stdout (tests read every line). */
  logStream?: { write(line: string): void };
  mailer?: Mailer;
  /** Tests lower them to put the server under pressure on purpose. */
  pressureLimits?: PressureLimits;
  /** Tests shorten it: an open-data download whose client reads nothing for this long is ended (DOWNLOAD_STALL_MS). */
  downloadStallMs?: number;
}

/** Builds the whole server; main.ts and every test call it. */
export async function buildApp({ config, database, logger, logStream, mailer, pressureLimits, downloadStallMs }: BuildAppOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel, logStream),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    // JSON bodies; uploads have their own limits (multipart below).
    bodyLimit: 1024 * 1024,
    // A client that takes more than 2 minutes to send its request (headers and body) is cut (Node answers 408):
    // slow senders cannot hold connections open for ever.
    requestTimeout: 120_000,
    // A stop (main.ts) closes idle keep-alive connections at once, and serves, with `Connection: close`, what a load
    // balancer had already sent on a busy one: it took the instance out during SHUTDOWN_READY_DELAY_MS (docs/operations.md).
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // A trusted proxy's x-request-id when sane, else a UUID: the reqId of every log line, echoed in every answer.
    ...requestIdOptions(config.trustProxy),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(config.env !== 'production'));
  registerErrorHandler(app);
  registerNoStore(app);
  await registerPressureGuard(app, pressureLimits);
  registerRequestIdHeader(app);
  registerMetrics(app, { pool: database.pool, token: config.metricsToken });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Mantine injects its CSS variables in a style element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        scriptSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // One algorithm, both ways: a token signed with another (HS384, HS512, none) is refused.
  await app.register(jwt, { secret: config.jwtSecret, sign: { algorithm: 'HS256' }, verify: { algorithms: ['HS256'] } });
  await app.register(multipart, { limits: { fileSize: Math.max(config.uploadMaxBytes, config.signatureMaxBytes), files: 1, fields: 20 } });
  // Not in production unless API_DOCS=true: the description maps every route for whoever asks.
  if (config.apiDocs) await registerApiDocs(app);
  await app.register(authorisationGuard, { db: database.db, recordRefusal: createRefusalAudit(database.db, app.log) });
  // Audit entries take the caller and its IP address from the request being served.
  await app.register(requestContext);

  const mail = mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir, log: app.log });
  const { documents: fileStore, archives } = await openStores(config);
  const sessions = createSessions({
    db: database.db,
    signAccessToken: (payload, expiresIn) => app.jwt.sign(payload, { expiresIn }),
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    rateLimits: createRateLimits(database.db),
  });
  // One per-account back-off for sign-ins and for the password typed again behind a session (issue 29).
  const throttles = createThrottles({
    db: database.db,
    maxFailures: config.loginMaxFailures,
    maxDelaySeconds: config.loginMaxDelaySeconds,
    accountMaxPerHour: config.loginAccountMaxFailuresPerHour,
  });
  const twoFactor = createTwoFactor(database.db, twoFactorKeys(config.jwtSecret, config.totpEncryptionKeys));
  // Issue 42: sign-in with the administration's directory, when OIDC_ISSUER is set.
  let directory: DirectoryService | undefined;
  const auth = createAuthService({
    passwordSignIn: config.passwordSignIn,
    directoryLogoutUrl: async (familyId) => directory?.logoutUrlFor(familyId),
    twoFactor,
    db: database.db,
    sessions,
    publicUrl: config.publicUrl,
    throttles,
    loginMaxPerIpPerMinute: config.loginMaxPerIpPerMinute,
    forgotMaxPerAccountPerHour: config.forgotMaxPerAccountPerHour,
    recoveryMaxPerIpPerMinute: config.recoveryMaxPerIpPerMinute,
  });
  if (config.oidc) {
    const client = createDirectoryClient(config.oidc, config.publicUrl);
    directory = createDirectoryService({ db: database.db, directory: client, sessions, twoFactor, permissionsOf: auth.permissionsOf });
    app.log.info(
      {
        redirect_uri: client.redirectUri,
        backchannel_logout_uri: client.backchannelLogoutUri,
        post_logout_redirect_uri: client.postLogoutRedirectUri,
      },
      `Connexion par l'annuaire (${config.oidc.issuer}) : adresse de retour à déclarer ${client.redirectUri}, déconnexion back-channel ${client.backchannelLogoutUri}`,
    );
  }
  const devices = createDeviceCookies(config.jwtSecret);
  const files = createFilesService({
    db: database.db,
    store: fileStore,
    pendingLimits: { files: config.pendingUploadsMax, bytes: config.pendingUploadsMaxBytes },
  });
  const backupsService = createBackupsService({
    database,
    archives,
    documents: fileStore,
    retention: config.backupRetention,
    encryptionKey: config.backupEncryptionKey,
    databaseFormat: config.backupDatabaseFormat,
  });
  const reminders = createRemindersService({
    db: database.db,
    publicUrl: config.publicUrl,
    noFollowUpDays: config.reminderNoFollowUpDays,
    log: app.log,
  });
  // Mails and reset-link requests are jobs written with their change (jobs/queue.ts), done by this worker or another
  // instance's; it polls once the server listens, and looks at once after a request that queued one. The scheduled
  // work is queued by every instance for each period and done once (jobs/schedule.ts).
  const handlers: JobHandlers = {
    mail: (message) => mail.send(message),
    'reset-link': auth.handleResetLink,
    'purge-uploads': async () => void (await files.purgeStale()),
    // The only delete the database allows on the audit journal.
    'audit-retention': async () => void (await purgeAuditLog(database.db, config.auditRetentionDays)),
    backup: async () => void (await backupsService.create()),
    reminders: async () => void (await reminders.run('schedule')),
  };
  const worker = createJobWorker({ db: database.db, log: app.log, handlers });
  const scheduler = createScheduler({
    db: database.db,
    log: app.log,
    onQueued: () => worker.nudge(),
    schedules: [
      { kind: 'purge-uploads', slotOf: everyHours(1) },
      { kind: 'audit-retention', slotOf: everyHours(6) },
      ...(config.backupDailyAt ? [{ kind: 'backup' as const, slotOf: dailyAt(config.backupDailyAt) }] : []),
      // Daily; each digest still leaves at most once a week to a person (modules/reminders).
      { kind: 'reminders', slotOf: dailyAt(REMINDERS_DAILY_AT) },
    ],
  });
  app.addHook('onListen', async () => {
    worker.start();
    scheduler.start();
  });
  addGauge(app.metrics, {
    name: 'reformes_jobs',
    help: 'Tâches (courriels…) en attente ou en échec, par type',
    collect: () => jobCounts(database.db),
  });
  // onSend: the handler is done, so its transaction is committed, and a test's inject has not resolved yet.
  app.addHook('onSend', async (request) => {
    if (hasQueued(request)) worker.nudge();
  });
  // Tests read the outbox right after a request; a shutdown finishes the pass in progress.
  app.decorate('settled', () => worker.drain());
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await worker.stop();
  });
  const health = createHealthService(database);
  // Readiness answers 503 from here on; main.ts calls it on SIGTERM before closing the listener.
  app.decorate('drain', () => health.drain());

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health });
      await api.register(authRoutes, { auth, sessions, devices });
      await api.register(directoryRoutes, {
        directory,
        label: config.oidc?.label,
        passwordSignIn: config.passwordSignIn,
        throttles,
        startsPerMinute: config.loginMaxPerIpPerMinute,
      });
      await api.register(twoFactorRoutes, {
        twoFactor: createTwoFactorService({ db: database.db, twoFactor, sessions, throttles }),
      });
      await api.register(dashboardRoutes, { dashboard: createDashboardService(database.db) });
      await api.register(referenceRoutes, { services: createReferenceServices(database.db) });
      await api.register(accessRoutes, { access: createAccessService(database.db) });
      await api.register(auditRoutes, { audit: createAuditService(database.db) });
      await api.register(jobsRoutes, { jobs: createJobsService(database.db) });
      await api.register(remindersRoutes, { reminders });
      const reformes = createReformesService({ db: database.db, files: fileStore });
      const workflow = createWorkflowService({ db: database.db, publicUrl: config.publicUrl });
      await api.register(importRoutes, { imports: createImportService(database.db) });
      await api.register(reformesRoutes, { reformes, workflow });
      await api.register(timelineRoutes, { timeline: createTimelineService(database.db) });
      await api.register(filesRoutes, { files, maxBytes: config.uploadMaxBytes });
      await api.register(objectifsRoutes, { objectifs: createObjectifsService(database.db) });
      await api.register(suiviRoutes, { suivi: createSuiviService(database.db) });
      await api.register(publicRoutes, {
        publicReformes: createPublicService(database.db, { exportMaxPerIpPerMinute: config.publicExportMaxPerIpPerMinute }),
        downloadStallMs,
      });
      await api.register(portfolioRoutes, { portfolio: createPortfolioService(database.db) });
      await api.register(backupsRoutes, { backupsService });
      await api.register(accountRoutes, {
        account: createAccountService({ db: database.db, files: fileStore, sessions, throttles }),
        maxBytes: config.signatureMaxBytes,
      });
      await api.register(usersRoutes, {
        users: createUsersService({ db: database.db, sessions, publicUrl: config.publicUrl }),
      });
    },
    { prefix: API_BASE },
  );

  const webApp = await registerWebApp(app, config.webDist);
  const directoryService = directory;
  if (directoryService) {
    // The provider's callback answers the sign-in page carrying the outcome: signed in after two requests (issue 42).
    registerOutcomePage(app, config.webDist, {
      path: DIRECTORY_CALLBACK_PATH,
      pagePath: '/auth/login',
      elementId: DIRECTORY_OUTCOME_ELEMENT_ID,
      handle: async (request, reply) => {
        const outcome = await directoryService.completeDance(new URL(`${config.publicUrl}${request.url}`), stateCookieOf(request));
        clearStateCookie(request, reply);
        if (outcome.kind === 'signed_in') devices.setFor(request, reply, outcome.session.user.email);
        return outcome;
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/');
    // A missing file (an old script after a deploy) is a 404, not the page: the router owns only paths without an extension.
    const isFile = /\.[a-z0-9]+$/i.test(request.url.split('?')[0]);
    if (!isApi && !isFile && webApp && (request.method === 'GET' || request.method === 'HEAD')) {
      // The web app owns every other path (its router shows its own 404 page).
      return reply.type('text/html').sendFile(webApp.pageFor(request.url));
    }
    return reply.status(404).send({ message: MESSAGES.routeNotFound });
  });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves when the work routes left for after their answer (reset mails) is done. */
    settled(): Promise<void>;
    /** Starts a stop: readiness answers 503 so that load balancers take the instance out (main.ts). */
    drain(): void;
  }
}
