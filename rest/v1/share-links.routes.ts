import { z } from 'zod';
import { runPathSchema } from '../../src/runs/runs.schemas.ts';
import {
  createdShareLinkSchema,
  createShareLinkBodySchema,
  PUBLIC_SHARE_REQUESTS_PER_MINUTE,
  publicRunPathSchema,
  publicRunSchema,
  shareLinkListSchema,
  shareLinkPathSchema,
} from '../../src/share-links/share-links.schemas.ts';
import {
  createShareLink,
  listShareLinks,
  readSharedRun,
  revokeShareLink,
  subscribeToSharedRun,
  toCreatedShareLink,
} from '../../src/share-links/share-links.service.ts';
import { EVENTS_DESCRIPTION, eventStreamReply } from '../event-stream.ts';
import { defineRoute, Reply } from '../route.ts';

const tag = 'Share links';
const PUBLIC =
  'No credentials. An unknown, revoked or expired token, and any token of a locked project, answer the same 404; ' +
  `at most ${PUBLIC_SHARE_REQUESTS_PER_MINUTE} requests per minute per client address to the public share routes (429 with Retry-After).`;

export const shareLinkRoutes = [
  defineRoute({
    method: 'post',
    path: '/runs/{runUlid}/share-links',
    operationId: 'createShareLink',
    summary: 'Share a run by a public link; the answer is the only one that shows its token (result execute permission)',
    tag,
    auth: 'org',
    params: runPathSchema,
    body: createShareLinkBodySchema,
    success: { status: 201, description: 'The link with its token and page address', schema: createdShareLinkSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => new Reply(201, toCreatedShareLink(await createShareLink(ctx, params.runUlid, body))),
  }),
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/share-links',
    operationId: 'listShareLinks',
    summary: "The run's share links, oldest first, without their tokens",
    tag,
    auth: 'org',
    params: runPathSchema,
    success: { status: 200, description: 'The links', schema: shareLinkListSchema },
    errors: [403, 404],
    handle: ({ ctx, params }) => listShareLinks(ctx, params.runUlid),
  }),
  defineRoute({
    method: 'delete',
    path: '/runs/{runUlid}/share-links/{shareLinkUlid}',
    operationId: 'revokeShareLink',
    summary: 'Revoke a share link: it stops working at once (result execute permission)',
    tag,
    auth: 'org',
    params: shareLinkPathSchema,
    success: { status: 204, description: 'Revoked' },
    errors: [403, 404],
    handle: async ({ ctx, params }) => {
      await revokeShareLink(ctx, params.runUlid, params.shareLinkUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/public/runs/{token}',
    operationId: 'getSharedRun',
    summary: 'A shared run: its name, state, counts, pass rate, configurations, environment and cases',
    tag,
    auth: 'none',
    params: publicRunPathSchema,
    success: { status: 200, description: PUBLIC, schema: publicRunSchema },
    errors: [404, 429],
    handle: ({ params, ip }) => readSharedRun(params.token, ip),
  }),
  defineRoute({
    method: 'get',
    path: '/public/runs/{token}/events',
    operationId: 'streamSharedRunProgress',
    summary: "A shared run's progress as it changes (Server-Sent Events)",
    tag,
    auth: 'none',
    params: publicRunPathSchema,
    success: {
      status: 200,
      description: `${EVENTS_DESCRIPTION('run', '`{ runUlid, state, counts, total, passRate, lastResultAt }`')} The stream ends once the link stops working. ${PUBLIC}`,
      media: { 'text/event-stream': z.string() },
    },
    errors: [404, 429],
    handle: ({ params, ip }) => eventStreamReply({ identity: undefined, address: ip }, () => subscribeToSharedRun(params.token, ip)),
  }),
];
