import { readFile, rm } from 'node:fs/promises';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig, VARIABLE_NAMES, type VariableName } from '../../src/kernel/config.ts';
import { newDataDir } from '../support/data-directories.ts';
import { exitWithin, killNow, logMessages, ROOT, spawnServer, type WatchedProcess } from '../support/processes.ts';

/**
 * The environment is checked before anything starts: a bad configuration is one line per bad
 * variable (its value, the problem, a good value), and the server exits 1 at once instead of
 * after opening the database. An empty variable counts as unset.
 */

/** A configuration with every optional group in use, which loadConfig accepts: the base each bad value is laid over. */
const GOOD: NodeJS.ProcessEnv = {
  TCMS_S3_BUCKET: 'files',
  TCMS_S3_ACCESS_KEY_ID: 'key-id',
  TCMS_S3_SECRET_ACCESS_KEY: 'secret-key',
  TCMS_CHALLENGE_VERIFY_URL: 'https://verify.example/siteverify',
  TCMS_CHALLENGE_SECRET: 'challenge-secret',
  TCMS_CHALLENGE_SITE_KEY: 'site-key',
};

const DATABASE_PASSWORD = 'hunter2';
const SHORT_METRICS_TOKEN = 'short-token';

/** A bad value of each variable whose value is checked on its own. */
const BAD_VALUES: Partial<Record<VariableName, string>> = {
  PORT: 'eighty',
  DATABASE_URL: `mysql://root:${DATABASE_PASSWORD}@localhost/tcms`,
  TCMS_DB_POOL_SIZE: 'abc',
  TCMS_EMBEDDED_SHARED_BUFFERS_MB: '0',
  TCMS_DB_CONNECT_TIMEOUT_MS: '30s',
  TCMS_STATEMENT_TIMEOUT_MS: '-1',
  TCMS_LOG_REQUESTS: 'yes',
  TCMS_LOG_LEVEL: 'loud',
  NODE_ENV: 'staging',
  TCMS_S3_BUCKET: 's3://files',
  TCMS_S3_ENDPOINT: 'minio:9000',
  TCMS_S3_REGION: 'eu central',
  TCMS_S3_FORCE_PATH_STYLE: '1',
  TCMS_CORS_ORIGINS: '*',
  TCMS_TRUST_PROXY: 'maybe',
  TCMS_METRICS_TOKEN: SHORT_METRICS_TOKEN,
  TCMS_BILLING_PROVIDER: 'stripe',
  TCMS_DEFAULT_PLAN: 'gold',
  TCMS_PUBLIC_URL: 'tcms.example.com',
  TCMS_SMTP_URL: 'mail.example.com:25',
  TCMS_MAIL_FROM: 'tcms',
  TCMS_RETRY_BASE_MS: '0',
  TCMS_MAIL_POLL_MS: '1',
  TCMS_WEBHOOK_DISPATCH: 'on',
  TCMS_WEBHOOKS_ALLOW_PRIVATE: 'TRUE',
  TCMS_WEBHOOK_TIMEOUT_MS: '1e4',
  TCMS_WEBHOOK_RETRY_BASE_MS: '0x10',
  // More than a Node timer holds: it would fire at once, polling without pause.
  TCMS_WEBHOOK_POLL_MS: '99999999999',
  TCMS_WEBHOOK_COOLDOWN_MS: '0',
  TCMS_SSE_KEEPALIVE_MS: '5',
  TCMS_SSE_STREAMS_PER_CREDENTIAL: '0',
  TCMS_SSE_STREAMS_PER_ADDRESS: 'many',
  TCMS_IMPORT_MEMORY_MB: '8',
  TCMS_IMPORT_TIMEOUT_MS: '2.5',
  TCMS_CHALLENGE_VERIFY_URL: 'ftp://verify.example',
  TCMS_CHALLENGE_WIDGET: 'captcha',
  TCMS_CHALLENGE_SCRIPT_URL: 'javascript:alert(1)',
  TCMS_CHALLENGE_TIMEOUT_MS: '5 s',
  TCMS_REQUIRE_EMAIL_VERIFICATION: 'yes',
  TCMS_PASSWORD_MEMORY_KIB: '512',
  TCMS_PASSWORD_PASSES: '11',
};

