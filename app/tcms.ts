import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { emailSchema } from '../src/foundation/auth/auth.schemas.ts';
import { type SignInBlocker, unblockSignIn } from '../src/foundation/auth/sign-in-throttle.ts';
import { PLAN_NAMES, type PlanName } from '../src/kernel/billing-tiers.ts';
import { ConfigurationError, loadConfig } from '../src/kernel/config.ts';
import { checkBackupFile, restoreBackup, writeBackup } from '../src/kernel/database/backup.ts';
import { openDatabase, prisma } from '../src/kernel/database/client.ts';
import { pendingMigrations } from '../src/kernel/database/migration-status.ts';
import { migrate } from '../src/kernel/database/migrator.ts';
import { openOperatorSession } from '../src/kernel/database/operator-session.ts';
import { AppError } from '../src/kernel/errors.ts';
import { ULID_PATTERN } from '../src/kernel/ids.ts';
import { SERVICE_VERSION } from '../src/kernel/version.ts';
import { setMemberSuspension } from '../src/members/members.service.ts';
import {
  describeOrganization,
  type LimitOverrides,
  listOrganizations,
  overrideOrganizationLimits,
  setOrganizationPlan,
  setOrganizationSuspension,
} from '../src/orgs/orgs.service.ts';
import { eraseUser } from '../src/users/users.service.ts';
import { EXIT, RESULTS_USAGE, runResults, type UploadOutput } from './results-upload.ts';

/**
 * The operator command of contract §2: plans and per-organization overrides change here, never
 * over HTTP. `bin/tcms.mjs` is the executable entry; `runCli` is also callable in-process.
 */

export type CliOutput = UploadOutput;

export const USAGE = `Usage: tcms <command>

Commands:
  tcms org set-plan <orgUlid> <${PLAN_NAMES.join('|')}>
      Put the organization on a plan.
  tcms org override <orgUlid> [--projects N|default] [--seats N|default]
                    [--results-per-month N|default] [--requests-per-minute N|default]
                    [--audit-export true|false|default]
      Override ceilings of one organization; "default" removes the override.
  tcms org show <orgUlid>
      Print the plan, the overrides and the effective limits.
  tcms org list
      Print every organization with its plan, members and projects.
  tcms org suspend <orgUlid> [--reason TEXT]
      Suspend the organization: every request in it answers 403
      organization_suspended, except reading the organization and its
      subscription, until unsuspended.
  tcms org unsuspend <orgUlid>
      Lift the organization's suspension.
  tcms org suspend-member <orgUlid> <userUlid|email>
      Suspend a member: they keep their role and seat but cannot act in the
      organization (403) until unsuspended.
  tcms org unsuspend-member <orgUlid> <userUlid|email>
      Lift a member's suspension.
  tcms user erase <email>
      Erase a person's identity: the user, their memberships, sessions and API
      tokens are deleted; their audit events stay with the actor's ULID, email
      and name cleared ("[identity removed]"). Refused for the last owner of an
      organization.
  tcms auth unblock <email|ipAddress>
      Clear the sign-in throttle of an account (its failed sign-ins from every
      client address) or of a client address (its failures for every account);
      prints how many failure counters it cleared.
  tcms backup <file>
      Write a consistent snapshot of the whole database to <file>, a SQL script
      (safe while the server runs and takes writes).
  tcms restore <file>
      Restore a backup into an empty database (a new TCMS_DATA_DIR, created
      here, or an empty PostgreSQL database), then apply this version's newer
      migrations. psql -v ON_ERROR_STOP=1 -1 -d <database> -f <file> restores
      it too.
  tcms migrate [--dry-run]
      Apply the pending migrations (--dry-run: only list them).
${RESULTS_USAGE}
  tcms help
      Print this text.
  tcms version, tcms --version
      Print the version of tcms.

The org, user, auth, backup, restore and migrate commands work on the server's database:
DATABASE_URL (a postgres:// address) or else the embedded database under TCMS_DATA_DIR (default
./data). Results are printed as JSON. Backup, restore and upgrade: docs/operations.md.
Exit codes: 0 success, 1 error (unknown organization, bad value, failed upload), 2 usage error,
${EXIT.failedTests} uploaded with --fail-on-failed-tests and the run has failed cases.`;

