import {
  caseValuePathSchema,
  caseValuesPathSchema,
  caseValuesResponseSchema,
  createCustomFieldBodySchema,
  customFieldEnvelopeSchema,
  customFieldListQuerySchema,
  customFieldPageSchema,
  customFieldPathSchema,
  type LocalesQuery,
  localesQuerySchema,
  patchCaseValueBodySchema,
  putCaseValuesBodySchema,
  resetCustomFieldBodySchema,
  updateCustomFieldBodySchema,
} from '../../src/custom-fields/custom-fields.schemas.ts';
import {
  type CustomFieldRow,
  createCustomField,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  resetCustomField,
  toCustomField,
  updateCustomField,
} from '../../src/custom-fields/custom-fields.service.ts';
import type { RequestContext } from '../../src/foundation/context.ts';
import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { replaceCaseValues, setCaseValue } from '../../src/test-cases/case-field-values.service.ts';
import { defineRoute, Reply } from '../route.ts';

const fieldOut = (ctx: RequestContext, query: LocalesQuery, row: CustomFieldRow) => toCustomField(row, ctx.locale, query.locales === 'all');

const envelope = (ctx: RequestContext, query: LocalesQuery, row: CustomFieldRow) => ({ field: fieldOut(ctx, query, row) });

const TAG = 'Custom fields';

export const customFieldRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/custom-fields',
    operationId: 'listCustomFields',
    summary: 'Custom field definitions of the organization (any member)',
    tag: TAG,
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    query: customFieldListQuerySchema,
    success: { status: 200, description: 'A page of definitions, in position order', schema: customFieldPageSchema },
    errors: [403, 404],
    handle: async ({ ctx, query }) => {
      const page = await listCustomFields(ctx, query);
      return { ...page, items: page.items.map((row) => fieldOut(ctx, query, row)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{orgUlid}/custom-fields',
    operationId: 'createCustomField',
    summary: 'Create a custom field (owner/admin)',
    tag: TAG,
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    query: localesQuerySchema,
    body: createCustomFieldBodySchema,
    success: { status: 201, description: 'The new definition', schema: customFieldEnvelopeSchema },
    errors: [403, 404],
    handle: async ({ ctx, query, body }) => new Reply(201, envelope(ctx, query, await createCustomField(ctx, body))),
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/custom-fields/{fieldUlid}',
    operationId: 'getCustomField',
    summary: 'One custom field definition (any member)',
    tag: TAG,
    auth: 'org',
    orgParam: 'orgUlid',
    params: customFieldPathSchema,
    query: localesQuerySchema,
    success: { status: 200, description: 'The definition', schema: customFieldEnvelopeSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query }) => envelope(ctx, query, await getCustomField(ctx, params.fieldUlid)),
  }),
  defineRoute({
    method: 'patch',
    path: '/orgs/{orgUlid}/custom-fields/{fieldUlid}',
    operationId: 'updateCustomField',
    summary: 'Update a custom field and its options (owner/admin)',
    tag: TAG,
    auth: 'org',
    orgParam: 'orgUlid',
    params: customFieldPathSchema,
    query: localesQuerySchema,
    body: updateCustomFieldBodySchema,
    success: { status: 200, description: 'The definition', schema: customFieldEnvelopeSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, query, body }) => envelope(ctx, query, await updateCustomField(ctx, params.fieldUlid, body)),
  }),
  defineRoute({
    method: 'delete',
    path: '/orgs/{orgUlid}/custom-fields/{fieldUlid}',
    operationId: 'deleteCustomField',
    summary: 'Delete a custom field without values (owner/admin); system fields cannot be deleted',
    tag: TAG,
    auth: 'org',
    orgParam: 'orgUlid',
    params: customFieldPathSchema,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404, 409],
    handle: async ({ ctx, params }) => {
      await deleteCustomField(ctx, params.fieldUlid);
      return new Reply(204, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/orgs/{orgUlid}/custom-fields/{fieldUlid}/reset',
    operationId: 'resetCustomField',
    summary: 'Restore a system field to its seed state (owner/admin)',
    tag: TAG,
    auth: 'org',
    orgParam: 'orgUlid',
    params: customFieldPathSchema,
    query: localesQuerySchema,
    body: resetCustomFieldBodySchema,
    success: { status: 200, description: 'The restored definition', schema: customFieldEnvelopeSchema },
    errors: [400, 403, 404],
    handle: async ({ ctx, params, query }) => envelope(ctx, query, await resetCustomField(ctx, params.fieldUlid)),
  }),
  defineRoute({
    method: 'put',
    path: '/test-cases/{caseUlid}/custom-field-values',
    operationId: 'replaceTestCaseCustomFieldValues',
    summary: 'Replace the custom field values of a test case (no audit event of its own)',
    tag: TAG,
    auth: 'org',
    params: caseValuesPathSchema,
    body: putCaseValuesBodySchema,
    success: { status: 200, description: "The case's full customFieldValues", schema: caseValuesResponseSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => ({
      customFieldValues: await replaceCaseValues(ctx, params.caseUlid, body.values),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/test-cases/{caseUlid}/custom-field-values/{fieldUlid}',
    operationId: 'setTestCaseCustomFieldValue',
    summary: 'Set one custom field value of a test case',
    tag: TAG,
    auth: 'org',
    params: caseValuePathSchema,
    body: patchCaseValueBodySchema,
    success: { status: 200, description: "The case's full customFieldValues", schema: caseValuesResponseSchema },
    errors: [403, 404],
    handle: async ({ ctx, params, body }) => ({
      customFieldValues: await setCaseValue(ctx, params.caseUlid, params.fieldUlid, body.value),
    }),
  }),
];
