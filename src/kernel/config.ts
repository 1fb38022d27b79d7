import path from 'node:path';
import { z } from 'zod';

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

const milliseconds = (fallback: number, least = 0) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number of milliseconds')
    .transform(Number)
    .pipe(z.number().min(least, `must be at least ${least} milliseconds`))
    .default(fallback);

const postgresUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be a postgres://user@host:port/database address');

const smtpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be an smtp:// or smtps:// address, e.g. smtps://user:password@mail.example.com:465');

/** `Name <address@domain>` or a bare `address@domain`. */
const mailbox = z
  .string()
  .regex(/^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, 'must be an address such as "tcms <no-reply@example.com>"');

const environmentSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number from 0 to 65535')
    .transform(Number)
    .pipe(z.number().max(65535, 'must be a port number from 0 to 65535'))
    .default(3000),
  DATABASE_URL: postgresUrl.optional(),
  TCMS_DATA_DIR: z.string().min(1).default('./data'),
  TCMS_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  // How long start-up keeps trying to reach a database that refuses or does not exist yet.
  TCMS_DB_CONNECT_TIMEOUT_MS: milliseconds(30_000),
  // The longest one SQL statement may run on a PostgreSQL server (PGlite cannot interrupt one).
  TCMS_STATEMENT_TIMEOUT_MS: milliseconds(30_000),
  TCMS_LOG_REQUESTS: flag('true'),
  TCMS_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  // Files go to an S3-compatible bucket when TCMS_S3_BUCKET is set, else under TCMS_DATA_DIR/files.
  TCMS_S3_BUCKET: z.string().min(1).optional(),
  TCMS_S3_ENDPOINT: z.url().optional(),
  TCMS_S3_REGION: z.string().min(1).default('us-east-1'),
  TCMS_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  TCMS_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  TCMS_S3_FORCE_PATH_STYLE: flag('true'),
  // Origins allowed to call the API from a browser (CORS), comma-separated; none by default.
  TCMS_CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url().refine((origin) => new URL(origin).origin === origin, 'must be an origin such as https://app.example.com'))),
  // Express's `trust proxy`: behind a load balancer, which hops may set X-Forwarded-For.
  TCMS_TRUST_PROXY: z.string().default('false'),
  // When set, GET /metrics needs `Authorization: Bearer <this token>`.
  TCMS_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // The billing provider behind the subscription endpoints (src/billing/); only `local` is built in.
  TCMS_BILLING_PROVIDER: z.string().min(1).default('local'),
  // Where people reach the service: links in mail (an invitation's accept address) start here.
  TCMS_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  // Mail leaves through this SMTP server; without it, it is written to TCMS_DATA_DIR/outbox.
  TCMS_SMTP_URL: smtpUrl.optional(),
  TCMS_MAIL_FROM: mailbox.default('tcms <no-reply@localhost>'),
  // The first retry delay of a mail; it doubles with each attempt.
  TCMS_RETRY_BASE_MS: milliseconds(30_000, 1),
  // How often each process looks for mail other processes queued or that is due for a retry.
  TCMS_MAIL_POLL_MS: milliseconds(1_000, 10),
  // Whether this process sends webhook deliveries (every process that does shares the work); false for processes that only answer requests.
  TCMS_WEBHOOK_DISPATCH: flag('true'),
  // Webhooks (contract §13): receivers on loopback, link-local or private addresses are refused unless this is true.
  TCMS_WEBHOOKS_ALLOW_PRIVATE: flag('false'),
  // How long a receiver has to answer one delivery attempt.
  TCMS_WEBHOOK_TIMEOUT_MS: milliseconds(10_000, 1),
  // The first retry delay of a webhook delivery; it quadruples with each attempt (8 attempts: about a day).
  TCMS_WEBHOOK_RETRY_BASE_MS: milliseconds(15_000, 1),
  // How often each process looks for deliveries that are due (retries, and those other processes queued).
  TCMS_WEBHOOK_POLL_MS: milliseconds(1_000, 10),
  // How long a webhook's deliveries are held back once its receiver failed a few times in a row; each failed probe doubles it.
  TCMS_WEBHOOK_COOLDOWN_MS: milliseconds(30_000, 1),
  // Live progress streams (contract §14) send a comment line this often to keep idle connections open.
  TCMS_SSE_KEEPALIVE_MS: milliseconds(15_000, 10),
  // Event streams (REST and GraphQL) one process keeps open at once per credential and per client address; more answer 429.
  TCMS_SSE_STREAMS_PER_CREDENTIAL: z.coerce.number().int().min(1).default(20),
  TCMS_SSE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  // Each import reads its files in a worker thread of this much heap and time; a file that needs more answers 422.
  TCMS_IMPORT_MEMORY_MB: z.coerce.number().int().min(16, 'must be at least 16 (MiB)').default(256),
  TCMS_IMPORT_TIMEOUT_MS: milliseconds(120_000, 100),
  // Bot check of signup (contract §18): a siteverify-compatible verifier and the secret it knows this service by.
  TCMS_CHALLENGE_VERIFY_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }).optional(),
  TCMS_CHALLENGE_SECRET: z.string().min(1).optional(),
  // The widget the signup page shows for the bot check (its public site key; its script, unless overridden).
  TCMS_CHALLENGE_SITE_KEY: z.string().min(1).optional(),
  TCMS_CHALLENGE_WIDGET: z.enum(['turnstile', 'hcaptcha', 'recaptcha']).default('turnstile'),
  TCMS_CHALLENGE_SCRIPT_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }).optional(),
  // How long the verifier has to answer before signup is refused.
  TCMS_CHALLENGE_TIMEOUT_MS: milliseconds(5_000, 1),
  // Unverified users cannot invite, create API tokens or accept invitations (contract §18).
  TCMS_REQUIRE_EMAIL_VERIFICATION: flag('false'),
  // argon2id's cost for new password hashes: memory in KiB and passes (OWASP's minimum, 19 MiB and 2, by default).
  TCMS_PASSWORD_MEMORY_KIB: z.coerce.number().int().min(1024, 'must be at least 1024 (KiB)').default(19_456),
  TCMS_PASSWORD_PASSES: z.coerce.number().int().min(1).max(10).default(2),
});

