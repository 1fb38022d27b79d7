import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { BILLING_PROVIDER_NAMES, type BillingProviderName, PLAN_NAMES, type PlanName } from './billing-tiers.ts';

/** The largest 32-bit integer: the most a Node timer (in milliseconds) or an integer column holds. */
const LARGEST_INT = 2_147_483_647;

/** `a, b or c` (or `a, b and c`): values named in a message. */
const listed = (values: readonly string[], conjunction: 'or' | 'and' = 'or') =>
  values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} ${conjunction} ${values.at(-1)}`;

const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.enum(values, { error: `must be ${listed(values)}` });

const flag = (fallback: 'true' | 'false') =>
  oneOf(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

/** Digits only, from `least` to `most`: Number() alone would take `1e3`, `0x10` and ` ` and turn `abc` into NaN. */
const wholeNumber = (least: number, most = LARGEST_INT, kind = 'a whole number') => {
  const expected = `must be ${kind} from ${least} to ${most}`;
  return z.string().regex(/^\d+$/, expected).transform(Number).pipe(z.number().min(least, expected).max(most, expected));
};

/** A delay or a duration: a Node timer given more than LARGEST_INT fires at once. */
const milliseconds = (fallback: number, least = 0) => wholeNumber(least, LARGEST_INT, 'a whole number of milliseconds').default(fallback);

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' });

const postgresUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be a postgres://user:password@host:port/database address');

const smtpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be an smtp:// or smtps:// address');

/** `Name <address@domain>` or a bare `address@domain`. */
const mailbox = z.string().regex(/^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, 'must be an address, alone or as Name <address>');

const commaSeparated = (value: string) =>
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** `https://app.example.com` as a browser sends it in Origin, or undefined for anything with a path, a query or credentials. */
function originOf(entry: string): string | undefined {
  if (!URL.canParse(entry)) return undefined;
  const url = new URL(entry);
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return /^https?:$/.test(url.protocol) && bare ? url.origin : undefined;
}

const corsOrigins = z.string().transform((value, context) => {
  const entries = commaSeparated(value);
  if (entries.includes('*')) {
    // Credentialed requests (the session cookie) are allowed from these origins: each must be named.
    context.addIssue('must name each origin allowed: * is refused, as the API accepts credentials (the session cookie) from them');
    return z.NEVER;
  }
  const notOrigins = entries.filter((entry) => !originOf(entry));
  if (notOrigins.length > 0) {
    context.addIssue(
      `${notOrigins.join(', ')} ${notOrigins.length === 1 ? 'is not an origin' : 'are not origins'}: each must be http(s)://host[:port], without a path`,
    );
    return z.NEVER;
  }
  return entries.map((entry) => originOf(entry) as string);
});

/** The names Express's `trust proxy` knows for sets of addresses. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, a CIDR subnet (`10.0.0.0/8`, `fd00::/8`) or a range name, as Express's `trust proxy` reads one. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefixLength, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefixLength === undefined) return true;
  // Express refuses a prefix length of 0.
  return /^\d+$/.test(prefixLength) && Number(prefixLength) >= 1 && Number(prefixLength) <= (family === 4 ? 32 : 128);
}

/** `TCMS_TRUST_PROXY` as Express reads it: true/false, a hop count, or addresses and subnets. */
const trustProxy = z
  .string()
  .transform(commaSeparated)
  .refine(
    (entries) =>
      (entries.length === 1 && /^(?:true|false|\d+)$/.test(entries[0] as string)) || (entries.length > 0 && entries.every(isProxyAddress)),
    'must be true, false, a number of hops, or IP addresses/subnets separated by commas (loopback, linklocal and uniquelocal name those ranges)',
  )
  .transform((entries): boolean | number | string => {
    const value = entries.join(',');
    return value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value;
  });

/** `TCMS_METRICS_TOKEN`: the exact text after `Bearer ` in Authorization; a header trims spaces around it. */
const metricsToken = z.string().regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 characters, without spaces');

/** An S3 bucket name, not an address: `s3://files` or `files/attachments` would be refused at the first upload. */
const bucketName = z
  .string()
  .regex(/^[A-Za-z0-9._-]{3,255}$/, 'must be a bucket name (letters, digits, dots, hyphens), not an address or a path');

