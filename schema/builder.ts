import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../prisma/generated/pothos-types.ts';
import { getDatamodel } from '../prisma/generated/pothos-types.ts';
import { type PrismaClient, prisma } from '../src/kernel/database/client.ts';
import type { GraphQLContext } from './context.ts';

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: GraphQLContext;
  AuthScopes: { member: boolean; organizationReader: boolean };
  Scalars: { Timestamp: { Input: number; Output: Date }; JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  defaultFieldNullability: false,
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, DataloaderPlugin],
  scopeAuth: {
    authScopes: (context) => ({
      member: context.caller !== null,
      // Reading the organization and its subscription stays open while staff suspend it (§18).
      organizationReader: context.caller !== null || context.suspendedCaller !== undefined,
    }),
    // The reason authentication failed (401, 404 organization, 429…) is the error of every field.
    unauthorizedError: (_parent, context) => context.authError ?? 'Not authorized',
  },
  prisma: {
    // Relations that Pothos loads by itself stay inside the caller's organization. GraphQL never
    // runs inside a request transaction, so the context's client is a whole (tenant) client.
    client: (context) => (context.caller?.db ?? prisma()) as PrismaClient,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    // The contract's page bounds: 50 by default, at most 200 (larger `first`/`last` are capped).
    defaultConnectionSize: 50,
    maxConnectionSize: 200,
  },
  relay: { clientMutationId: 'omit', cursorType: 'String' },
});

builder.scalarType('Timestamp', {
  description: 'Unix epoch milliseconds',
  serialize: (date) => date.getTime(),
  parseValue: (value) => Number(value),
});

builder.queryType({});
builder.mutationType({});