/**
 * A problem with how the service was configured or where it runs (a bad variable, a data
 * directory that cannot be used, a database that cannot be reached): the process reports its
 * message as one line and exits, never with a stack.
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export type Config = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
  dbConnectTimeoutMs: number;
  statementTimeoutMs: number;
  logRequests: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
  development: boolean;
  s3: S3Settings | undefined;
  corsOrigins: string[];
  trustProxy: boolean | number | string;
  metricsToken: string | undefined;
  billingProvider: string;
  /** TCMS_PUBLIC_URL without a trailing slash; by default http://localhost:<port>, the port listened on (`listeningOn`). */
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  retryBaseMs: number;
  mailPollMs: number;
  webhooks: WebhookSettings;
  sseKeepAliveMs: number;
  sseStreamLimits: StreamLimits;
  imports: ImportSettings;
  /** The bot check of signup; none without TCMS_CHALLENGE_VERIFY_URL. */
  challenge: ChallengeSettings | undefined;
  requireEmailVerification: boolean;
  /** argon2id's memory (KiB) and passes for new password hashes. */
  passwordHashing: { memoryKib: number; passes: number };
};

/** The heap and the time of the worker thread that reads one import's files. */
export type ImportSettings = { memoryMb: number; timeoutMs: number };

export type ChallengeSettings = { verifyUrl: string; secret: string; timeoutMs: number; widget?: ChallengeWidget };

/** What the signup page needs to show a siteverify widget: its script, the element it fills, the field it posts. */
export type ChallengeWidget = { siteKey: string; scriptUrl: string; className: string; responseField: string };

const WIDGETS = {
  turnstile: {
    scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
    responseField: 'cf-turnstile-response',
  },
  hcaptcha: { scriptUrl: 'https://js.hcaptcha.com/1/api.js', className: 'h-captcha', responseField: 'h-captcha-response' },
  recaptcha: { scriptUrl: 'https://www.google.com/recaptcha/api.js', className: 'g-recaptcha', responseField: 'g-recaptcha-response' },
} satisfies Record<string, Omit<ChallengeWidget, 'siteKey'>>;

export type WebhookSettings = {
  dispatch: boolean;
  allowPrivate: boolean;
  timeoutMs: number;
  retryBaseMs: number;
  pollMs: number;
  cooldownMs: number;
};

/** Open event streams per credential and per client address, in one process. */
export type StreamLimits = { perCredential: number; perAddress: number };

export type S3Settings = {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
};

/** Where people reach the service when TCMS_PUBLIC_URL is unset: this machine, on the port it listens on. */
const localUrlOn = (port: number) => `http://localhost:${port}`;

/** `TCMS_TRUST_PROXY` as Express reads it: true/false, a hop count, or addresses and subnets. */
const trustProxyOf = (value: string) => (value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value);

function challengeOf(parsed: z.output<typeof environmentSchema>): ChallengeSettings | undefined {
  if (!parsed.TCMS_CHALLENGE_VERIFY_URL || !parsed.TCMS_CHALLENGE_SECRET) return undefined;
  const widget = WIDGETS[parsed.TCMS_CHALLENGE_WIDGET];
  return {
    verifyUrl: parsed.TCMS_CHALLENGE_VERIFY_URL,
    secret: parsed.TCMS_CHALLENGE_SECRET,
    timeoutMs: parsed.TCMS_CHALLENGE_TIMEOUT_MS,
    ...(parsed.TCMS_CHALLENGE_SITE_KEY
      ? { widget: { ...widget, siteKey: parsed.TCMS_CHALLENGE_SITE_KEY, scriptUrl: parsed.TCMS_CHALLENGE_SCRIPT_URL ?? widget.scriptUrl } }
      : {}),
  };
}