const environmentSchema = z.object({
  PORT: wholeNumber(0, 65535, 'a port number').default(3000),
  DATABASE_URL: postgresUrl.optional(),
  TCMS_DATA_DIR: z.string().default('./data'),
  TCMS_DB_POOL_SIZE: wholeNumber(1, 200).default(10),
  // The embedded database's shared_buffers: PostgreSQL's 128 MB default is resident from the first
  // start in the server's own memory, while its files stay in the system's page cache anyway.
  TCMS_EMBEDDED_SHARED_BUFFERS_MB: wholeNumber(1, 1024, 'a whole number of MiB').default(16),
  // How long start-up keeps trying to reach a database that refuses or does not exist yet.
  TCMS_DB_CONNECT_TIMEOUT_MS: milliseconds(30_000),
  // The longest one SQL statement may run on a PostgreSQL server (PGlite cannot interrupt one).
  TCMS_STATEMENT_TIMEOUT_MS: milliseconds(30_000),
  TCMS_LOG_REQUESTS: flag('true'),
  TCMS_LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: oneOf(['development', 'production', 'test']).default('development'),
  // Files go to an S3-compatible bucket when TCMS_S3_BUCKET is set, else under TCMS_DATA_DIR/files.
  TCMS_S3_BUCKET: bucketName.optional(),
  TCMS_S3_ENDPOINT: httpUrl.optional(),
  TCMS_S3_REGION: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a region name (letters, digits, hyphens)')
    .default('us-east-1'),
  TCMS_S3_ACCESS_KEY_ID: z.string().optional(),
  TCMS_S3_SECRET_ACCESS_KEY: z.string().optional(),
  TCMS_S3_FORCE_PATH_STYLE: flag('true'),
  // Origins allowed to call the API from a browser (CORS), comma-separated; none by default.
  TCMS_CORS_ORIGINS: corsOrigins.default([]),
  // Express's `trust proxy`: behind a load balancer, which hops may set X-Forwarded-For.
  TCMS_TRUST_PROXY: trustProxy.default(false),
  // When set, GET /metrics needs `Authorization: Bearer <this token>`.
  TCMS_METRICS_TOKEN: metricsToken.optional(),
  // The billing provider behind the subscription endpoints (src/billing/).
  TCMS_BILLING_PROVIDER: z
    .enum(BILLING_PROVIDER_NAMES, { error: `must be a billing provider this build has: ${listed(BILLING_PROVIDER_NAMES)}` })
    .default('local'),
  // The plan of every organization created from now on (contract §2); existing ones keep theirs.
  TCMS_DEFAULT_PLAN: oneOf(PLAN_NAMES).default('free'),
  // Where people reach the service: links in mail (an invitation's accept address) start here.
  TCMS_PUBLIC_URL: httpUrl.transform((value) => value.replace(/\/+$/, '')).optional(),
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
  TCMS_SSE_STREAMS_PER_CREDENTIAL: wholeNumber(1).default(20),
  TCMS_SSE_STREAMS_PER_ADDRESS: wholeNumber(1).default(50),
  // Each import reads its files in a worker thread of this much heap and time; a file that needs more answers 422.
  TCMS_IMPORT_MEMORY_MB: wholeNumber(16, LARGEST_INT, 'a whole number of MiB').default(256),
  TCMS_IMPORT_TIMEOUT_MS: milliseconds(120_000, 100),
  // Bot check of signup (contract §18): a siteverify-compatible verifier and the secret it knows this service by.
  TCMS_CHALLENGE_VERIFY_URL: httpUrl.optional(),
  TCMS_CHALLENGE_SECRET: z.string().optional(),
  // The widget the signup page shows for the bot check (its public site key; its script, unless overridden).
  TCMS_CHALLENGE_SITE_KEY: z.string().optional(),
  TCMS_CHALLENGE_WIDGET: oneOf(['turnstile', 'hcaptcha', 'recaptcha']).default('turnstile'),
  TCMS_CHALLENGE_SCRIPT_URL: httpUrl.optional(),
  // How long the verifier has to answer before signup is refused.
  TCMS_CHALLENGE_TIMEOUT_MS: milliseconds(5_000, 1),
  // Unverified users cannot invite, create API tokens or accept invitations (contract §18).
  TCMS_REQUIRE_EMAIL_VERIFICATION: flag('false'),
  // argon2id's cost for new password hashes: memory in KiB and passes (OWASP's minimum, 19 MiB and 2, by default).
  TCMS_PASSWORD_MEMORY_KIB: wholeNumber(1024, LARGEST_INT, 'a whole number of KiB').default(19_456),
  TCMS_PASSWORD_PASSES: wholeNumber(1, 10).default(2),
});

