import { emitAudit } from '../foundation/audit/audit.service.ts';
import { organizationSnapshot } from '../foundation/auth/authenticate.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import { budgetSpent, consumeAddressCall } from '../foundation/rate-limit/rate-limit.service.ts';
import { settings } from '../kernel/config.ts';
import { type Db, prisma } from '../kernel/database/client.ts';
import { tenantClient } from '../kernel/database/tenant.ts';
import { inTransaction } from '../kernel/database/transactions.ts';
import { AppError, fromValidationIssues, notFound, validationFailed } from '../kernel/errors.ts';
import { epochMsOrNull, newId } from '../kernel/ids.ts';
import { newSecret, sha256 } from '../kernel/secrets.ts';
import { type ProgressEvent, type RunProgress, subscribeToRunProgress } from '../live/progress-streams.service.ts';
import { caseDisplayId } from '../projects/projects.schemas.ts';
import { lockRun } from '../runs/run-access.service.ts';
import { findRunCases } from '../runs/run-cases.service.ts';
import { runEvent } from '../runs/run-events.service.ts';
import { findRun, toRunResponse } from '../runs/runs.service.ts';
import {
  type CreateShareLinkInput,
  PUBLIC_SHARE_REQUESTS_PER_MINUTE,
  type PublicRun,
  SHARE_LINK_MAX_LIFETIME_MS,
  SHARE_LINKS_PER_RUN,
} from './share-links.schemas.ts';

export type ShareLinkRow = Awaited<ReturnType<Db['shareLink']['findFirstOrThrow']>>;

/** A share link as listed: never its token (only its hash is stored). */
const toShareLink = (row: ShareLinkRow) => ({
  ulid: row.id,
  runUlid: row.runId,
  createdAt: row.createdAt.getTime(),
  expiresAt: epochMsOrNull(row.expiresAt),
});

const shareUrlOf = (token: string) => `${settings().publicUrl}/share/runs/${token}`;

/** The answer of a create, the only one with the token: `{ ulid, token, url, createdAt, expiresAt }`. */
export const toCreatedShareLink = ({ link, token, url }: { link: ShareLinkRow; token: string; url: string }) => {
  const { ulid, createdAt, expiresAt } = toShareLink(link);
  return { ulid, token, url, createdAt, expiresAt };
};

const shareLinkEvent = (run: { id: string; name: string }, link: ShareLinkRow) => ({
  ...runEvent(run),
  metadata: { shareLinkUlid: link.id, expiresAt: epochMsOrNull(link.expiresAt) },
});

function expiryOf(input: CreateShareLinkInput, now: number): Date | null {
  if (input.expiresAt === undefined) return null;
  if (input.expiresAt <= now) throw fromValidationIssues([{ path: ['expiresAt'], message: 'must lie in the future' }]);
  if (input.expiresAt > now + SHARE_LINK_MAX_LIFETIME_MS) {
    throw fromValidationIssues([{ path: ['expiresAt'], message: 'must lie at most 366 days ahead' }]);
  }
  return new Date(input.expiresAt);
}

/**
 * POST /runs/{runUlid}/share-links (result execute permission): a new link and its token, which
 * only this answer carries. A run holds at most SHARE_LINKS_PER_RUN links, counted under its lock.
 */
export async function createShareLink(ctx: RequestContext, runUlid: string, input: CreateShareLinkInput, now = Date.now()) {
  const expiresAt = expiryOf(input, now);
  return inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute', { allowClosed: 'always', allowAborted: true });
    if ((await tx.shareLink.count({ where: { runId: run.id } })) >= SHARE_LINKS_PER_RUN) {
      throw validationFailed(`A run has at most ${SHARE_LINKS_PER_RUN} share links; revoke one first`, { limit: SHARE_LINKS_PER_RUN });
    }
    const { secret: token, hash } = newSecret();
    const link = await tx.shareLink.create({ data: { id: newId(), orgId: ctx.org.id, runId: run.id, tokenHash: hash, expiresAt } });
    await emitAudit(tx, ctx, { action: 'run.share_link_created', ...shareLinkEvent(run, link) });
    return { link, token, url: shareUrlOf(token) };
  });
}