/** The configuration from the environment; a bad variable is a ConfigurationError naming it. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const result = environmentSchema.safeParse(environment);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ConfigurationError(`invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = result.data;
  if (parsed.TCMS_CHALLENGE_VERIFY_URL && !parsed.TCMS_CHALLENGE_SECRET) {
    throw new ConfigurationError('invalid configuration: TCMS_CHALLENGE_SECRET is required with TCMS_CHALLENGE_VERIFY_URL');
  }
  return {
    port: parsed.PORT,
    databaseUrl: parsed.DATABASE_URL,
    dataDir: path.resolve(parsed.TCMS_DATA_DIR),
    poolSize: parsed.TCMS_DB_POOL_SIZE,
    dbConnectTimeoutMs: parsed.TCMS_DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: parsed.TCMS_STATEMENT_TIMEOUT_MS,
    logRequests: parsed.TCMS_LOG_REQUESTS,
    logLevel: parsed.TCMS_LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
    development: parsed.NODE_ENV === 'development',
    s3: parsed.TCMS_S3_BUCKET
      ? {
          bucket: parsed.TCMS_S3_BUCKET,
          endpoint: parsed.TCMS_S3_ENDPOINT,
          region: parsed.TCMS_S3_REGION,
          credentials:
            parsed.TCMS_S3_ACCESS_KEY_ID && parsed.TCMS_S3_SECRET_ACCESS_KEY
              ? { accessKeyId: parsed.TCMS_S3_ACCESS_KEY_ID, secretAccessKey: parsed.TCMS_S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: parsed.TCMS_S3_FORCE_PATH_STYLE,
        }
      : undefined,
    corsOrigins: parsed.TCMS_CORS_ORIGINS,
    trustProxy: trustProxyOf(parsed.TCMS_TRUST_PROXY),
    metricsToken: parsed.TCMS_METRICS_TOKEN,
    billingProvider: parsed.TCMS_BILLING_PROVIDER,
    publicUrl: parsed.TCMS_PUBLIC_URL ?? localUrlOn(parsed.PORT),
    smtpUrl: parsed.TCMS_SMTP_URL,
    mailFrom: parsed.TCMS_MAIL_FROM,
    retryBaseMs: parsed.TCMS_RETRY_BASE_MS,
    mailPollMs: parsed.TCMS_MAIL_POLL_MS,
    webhooks: {
      dispatch: parsed.TCMS_WEBHOOK_DISPATCH,
      allowPrivate: parsed.TCMS_WEBHOOKS_ALLOW_PRIVATE,
      timeoutMs: parsed.TCMS_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: parsed.TCMS_WEBHOOK_RETRY_BASE_MS,
      pollMs: parsed.TCMS_WEBHOOK_POLL_MS,
      cooldownMs: parsed.TCMS_WEBHOOK_COOLDOWN_MS,
    },
    sseKeepAliveMs: parsed.TCMS_SSE_KEEPALIVE_MS,
    sseStreamLimits: { perCredential: parsed.TCMS_SSE_STREAMS_PER_CREDENTIAL, perAddress: parsed.TCMS_SSE_STREAMS_PER_ADDRESS },
    imports: { memoryMb: parsed.TCMS_IMPORT_MEMORY_MB, timeoutMs: parsed.TCMS_IMPORT_TIMEOUT_MS },
    challenge: challengeOf(parsed),
    requireEmailVerification: parsed.TCMS_REQUIRE_EMAIL_VERIFICATION,
    passwordHashing: { memoryKib: parsed.TCMS_PASSWORD_MEMORY_KIB, passes: parsed.TCMS_PASSWORD_PASSES },
  };
}

let current: Config | undefined;

/**
 * The configuration of the running service: one object for every module, applied by `createApp`
 * (app/app.ts) and once more by the server when it listens (`listeningOn`); until then, what an
 * empty environment gives.
 */
export const settings = (): Config => (current ??= loadConfig({}));

export function applySettings(config: Config): void {
  current = config;
}

/**
 * The configuration once the server listens on `port`, which PORT=0 leaves to the system: a
 * publicUrl derived from PORT names that port instead; a TCMS_PUBLIC_URL of its own stays.
 */
export function listeningOn(config: Config, port: number): Config {
  return config.publicUrl === localUrlOn(config.port) ? { ...config, publicUrl: localUrlOn(port) } : config;
}