export type VariableName = keyof typeof environmentSchema.shape;

/** Every environment variable the service reads. */
export const VARIABLE_NAMES = Object.keys(environmentSchema.shape) as VariableName[];

/** A good value of each variable, for the line that reports a bad one. */
const EXAMPLES: Record<VariableName, readonly string[]> = {
  PORT: ['3000'],
  DATABASE_URL: ['postgres://tcms:password@db.example.com:5432/tcms'],
  TCMS_DATA_DIR: ['/var/lib/tcms'],
  TCMS_DB_POOL_SIZE: ['10'],
  TCMS_EMBEDDED_SHARED_BUFFERS_MB: ['16'],
  TCMS_DB_CONNECT_TIMEOUT_MS: ['30000'],
  TCMS_STATEMENT_TIMEOUT_MS: ['30000'],
  TCMS_LOG_REQUESTS: ['true'],
  TCMS_LOG_LEVEL: ['info'],
  NODE_ENV: ['production'],
  TCMS_S3_BUCKET: ['tcms-files'],
  TCMS_S3_ENDPOINT: ['https://s3.eu-central-1.amazonaws.com', 'http://minio:9000'],
  TCMS_S3_REGION: ['eu-central-1'],
  TCMS_S3_ACCESS_KEY_ID: ['AKIAIOSFODNN7EXAMPLE'],
  TCMS_S3_SECRET_ACCESS_KEY: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  TCMS_S3_FORCE_PATH_STYLE: ['true'],
  TCMS_CORS_ORIGINS: ['https://app.example.com,http://localhost:5173'],
  TCMS_TRUST_PROXY: ['1', '10.0.0.0/8'],
  TCMS_METRICS_TOKEN: ['$(openssl rand -hex 32)'],
  TCMS_BILLING_PROVIDER: ['local'],
  TCMS_DEFAULT_PLAN: ['free'],
  TCMS_PUBLIC_URL: ['https://tcms.example.com'],
  TCMS_SMTP_URL: ['smtps://user:password@mail.example.com:465'],
  TCMS_MAIL_FROM: ['tcms <no-reply@example.com>'],
  TCMS_RETRY_BASE_MS: ['30000'],
  TCMS_MAIL_POLL_MS: ['1000'],
  TCMS_WEBHOOK_DISPATCH: ['true'],
  TCMS_WEBHOOKS_ALLOW_PRIVATE: ['false'],
  TCMS_WEBHOOK_TIMEOUT_MS: ['10000'],
  TCMS_WEBHOOK_RETRY_BASE_MS: ['15000'],
  TCMS_WEBHOOK_POLL_MS: ['1000'],
  TCMS_WEBHOOK_COOLDOWN_MS: ['30000'],
  TCMS_SSE_KEEPALIVE_MS: ['15000'],
  TCMS_SSE_STREAMS_PER_CREDENTIAL: ['20'],
  TCMS_SSE_STREAMS_PER_ADDRESS: ['50'],
  TCMS_IMPORT_MEMORY_MB: ['256'],
  TCMS_IMPORT_TIMEOUT_MS: ['120000'],
  TCMS_CHALLENGE_VERIFY_URL: ['https://challenges.cloudflare.com/turnstile/v0/siteverify'],
  TCMS_CHALLENGE_SECRET: ['<the secret key the verifier gave you>'],
  TCMS_CHALLENGE_SITE_KEY: ['<the site key the verifier gave you>'],
  TCMS_CHALLENGE_WIDGET: ['turnstile'],
  TCMS_CHALLENGE_SCRIPT_URL: ['https://challenges.cloudflare.com/turnstile/v0/api.js'],
  TCMS_CHALLENGE_TIMEOUT_MS: ['5000'],
  TCMS_REQUIRE_EMAIL_VERIFICATION: ['true'],
  TCMS_PASSWORD_MEMORY_KIB: ['19456'],
  TCMS_PASSWORD_PASSES: ['2'],
};

/** Variables whose value a report never shows. */
const SECRETS = new Set<string>(['TCMS_METRICS_TOKEN', 'TCMS_S3_SECRET_ACCESS_KEY', 'TCMS_CHALLENGE_SECRET']);