/** Variables any text is a good value of: each is reported when another variable needs it and it is unset. */
const NEEDED: Array<[VariableName, NodeJS.ProcessEnv]> = [
  ['TCMS_S3_BUCKET', { TCMS_S3_ENDPOINT: 'http://minio:9000' }],
  ['TCMS_S3_ACCESS_KEY_ID', { TCMS_S3_BUCKET: 'files', TCMS_S3_SECRET_ACCESS_KEY: 'secret-key' }],
  ['TCMS_S3_SECRET_ACCESS_KEY', { TCMS_S3_BUCKET: 'files', TCMS_S3_ACCESS_KEY_ID: 'key-id' }],
  ['TCMS_CHALLENGE_SECRET', { TCMS_CHALLENGE_VERIFY_URL: 'https://verify.example/siteverify' }],
  ['TCMS_CHALLENGE_VERIFY_URL', { TCMS_CHALLENGE_SECRET: 'challenge-secret' }],
  ['TCMS_CHALLENGE_SITE_KEY', { ...GOOD, TCMS_CHALLENGE_SITE_KEY: undefined, TCMS_CHALLENGE_SCRIPT_URL: 'https://widget.example/api.js' }],
];

/** Any path is a good value; the server refuses one it cannot use as it starts (test/cli/embedded-database.test.ts). */
const CHECKED_AT_START: VariableName[] = ['TCMS_DATA_DIR'];