/** The share links of a run the caller may read, oldest first (expired ones too, with their expiry). */
export async function findShareLinks(ctx: RequestContext, run: { id: string }) {
  authorize(ctx, 'project.read');
  return ctx.db.shareLink.findMany({ where: { runId: run.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** GET /runs/{runUlid}/share-links. */
export async function listShareLinks(ctx: RequestContext, runUlid: string) {
  const run = await findRun(ctx, runUlid);
  return { items: (await findShareLinks(ctx, run)).map(toShareLink) };
}

/** DELETE /runs/{runUlid}/share-links/{shareLinkUlid} (result execute permission): the link stops working at once. */
export async function revokeShareLink(ctx: RequestContext, runUlid: string, shareLinkUlid: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const run = await lockRun(tx, ctx, runUlid, 'result.execute', { allowClosed: 'always', allowAborted: true });
    const link = await tx.shareLink.findFirst({ where: { id: shareLinkUlid, runId: run.id } });
    if (!link) throw notFound('Share link');
    await tx.shareLink.delete({ where: { id: link.id } });
    // Carries the run: its live streams read again, and a public one of this link ends.
    await emitAudit(tx, ctx, { action: 'run.share_link_revoked', ...shareLinkEvent(run, link) });
  });
}

/** The one answer of every failed public read: unknown, revoked, expired, locked or gone alike. */
const shareLinkNotFound = () => notFound('Share link');

/** Counts one public request of `ip` against PUBLIC_SHARE_REQUESTS_PER_MINUTE: 429 beyond it. */
async function countPublicRequest(ip: string): Promise<void> {
  const state = await consumeAddressCall(ip, 'public_share', PUBLIC_SHARE_REQUESTS_PER_MINUTE);
  if (!state.allowed) throw budgetSpent(state, 'Too many requests to shared runs from this address');
}

/** Nobody: the reader of a shared run, a viewer of its organization without private-project limits. */
const PUBLIC_READER = { id: '', email: '', firstName: '', lastName: '', avatarKey: null, emailVerified: false };

/**
 * The link a token names while it works, and a read-only context in its organization; null for a
 * token that is unknown, revoked or expired, or whose organization is suspended or project locked.
 */
async function openSharedRun(token: string, now = Date.now()): Promise<{ ctx: RequestContext; runId: string } | null> {
  const link = await prisma().shareLink.findUnique({
    where: { tokenHash: sha256(token) },
    include: { org: true, run: { select: { project: { select: { lockedAt: true } } } } },
  });
  if (!link || (link.expiresAt && link.expiresAt.getTime() <= now)) return null;
  if (link.org.suspendedAt || link.run.project.lockedAt) return null;
  const ctx: RequestContext = {
    identity: { kind: 'session', user: PUBLIC_READER, sessionId: '' },
    org: organizationSnapshot(link.org),
    role: 'viewer',
    metered: false,
    db: tenantClient(link.orgId),
    hiddenProjectIds: [],
    locale: 'en',
  };
  return { ctx, runId: link.runId };
}

/** Any refusal of a read through a link (say the run deleted meanwhile) becomes the one 404. */
const asNotFound = (error: unknown): never => {
  throw error instanceof AppError ? shareLinkNotFound() : error;
};

/** GET /public/runs/{token}, and the share page: what a link shows of its run, and nothing else. */
export async function readSharedRun(token: string, ip: string): Promise<PublicRun> {
  await countPublicRequest(ip);
  const shared = await openSharedRun(token);
  if (!shared) throw shareLinkNotFound();
  const { ctx, runId } = shared;
  const run = await findRun(ctx, runId).catch(asNotFound);
  const cases = await findRunCases(ctx, run, {}, { select: { caseNumber: true, title: true, status: true, elapsedMs: true } });
  const { name, state, counts, passRate, configurations, environment, environmentName } = toRunResponse(run);
  return {
    name,
    state,
    counts,
    passRate,
    configurations: configurations.map(({ groupName, valueName }) => ({ groupName, valueName })),
    environmentName: environment?.name ?? environmentName,
    cases: cases.map((each) => ({
      displayId: caseDisplayId(run.project.code, each.caseNumber),
      title: each.title,
      status: each.status as PublicRun['cases'][number]['status'],
      elapsedMs: each.elapsedMs,
    })),
  };
}

/** A progress stream that ends at its first event after the link stopped working. */
function whileShared(
  token: string,
  stream: AsyncIterableIterator<ProgressEvent<RunProgress>> & { return(): Promise<IteratorResult<ProgressEvent<RunProgress>>> },
) {
  const iterator = {
    async next(): Promise<IteratorResult<ProgressEvent<RunProgress>>> {
      const result = await stream.next();
      if (result.done || (await openSharedRun(token))) return result;
      return stream.return();
    },
    return: () => stream.return(),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** GET /public/runs/{token}/events: the run's progress (contract §14) while the link works. */
export async function subscribeToSharedRun(token: string, ip: string) {
  await countPublicRequest(ip);
  const shared = await openSharedRun(token);
  if (!shared) throw shareLinkNotFound();
  const stream = await subscribeToRunProgress(shared.ctx, shared.runId).catch(asNotFound);
  return whileShared(token, stream);
}