/** Thrown for malformed command lines: exit code 2. */
class UsageError extends Error {}
/** Thrown for well-formed commands with bad values: exit code 1. */
class CommandError extends Error {}

const MAX_INT = 2_147_483_647;
const MAX_REASON_LENGTH = 500;

const NUMERIC_OVERRIDES = {
  projects: 'maxProjects',
  seats: 'maxSeats',
  'results-per-month': 'maxResultsPerMonth',
  'requests-per-minute': 'requestsPerMinute',
} as const satisfies Record<string, keyof LimitOverrides>;

const OPTIONS = {
  projects: { type: 'string' },
  seats: { type: 'string' },
  'results-per-month': { type: 'string' },
  'requests-per-minute': { type: 'string' },
  'audit-export': { type: 'string' },
  reason: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | DatabaseCommand
  | { kind: 'set-plan'; orgId: string; plan: PlanName }
  | { kind: 'override'; orgId: string; overrides: LimitOverrides }
  | { kind: 'show'; orgId: string }
  | { kind: 'list' }
  | { kind: 'suspension'; orgId: string; member: string; suspended: boolean }
  | { kind: 'org-suspension'; orgId: string; suspended: boolean; reason?: string | undefined }
  | { kind: 'erase-user'; email: string }
  | { kind: 'unblock-sign-in'; blocker: SignInBlocker };

/** The commands on the database as a whole: they open a session of their own, without migrating. */
type DatabaseCommand = { kind: 'backup'; file: string } | { kind: 'restore'; file: string } | { kind: 'migrate'; dryRun: boolean };

function parseNumber(flag: string, raw: string): number | null {
  if (raw === 'default') return null;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_INT) {
    throw new CommandError(`--${flag} must be a whole number from 0 to ${MAX_INT} or "default", got "${raw}"`);
  }
  return Number(raw);
}

function parseBoolean(flag: string, raw: string): boolean | null {
  if (raw === 'default') return null;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new CommandError(`--${flag} must be true, false or "default", got "${raw}"`);
}

/** A user ULID (any case) or an email address. */
function parseMember(raw: string | undefined): string {
  if (raw === undefined) throw new UsageError('Missing <userUlid|email>');
  if (raw.includes('@')) return raw;
  const userId = raw.toUpperCase();
  if (!ULID_PATTERN.test(userId)) throw new CommandError(`"${raw}" is neither a user ULID nor an email address`);
  return userId;
}

function parseReason(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const reason = raw.trim();
  if (reason === '' || reason.length > MAX_REASON_LENGTH) {
    throw new CommandError(`--reason must be 1 to ${MAX_REASON_LENGTH} characters`);
  }
  return reason;
}

function parseOrgId(raw: string | undefined): string {
  if (raw === undefined) throw new UsageError('Missing <orgUlid>');
  const orgId = raw.toUpperCase();
  if (!ULID_PATTERN.test(orgId)) throw new CommandError(`"${raw}" is not an organization ULID`);
  return orgId;
}

