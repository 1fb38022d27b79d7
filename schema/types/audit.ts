import { auditActorOf, findOrganizationAuditEvents } from '../../src/foundation/audit/audit.service.ts';
import { findRunAuditEvents } from '../../src/runs/run-audit.service.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

const AuditActorKind = builder.enumType('AuditActorKind', { values: ['user', 'api_token', 'system'] as const });

type ActorShape = ReturnType<typeof auditActorOf>;

const AuditActor = builder.objectRef<ActorShape>('AuditActor').implement({
  description:
    'Who acted (the REST actor object): a user (email, displayName), an API token (name) or the system; null references once erased',
  fields: (t) => ({
    kind: t.field({ type: AuditActorKind, resolve: (actor) => actor.kind }),
    ulid: t.string({ nullable: true, resolve: (actor) => ('ulid' in actor ? actor.ulid : null) }),
    email: t.string({ nullable: true, resolve: (actor) => ('email' in actor ? actor.email : null) }),
    displayName: t.string({ nullable: true, resolve: (actor) => ('displayName' in actor ? actor.displayName : null) }),
    name: t.string({ nullable: true, resolve: (actor) => ('name' in actor ? actor.name : null) }),
  }),
});

builder.prismaObject('AuditEvent', {
  description: 'One audit event (AuditEventOut of the REST API)',
  fields: (t) => ({
    ulid: t.exposeString('id'),
    action: t.exposeString('action'),
    actor: t.field({ type: AuditActor, resolve: (event) => auditActorOf(event) }),
    entityType: t.exposeString('entityType'),
    entityUlid: t.exposeString('entityUlid'),
    entityLabel: t.exposeString('entityLabel'),
    runUlid: t.exposeString('runId', { nullable: true, description: 'Null for events of no run, and once the run was deleted' }),
    metadata: t.expose('metadata', { type: 'JSON' }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
  }),
});

builder.prismaObjectFields('Organization', (t) => ({
  auditEvents: t.prismaConnection(
    {
      type: 'AuditEvent',
      cursor: 'id',
      description: "The organization's audit log, newest first (owner and admin)",
      authScopes: { member: true },
      resolve: (query, _org, _args, context) => findOrganizationAuditEvents(requestOf(context), query),
    },
    {},
    {},
  ),
}));

builder.prismaObjectFields('TestRun', (t) => ({
  auditEvents: t.prismaConnection(
    {
      type: 'AuditEvent',
      cursor: 'id',
      description: "The run's audit log, newest first (anyone who can read the run)",
      authScopes: { member: true },
      resolve: (query, run, _args, context) => findRunAuditEvents(requestOf(context), run, query),
    },
    {},
    {},
  ),
}));