/**
 * Variables that mean nothing without another one: each pair is [the variable needed, the one
 * that needs it]. Without this the one set would be ignored silently (no bot check, files on
 * local disk, S3 credentials dropped).
 */
const NEEDED_WITH: ReadonlyArray<readonly [VariableName, VariableName]> = [
  ['TCMS_CHALLENGE_SECRET', 'TCMS_CHALLENGE_VERIFY_URL'],
  ['TCMS_CHALLENGE_VERIFY_URL', 'TCMS_CHALLENGE_SECRET'],
  ['TCMS_CHALLENGE_VERIFY_URL', 'TCMS_CHALLENGE_SITE_KEY'],
  ['TCMS_CHALLENGE_SITE_KEY', 'TCMS_CHALLENGE_SCRIPT_URL'],
  ['TCMS_S3_SECRET_ACCESS_KEY', 'TCMS_S3_ACCESS_KEY_ID'],
  ['TCMS_S3_ACCESS_KEY_ID', 'TCMS_S3_SECRET_ACCESS_KEY'],
  ['TCMS_S3_BUCKET', 'TCMS_S3_ENDPOINT'],
  ['TCMS_S3_BUCKET', 'TCMS_S3_ACCESS_KEY_ID'],
];

/**
 * A problem with how the service was configured or where it runs (a bad variable, a data
 * directory that cannot be used, a database that cannot be reached): the process reports its
 * message, a line per problem, and exits, never with a stack.
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export type Config = {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
  /** shared_buffers of the embedded database (PGlite), in MiB. */
  embeddedSharedBuffersMb: number;
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
  billingProvider: BillingProviderName;
  /** The plan organizations get when they are created. */
  defaultPlan: PlanName;
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

/** A value as a shell line would hold it: quoted when it has spaces, quotes or angle brackets. */
const quoted = (value: string) => (/^[^\s"'\\<>]+$/.test(value) ? value : JSON.stringify(value));

/** `NAME=value` as a report shows it: secrets hidden, an address's password masked. */
function shown(name: string, value: string): string {
  if (SECRETS.has(name)) return `${name}=(${value.length} characters, hidden)`;
  return `${name}=${quoted(value.replace(/(\/\/[^/@:]*:)[^/]*@/, '$1***@'))}`;
}

const forExample = (name: VariableName) => `e.g. ${EXAMPLES[name].map((example) => `${name}=${quoted(example)}`).join(' or ')}`;

/** One line per bad variable: its value, what is wrong with it, and a good value. */
function problemsOf(given: Record<string, string>, issues: readonly z.core.$ZodIssue[]): string[] {
  const problems = new Map<VariableName, string>();
  for (const issue of issues) {
    const name = issue.path[0] as VariableName;
    if (!problems.has(name)) problems.set(name, `${shown(name, given[name] ?? '')}: ${issue.message}, ${forExample(name)}`);
  }
  const neededBy = new Map<VariableName, VariableName[]>();
  for (const [needed, by] of NEEDED_WITH) {
    if (given[by] !== undefined && given[needed] === undefined) neededBy.set(needed, [...(neededBy.get(needed) ?? []), by]);
  }
  for (const [needed, by] of neededBy) {
    problems.set(needed, `${needed} is required with ${listed(by, 'and')}, ${forExample(needed)}`);
  }
  return [...problems.values()];
}

/**
 * The configuration from the environment, where an empty variable counts as unset; a bad one is
 * a ConfigurationError whose message has a line for each bad variable (`NAME=value: problem, e.g. NAME=good`).
 */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const given = Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const result = environmentSchema.safeParse(given);
  const problems = problemsOf(given, result.success ? [] : result.error.issues);
  if (!result.success || problems.length > 0) throw new ConfigurationError(problems.join('\n'));
  const parsed = result.data;
  return {
    port: parsed.PORT,
    databaseUrl: parsed.DATABASE_URL,
    dataDir: path.resolve(parsed.TCMS_DATA_DIR),
    poolSize: parsed.TCMS_DB_POOL_SIZE,
    embeddedSharedBuffersMb: parsed.TCMS_EMBEDDED_SHARED_BUFFERS_MB,
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
    trustProxy: parsed.TCMS_TRUST_PROXY,
    metricsToken: parsed.TCMS_METRICS_TOKEN,
    billingProvider: parsed.TCMS_BILLING_PROVIDER,
    defaultPlan: parsed.TCMS_DEFAULT_PLAN,
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
