import { validate } from '../../src/kernel/validation.ts';
import { createShareLinkBodySchema } from '../../src/share-links/share-links.schemas.ts';
import { createShareLink, findShareLinks, revokeShareLink, type ShareLinkRow } from '../../src/share-links/share-links.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

const ShareLink = builder.prismaObject('ShareLink', {
  description: 'A public link to a run (contract §15); its token is shown only by createShareLink',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    runUlid: t.exposeString('runId'),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    expiresAt: t.expose('expiresAt', { type: 'Timestamp', nullable: true, description: 'Null: never expires' }),
  }),
});

const CreatedShareLink = builder.objectRef<{ link: ShareLinkRow; token: string; url: string }>('CreatedShareLink').implement({
  description: 'A new share link with its token and page address, shown only here',
  fields: (t) => ({
    shareLink: t.field({ type: ShareLink, resolve: (created) => created.link }),
    token: t.exposeString('token'),
    url: t.exposeString('url', { description: '<TCMS_PUBLIC_URL>/share/runs/<token>' }),
  }),
});

builder.prismaObjectFields('TestRun', (t) => ({
  shareLinks: t.field({
    type: [ShareLink],
    description: "The run's share links, oldest first",
    authScopes: { member: true },
    resolve: (run, _args, context) => findShareLinks(requestOf(context), run),
  }),
}));

builder.mutationFields((t) => ({
  createShareLink: t.field({
    type: CreatedShareLink,
    description: 'Share a run by a public link (result execute permission)',
    authScopes: { member: true },
    args: {
      runUlid: t.arg.string({ required: true }),
      expiresAt: t.arg({ type: 'Timestamp', description: 'In the future, at most 366 days ahead; omitted: never expires' }),
    },
    resolve: (_root, { runUlid, expiresAt }, context) =>
      createShareLink(requestOf(context), runUlid, validate(createShareLinkBodySchema, { expiresAt: orUndefined(expiresAt) })),
  }),
  revokeShareLink: t.boolean({
    description: 'Revoke a share link: it stops working at once (result execute permission)',
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }), ulid: t.arg.string({ required: true }) },
    resolve: async (_root, { runUlid, ulid }, context) => {
      await revokeShareLink(requestOf(context), runUlid, ulid);
      return true;
    },
  }),
}));