/** Turns argv (without `node` and the script) into a command; throws UsageError or CommandError. */
export function parseCommand(argv: string[]): Command {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [group, action, ...rest] = positionals;
  if (values.help || group === 'help') return { kind: 'help' };
  if (values.version || group === 'version') return { kind: 'version' };
  if (group === undefined) throw new UsageError('Missing command');
  if (group === 'backup' || group === 'restore' || group === 'migrate') return parseDatabaseCommand(group, positionals.slice(1), values);
  if (values['dry-run']) throw new UsageError(`"${group}" takes no option --dry-run`);
  if (group === 'user') return parseUserCommand(action, rest);
  if (group === 'auth') return parseAuthCommand(action, rest);
  if (group !== 'org') throw new UsageError(`Unknown command "${group}"`);
  if (action === undefined) {
    throw new UsageError('Missing org command: list, show, set-plan, override, suspend, unsuspend, suspend-member or unsuspend-member');
  }

  const flagsGiven = (Object.keys(OPTIONS) as (keyof typeof OPTIONS)[]).filter((name) => name !== 'help' && values[name] !== undefined);
  const overrideFlags = flagsGiven.filter((name) => name !== 'reason');
  const strayFlag = flagsGiven.find((name) => (name === 'reason' ? action !== 'suspend' : action !== 'override'));
  if (strayFlag !== undefined) throw new UsageError(`"org ${action}" takes no option --${strayFlag}`);

  switch (action) {
    case 'set-plan': {
      if (rest.length !== 2) throw new UsageError('Expected: tcms org set-plan <orgUlid> <plan>');
      const orgId = parseOrgId(rest[0]);
      const plan = rest[1] as string;
      if (!PLAN_NAMES.includes(plan as PlanName)) {
        throw new CommandError(`Unknown plan "${plan}"; expected one of ${PLAN_NAMES.join(', ')}`);
      }
      return { kind: 'set-plan', orgId, plan: plan as PlanName };
    }
    case 'override': {
      if (rest.length !== 1) throw new UsageError('Expected: tcms org override <orgUlid> [options]');
      if (overrideFlags.length === 0) throw new UsageError('Give at least one override option');
      const orgId = parseOrgId(rest[0]);
      const overrides: LimitOverrides = {};
      for (const [flag, key] of Object.entries(NUMERIC_OVERRIDES)) {
        const raw = values[flag as keyof typeof NUMERIC_OVERRIDES];
        if (raw !== undefined) overrides[key] = parseNumber(flag, raw);
      }
      if (values['audit-export'] !== undefined) {
        overrides.auditExportEnabled = parseBoolean('audit-export', values['audit-export']);
      }
      return { kind: 'override', orgId, overrides };
    }
    case 'show': {
      if (rest.length !== 1) throw new UsageError('Expected: tcms org show <orgUlid>');
      return { kind: 'show', orgId: parseOrgId(rest[0]) };
    }
    case 'list': {
      if (rest.length !== 0) throw new UsageError('Expected: tcms org list');
      return { kind: 'list' };
    }
    case 'suspend':
    case 'unsuspend': {
      if (rest.length !== 1)
        throw new UsageError(`Expected: tcms org ${action} <orgUlid>${action === 'suspend' ? ' [--reason TEXT]' : ''}`);
      return { kind: 'org-suspension', orgId: parseOrgId(rest[0]), suspended: action === 'suspend', reason: parseReason(values.reason) };
    }
    case 'suspend-member':
    case 'unsuspend-member': {
      if (rest.length !== 2) throw new UsageError(`Expected: tcms org ${action} <orgUlid> <userUlid|email>`);
      return { kind: 'suspension', orgId: parseOrgId(rest[0]), member: parseMember(rest[1]), suspended: action === 'suspend-member' };
    }
    default:
      throw new UsageError(`Unknown org command "${action}"`);
  }
}

function parseDatabaseCommand(
  group: DatabaseCommand['kind'],
  args: string[],
  values: Partial<Record<keyof typeof OPTIONS, string | boolean>>,
): DatabaseCommand {
  const strayFlag = (Object.keys(OPTIONS) as (keyof typeof OPTIONS)[]).find(
    (name) => values[name] !== undefined && !(group === 'migrate' && name === 'dry-run'),
  );
  if (strayFlag !== undefined) throw new UsageError(`"${group}" takes no option --${strayFlag}`);
  if (group === 'migrate') {
    if (args.length !== 0) throw new UsageError('Expected: tcms migrate [--dry-run]');
    return { kind: 'migrate', dryRun: values['dry-run'] === true };
  }
  if (args.length !== 1) throw new UsageError(`Expected: tcms ${group} <file>`);
  return { kind: group, file: args[0]! };
}

function parseUserCommand(action: string | undefined, rest: string[]): Command {
  if (action !== 'erase') throw new UsageError(action === undefined ? 'Missing user command: erase' : `Unknown user command "${action}"`);
  if (rest.length !== 1) throw new UsageError('Expected: tcms user erase <email>');
  if (!rest[0]!.includes('@')) throw new CommandError(`"${rest[0]}" is not an email address`);
  return { kind: 'erase-user', email: rest[0]! };
}

function parseAuthCommand(action: string | undefined, rest: string[]): Command {
  if (action !== 'unblock')
    throw new UsageError(action === undefined ? 'Missing auth command: unblock' : `Unknown auth command "${action}"`);
  if (rest.length !== 1) throw new UsageError('Expected: tcms auth unblock <email|ipAddress>');
  return { kind: 'unblock-sign-in', blocker: parseBlocker(rest[0]!) };
}

