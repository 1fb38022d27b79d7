import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { validate } from '../../src/kernel/validation.ts';
import { createProjectBodySchema, projectConnectionFilterSchema, updateProjectBodySchema } from '../../src/projects/projects.schemas.ts';
import {
  countProjects,
  createProject,
  deleteProject,
  findProjects,
  type ProjectStats,
  type ProjectTeam,
  projectStats,
  projectTeams,
  resolveProject,
  updateProject,
} from '../../src/projects/projects.service.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { type GraphQLContext, requestOf } from '../context.ts';

const TeamMember = builder.objectRef<ProjectTeam['team'][number]>('TeamMember').implement({
  fields: (t) => ({
    userUlid: t.exposeString('userUlid'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    avatarKey: t.exposeString('avatarKey', { nullable: true }),
    avatarVersion: t.exposeInt('avatarVersion'),
  }),
});

/** One batch per request for `team` and `teamCount` of every project of the response. */
const teamLoader = createContextCache(
  (context: GraphQLContext) =>
    new DataLoader<string, ProjectTeam>(async (projectIds) => {
      const teams = await projectTeams(requestOf(context), [...projectIds]);
      return projectIds.map((id) => teams.get(id)!);
    }),
);

const ProjectStatsRef = builder.objectRef<ProjectStats>('ProjectStats').implement({
  description: 'The counts of the REST list with include=stats',
  fields: (t) => ({
    cases: t.exposeInt('cases', { description: 'Test cases not archived' }),
    runs: t.exposeInt('runs'),
    runsInProgress: t.exposeInt('runsInProgress', { description: 'Open runs' }),
    defectsUnresolved: t.exposeInt('defectsUnresolved', { description: 'Defects open or in progress' }),
    milestones: t.exposeInt('milestones'),
  }),
});

/** One batch per request for `stats` of every project of the response. */
const statsLoader = createContextCache(
  (context: GraphQLContext) =>
    new DataLoader<string, ProjectStats>(async (projectIds) => {
      const stats = await projectStats(requestOf(context), [...projectIds]);
      return projectIds.map((id) => stats.get(id)!);
    }),
);

builder.prismaObject('Project', {
  fields: (t) => ({
    ulid: t.exposeString('id'),
    code: t.exposeString('code', { description: 'The project code (`id` in REST), e.g. WEB' }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    avatarKey: t.exposeString('avatarKey', { nullable: true }),
    avatarVersion: t.exposeInt('avatarVersion'),
    lockedAt: t.expose('lockedAt', { type: 'Timestamp', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'Timestamp' }),
    updatedAt: t.expose('updatedAt', { type: 'Timestamp' }),
    team: t.field({
      type: [TeamMember],
      description: 'At most 4 team members by join time (team semantics of the REST list with include=stats)',
      resolve: async (project, _args, context) => (await teamLoader(context).load(project.id)).team,
    }),
    teamCount: t.int({
      description: 'The full team size',
      resolve: async (project, _args, context) => (await teamLoader(context).load(project.id)).teamCount,
    }),
    stats: t.field({
      type: ProjectStatsRef,
      resolve: (project, _args, context) => statsLoader(context).load(project.id),
    }),
  }),
});

const connectionFilterOf = (args: { q?: string | null; memberUlids?: string[] | null }) =>
  validate(projectConnectionFilterSchema, { q: orUndefined(args.q), memberUlid: orUndefined(args.memberUlids) });

builder.queryFields((t) => ({
  projects: t.prismaConnection(
    {
      type: 'Project',
      cursor: 'id',
      authScopes: { member: true },
      args: {
        q: t.arg.string({ description: 'Case-insensitive substring of name or code' }),
        memberUlids: t.arg.stringList({ description: 'Projects whose team includes any of these users (unknown ULIDs dropped)' }),
      },
      resolve: (query, _root, args, context) => findProjects(requestOf(context), connectionFilterOf(args), query),
      totalCount: (_root, args, context) => countProjects(requestOf(context), connectionFilterOf(args)),
    },
    {},
    {},
  ),
  project: t.prismaField({
    type: 'Project',
    nullable: true,
    description: 'A project by code; an unknown code is a not_found error',
    authScopes: { member: true },
    args: { code: t.arg.string({ required: true }) },
    resolve: (_query, _root, args, context) => resolveProject(requestOf(context), args.code),
  }),
}));

const CreateProjectInput = builder.inputType('CreateProjectInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    code: t.string({ required: true }),
    description: t.string(),
  }),
});

const UpdateProjectInput = builder.inputType('UpdateProjectInput', {
  fields: (t) => ({ name: t.string(), description: t.string() }),
});

builder.mutationFields((t) => ({
  createProject: t.prismaField({
    type: 'Project',
    authScopes: { member: true },
    args: { input: t.arg({ type: CreateProjectInput, required: true }) },
    resolve: (_query, _root, { input }, context) =>
      createProject(
        requestOf(context),
        validate(createProjectBodySchema, { name: input.name, id: input.code, description: input.description ?? undefined }),
      ),
  }),
  updateProject: t.prismaField({
    type: 'Project',
    authScopes: { member: true },
    args: { code: t.arg.string({ required: true }), input: t.arg({ type: UpdateProjectInput, required: true }) },
    resolve: (_query, _root, { code, input }, context) =>
      updateProject(
        requestOf(context),
        code,
        validate(updateProjectBodySchema, { name: input.name ?? undefined, description: input.description }),
      ),
  }),
  deleteProject: t.boolean({
    authScopes: { member: true },
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, { code }, context) => {
      await deleteProject(requestOf(context), code);
      return true;
    },
  }),
}));