/** The lines of the ConfigurationError that loadConfig throws for `environment`. */
function problemLines(environment: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message.split('\n');
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(environment)}`);
}

describe('loadConfig', () => {
  it('has a bad value, a needed partner or a start-up check for every variable', () => {
    const covered = new Set([...Object.keys(BAD_VALUES), ...NEEDED.map(([name]) => name), ...CHECKED_AT_START]);
    expect([...covered].sort()).toEqual([...VARIABLE_NAMES].sort());
    expect(() => loadConfig(GOOD)).not.toThrow();
  });

  it.each(Object.entries(BAD_VALUES))('refuses %s=%s on one line: the variable, the problem, a good value', (name, value) => {
    const lines = problemLines({ ...GOOD, [name]: value });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${name}=\\S.*: must .+, e\\.g\\. ${name}=\\S`));
  });

  it('reports every bad variable at once, one line each', () => {
    const lines = problemLines({ ...GOOD, ...BAD_VALUES });
    expect(lines.map((line) => line.slice(0, line.indexOf('='))).sort()).toEqual(Object.keys(BAD_VALUES).sort());
  });

  it.each(NEEDED)('reports %s when a variable that needs it is set without it', (name, environment) => {
    const lines = problemLines(environment);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${name} is required with TCMS_\\w+, e\\.g\\. ${name}=\\S`));
  });

  it('says what TCMS_TRUST_PROXY takes', () => {
    expect(problemLines({ TCMS_TRUST_PROXY: 'maybe' })).toEqual([
      'TCMS_TRUST_PROXY=maybe: must be true, false, a number of hops, or IP addresses/subnets separated by commas ' +
        '(loopback, linklocal and uniquelocal name those ranges), e.g. TCMS_TRUST_PROXY=1 or TCMS_TRUST_PROXY=10.0.0.0/8',
    ]);
    for (const refused of ['10.0.0.0/0', '10.0.0.1/33', '1,10.0.0.1', 'true,false', 'localhost', ',']) {
      expect(problemLines({ TCMS_TRUST_PROXY: refused })[0]).toMatch(/^TCMS_TRUST_PROXY=/);
    }
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8', '10.0.0.0/8'],
    [' 10.0.0.1 , fd00::/8,loopback ', '10.0.0.1,fd00::/8,loopback'],
    ['linklocal,uniquelocal,::1', 'linklocal,uniquelocal,::1'],
  ])('takes TCMS_TRUST_PROXY=%j as Express does', (value, trustProxy) => {
    const config = loadConfig({ TCMS_TRUST_PROXY: value });
    expect(config.trustProxy).toEqual(trustProxy);
    expect(() => express().set('trust proxy', config.trustProxy)).not.toThrow();
  });

  it('refuses * in TCMS_CORS_ORIGINS (the API accepts credentials from them) and names an entry that is not an origin', () => {
    expect(problemLines({ TCMS_CORS_ORIGINS: 'https://app.example.com,*' })[0]).toMatch(
      /^TCMS_CORS_ORIGINS=https:\/\/app\.example\.com,\*: must name each origin allowed: \* is refused, as the API accepts credentials/,
    );
    expect(problemLines({ TCMS_CORS_ORIGINS: 'https://app.example.com,ftp://files.example.com' })[0]).toMatch(
      /^TCMS_CORS_ORIGINS=\S+: ftp:\/\/files\.example\.com is not an origin: each must be http\(s\):\/\/host\[:port\], without a path/,
    );
    expect(loadConfig({ TCMS_CORS_ORIGINS: 'https://App.example.com/, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
  });

  it('never shows a secret or a password: a hidden length, a masked password', () => {
    const [token] = problemLines({ TCMS_METRICS_TOKEN: SHORT_METRICS_TOKEN });
    expect(token).toMatch(/^TCMS_METRICS_TOKEN=\(11 characters, hidden\): must be at least 16 characters/);
    const [database] = problemLines({ DATABASE_URL: BAD_VALUES.DATABASE_URL });
    expect(database).toMatch(/^DATABASE_URL=mysql:\/\/root:\*\*\*@localhost\/tcms: must be a postgres:\/\//);
    expect(`${token}${database}`).not.toMatch(new RegExp(`${SHORT_METRICS_TOKEN}|${DATABASE_PASSWORD}`));
  });

  it('quotes a value with spaces, as a shell line would hold it', () => {
    expect(problemLines({ TCMS_MAIL_FROM: 'Acme QA' })).toEqual([
      'TCMS_MAIL_FROM="Acme QA": must be an address, alone or as Name <address>, e.g. TCMS_MAIL_FROM="tcms <no-reply@example.com>"',
    ]);
  });

  it('takes an empty variable as unset, for every variable', () => {
    const defaults = loadConfig({});
    for (const name of VARIABLE_NAMES) expect(loadConfig({ [name]: '' }), name).toEqual(defaults);
    expect(loadConfig({ TCMS_METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
  });

  it('has a row of the README configuration table for every variable', async () => {
    const readme = await readFile(`${ROOT}/README.md`, 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Configuration\n'),
      readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 1),
    );
    const documented = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1]));
    expect(documented.sort()).toEqual([...VARIABLE_NAMES].sort());
  });

  it('puts new organizations on the free plan unless TCMS_DEFAULT_PLAN names another', () => {
    expect(loadConfig({}).defaultPlan).toBe('free');
    expect(loadConfig({ TCMS_DEFAULT_PLAN: 'enterprise' }).defaultPlan).toBe('enterprise');
  });
});

describe('a server started with a bad configuration', { timeout: 30_000 }, () => {
  const started: WatchedProcess[] = [];
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await newDataDir('tcms-configuration-', { fresh: true });
  });

  afterAll(async () => {
    await Promise.all(started.map((child) => killNow(child)));
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Spawns the server with `env`; answers how it exited within 2 s and the lines after "tcms cannot start: ". */
  async function failedStart(env: NodeJS.ProcessEnv) {
    const server = spawnServer({ dataDir, env, limitMs: 20_000 });
    started.push(server);
    const exit = await exitWithin(server, 2_000);
    await killNow(server);
    await server.closed;
    const output = server.output();
    const lines = logMessages(output)
      .filter((message) => message.startsWith('tcms cannot start: '))
      .flatMap((message) => message.split('\n'))
      .map((line) => line.replace(/^tcms cannot start: /, ''));
    return { exit, output, lines };
  }

  it('exits 1 within 2 s, naming every bad variable on a line of its own, and shows no secret', async () => {
    const { exit, output, lines } = await failedStart({ ...GOOD, ...BAD_VALUES });
    expect(exit, output).toEqual({ code: 1, signal: null });
    for (const name of Object.keys(BAD_VALUES)) {
      expect(
        lines.filter((line) => line.startsWith(`${name}=`)),
        output,
      ).toHaveLength(1);
    }
    expect(lines).toHaveLength(Object.keys(BAD_VALUES).length);
    expect(output).not.toMatch(new RegExp(`${SHORT_METRICS_TOKEN}|${DATABASE_PASSWORD}`));
    expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('refuses TCMS_TRUST_PROXY=maybe at once, saying what it takes', async () => {
    const { exit, output, lines } = await failedStart({ TCMS_TRUST_PROXY: 'maybe' });
    expect(exit, output).toEqual({ code: 1, signal: null });
    expect(lines).toEqual([expect.stringMatching(/^TCMS_TRUST_PROXY=maybe: must be true, false, a number of hops/)]);
  });
});