function parseBlocker(raw: string): SignInBlocker {
  if (isIP(raw)) return { ip: raw };
  if (emailSchema.safeParse(raw).success) return { email: raw };
  throw new UsageError(`"${raw}" is neither an email address nor an IP address`);
}

/** What `tcms auth unblock` prints: whose blocks it cleared and how many failure counters that took. */
async function unblock(blocker: SignInBlocker) {
  const countersCleared = await unblockSignIn(blocker);
  return 'email' in blocker ? { account: blocker.email, countersCleared } : { clientAddress: blocker.ip, countersCleared };
}

async function executeOnDatabase(command: DatabaseCommand, env: NodeJS.ProcessEnv) {
  // Before a restore creates a database for it.
  if (command.kind === 'restore') await checkBackupFile(command.file);
  const session = await openOperatorSession(loadConfig(env), { create: command.kind === 'restore' });
  try {
    switch (command.kind) {
      case 'backup':
        return await writeBackup(session.connection, command.file);
      case 'restore':
        return await restoreBackup(session.connection, command.file, session.location);
      case 'migrate':
        if (command.dryRun) return { pending: (await pendingMigrations(session.connection)).map((migration) => migration.name) };
        return { applied: await migrate(session.connection) };
    }
  } finally {
    await session.close();
  }
}

async function execute(command: Exclude<Command, { kind: 'help' | 'version' } | DatabaseCommand>) {
  switch (command.kind) {
    case 'erase-user':
      return eraseUser(command.email);
    case 'unblock-sign-in':
      return unblock(command.blocker);
    case 'list':
      return listOrganizations();
    case 'suspension':
      return setMemberSuspension(command.orgId, command.member, command.suspended);
    case 'set-plan':
      await setOrganizationPlan(command.orgId, command.plan);
      break;
    case 'override':
      await overrideOrganizationLimits(command.orgId, command.overrides);
      break;
    case 'org-suspension':
      await setOrganizationSuspension(command.orgId, command);
      break;
    case 'show':
      break;
  }
  return describeOrganization(command.orgId);
}

/** True when this process already opened the database (in-process callers such as tests). */
function databaseIsOpen(): boolean {
  try {
    prisma();
    return true;
  } catch {
    return false;
  }
}

const oneLine = (message: string) => message.replace(/\s+/g, ' ').trim() || 'Unexpected error';

/** A bad configuration has a line per bad variable; any other failure is one line. */
const failureLines = (error: unknown): string[] =>
  error instanceof ConfigurationError
    ? error.message.split('\n')
    : [oneLine(error instanceof AppError ? error.message : error instanceof Error ? error.message : String(error))];

/** Runs one command line; answers the exit code (0 ok, 1 error, 2 usage). Never throws. */
export async function runCli(argv: string[], output: CliOutput, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv[0] === 'results') return runResults(argv.slice(1), output, env);
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`tcms: ${oneLine(error.message)} (see "tcms help")`);
      return 2;
    }
    output.err(`tcms: ${oneLine((error as Error).message)}`);
    return 1;
  }
  if (command.kind === 'help') {
    for (const line of USAGE.split('\n')) output.out(line);
    return 0;
  }
  if (command.kind === 'version') {
    output.out(SERVICE_VERSION);
    return 0;
  }
  if (command.kind === 'backup' || command.kind === 'restore' || command.kind === 'migrate') {
    try {
      output.out(JSON.stringify(await executeOnDatabase(command, env), null, 2));
      return 0;
    } catch (error) {
      for (const line of failureLines(error)) output.err(`tcms: ${line}`);
      return 1;
    }
  }

  let close: (() => Promise<void>) | undefined;
  try {
    if (!databaseIsOpen()) {
      const database = await openDatabase(loadConfig(), 'command');
      close = () => database.close();
    }
    const result = await execute(command);
    output.out(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    for (const line of failureLines(error)) output.err(`tcms: ${line}`);
    return 1;
  } finally {
    if (close) {
      await close().catch((error: unknown) => output.err(`tcms: closing the database failed: ${oneLine(String(error))}`));
    }
  }
}
