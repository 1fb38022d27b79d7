import {
  createDefectBodySchema,
  defectLinkPathSchema,
  defectListQuerySchema,
  defectPageSchema,
  defectPathSchema,
  defectSchema,
  linkedResultListQuerySchema,
  linkedResultPageSchema,
  linkedResultSchema,
  linkResultBodySchema,
  updateDefectBodySchema,
} from '../../src/defects/defects.schemas.ts';
import {
  createDefect,
  deleteDefect,
  linkResult,
  listDefects,
  listLinkedResults,
  presentDefect,
  presentDefects,
  resolveDefect,
  unlinkResult,
  updateDefect,
} from '../../src/defects/defects.service.ts';
import { projectPathSchema } from '../../src/projects/projects.schemas.ts';
import { defineRoute, Reply } from '../route.ts';

const common = { tag: 'Defects', auth: 'org' as const, errors: [403, 404] };

export const defectRoutes = [
  defineRoute({
    ...common,
    method: 'get',
    path: '/projects/{projectId}/defects',
    operationId: 'listDefects',
    summary: 'Defects of a project, newest first',
    params: projectPathSchema,
    query: defectListQuerySchema,
    success: { status: 200, description: 'A page of defects', schema: defectPageSchema },
    handle: async ({ ctx, params, query }) => {
      const page = await listDefects(ctx, params.projectId, query);
      return { ...page, items: await presentDefects(ctx, page.items) };
    },
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/projects/{projectId}/defects',
    operationId: 'createDefect',
    summary: 'Report a defect, optionally linked to result attempts',
    params: projectPathSchema,
    body: createDefectBodySchema,
    success: { status: 201, description: 'The defect', schema: defectSchema },
    handle: async ({ ctx, params, body }) => presentDefect(ctx, await createDefect(ctx, params.projectId, body)),
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/defects/{defectUlid}',
    operationId: 'getDefect',
    summary: 'One defect',
    params: defectPathSchema,
    success: { status: 200, description: 'The defect', schema: defectSchema },
    handle: async ({ ctx, params }) => presentDefect(ctx, await resolveDefect(ctx, params.defectUlid)),
  }),
  defineRoute({
    ...common,
    method: 'patch',
    path: '/defects/{defectUlid}',
    operationId: 'updateDefect',
    summary: 'Edit, reassign or move a defect to any status (a viewer gets 403 before any write)',
    params: defectPathSchema,
    body: updateDefectBodySchema,
    success: { status: 200, description: 'The defect', schema: defectSchema },
    handle: async ({ ctx, params, body }) => presentDefect(ctx, await updateDefect(ctx, params.defectUlid, body)),
  }),
  defineRoute({
    ...common,
    method: 'delete',
    path: '/defects/{defectUlid}',
    operationId: 'deleteDefect',
    summary: 'Delete a defect with its links, custom field values and comments',
    params: defectPathSchema,
    success: { status: 204, description: 'Deleted' },
    handle: async ({ ctx, params }) => {
      await deleteDefect(ctx, params.defectUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    ...common,
    method: 'get',
    path: '/defects/{defectUlid}/links',
    operationId: 'listDefectLinks',
    summary: 'The result attempts a defect is linked to, most recently executed first',
    params: defectPathSchema,
    query: linkedResultListQuerySchema,
    success: { status: 200, description: 'A page of linked results', schema: linkedResultPageSchema },
    handle: ({ ctx, params, query }) => listLinkedResults(ctx, params.defectUlid, query),
  }),
  defineRoute({
    ...common,
    method: 'post',
    path: '/defects/{defectUlid}/links',
    operationId: 'linkDefectResult',
    summary: 'Link a result attempt of the same project (201; already linked: 200, no event)',
    params: defectPathSchema,
    body: linkResultBodySchema,
    success: { status: 201, description: 'The linked result', schema: linkedResultSchema },
    handle: async ({ ctx, params, body }) => {
      const { created, link } = await linkResult(ctx, params.defectUlid, body.resultUlid);
      return new Reply(created ? 201 : 200, link);
    },
  }),
  defineRoute({
    ...common,
    method: 'delete',
    path: '/defects/{defectUlid}/links/{resultUlid}',
    operationId: 'unlinkDefectResult',
    summary: 'Unlink a result attempt (not linked: 404)',
    params: defectLinkPathSchema,
    success: { status: 204, description: 'Unlinked' },
    handle: async ({ ctx, params }) => {
      await unlinkResult(ctx, params.defectUlid, params.resultUlid);
      return new Reply(204, undefined);
    },
  }),
];
