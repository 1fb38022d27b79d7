/**
 * The raw-SQL floor of the test-design measures (bench/test-design.ts): for each request, the
 * statements the service sends for it, in the same order and transaction boundaries, straight to
 * the database (a pg Pool or PGlite, no HTTP, no Prisma, no GraphQL). Every operation starts with
 * the token lookup and the per-minute counter bump of bench/raw.ts, as every token request does.
 * The endpoint SQL below is Prisma's, copied from the PostgreSQL statement log
 * (log_statement = 'all') of one request of each kind; only line breaks were added. Statements
 * that match nothing (the `1=0` attachment look-ups Prisma sends for steps without attachments)
 * are sent too, because the service pays for their round trips.
 *
 * - createCase (POST …/test-cases): BEGIN; the project by code; caseNumber = the project's
 *   counter + 1 (this UPDATE holds the project row until COMMIT, which queues concurrent creates);
 *   INSERT the case; read its (no) steps; INSERT three steps; three attachment look-ups; the
 *   value write (case row lock, field FOR SHARE, the org's test-case field definitions, the
 *   current value, DELETE, INSERT); read the full case; INSERT the test_case.created event;
 *   COMMIT. Then the response's custom field values: definitions, then the case's values.
 * - readTree (POST /graphql, the suite tree): the project by code; the suite ids depth-first
 *   (recursive CTE); the suites with their active cases, each case with its project code and
 *   steps, in one statement; the field definitions; the values of every case of the tree in one
 *   statement (the case ids come from the previous answer, as in the service's loader).
 * - readCasePage (GET /api/v1/projects/{code}/test-cases?limit=50, first page or after a
 *   cursor): the project by code; the page (limit + 1 cases by ULID, each with its project and
 *   its steps with their attachments, in one statement); the field definitions and the page's
 *   values, as readTree ends. No transaction, as in the service. (Its SQL was taken later than the
 *   other floors', so the project columns are today's.)
 * - patchCase (PATCH /api/v1/test-cases/{ulid}): BEGIN; lock the case; read it with its project;
 *   read its steps; UPDATE the changed step (unnest); three attachment look-ups; the value write
 *   as above; UPDATE the title; read the full case; INSERT the test_case.updated event with its
 *   three change buckets; COMMIT. Then the response's custom field values.
 *
 * What the floor leaves out is the service's own work: HTTP, routing, validation, authorization
 * and diffing in JavaScript, Prisma's query building and result mapping, GraphQL execution and
 * the JSON responses.
 */
import { newId } from '../src/kernel/ids.ts';
import { type Actor, authenticate, INSERT_AUDIT, measureOps, runOps, type Sql } from './raw.ts';
import type { SelectField } from './setup.ts';
import type { Measurement } from './stats.ts';
import {
  assertGapless,
  CASE_PAGE,
  CHANGED_STEP,
  type Counts,
  caseTitle,
  type Drive,
  type PoolCase,
  patchSequence,
  STEPS,
  TREE_CASES,
  versionOf,
} from './test-design.ts';

/** A token's organization, the project it works in and the priority field it writes. */
export type CaseActor = Actor & { projectId: string; projectCode: string; priority: SelectField };

/** `$from, $from+1, …` for `count` parameters. */
const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, index) => `$${from + index}`).join(',');
/** `($1,…,$n), ($n+1,…)`: `rows` rows of `columns` parameters, as Prisma writes a createMany. */
const valueRows = (rows: number, columns: number) =>
  Array.from({ length: rows }, (_, row) => `(${placeholders(row * columns + 1, columns)})`).join(', ');

type Rows<T = Record<string, unknown>> = { rows: T[] };
type Query = (text: string, params: unknown[]) => Promise<unknown>;

// ---- the statements ----------------------------------------------------------------------------

// Creating a case (PROJECT_BY_CODE also starts the tree read).
const PROJECT_BY_CODE = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."code", "t0"."name", "t0"."description", "t0"."avatar_key" AS "avatarKey",
  "t0"."avatar_version" AS "avatarVersion", "t0"."locked_at" AS "lockedAt", "t0"."last_suite_number" AS "lastSuiteNumber",
  "t0"."last_case_number" AS "lastCaseNumber", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt"
  FROM "public"."projects" AS "t0" WHERE ("t0"."code" = $1 AND "t0"."org_id" = $2) LIMIT $3`;

const NEXT_CASE_NUMBER = `UPDATE "public"."projects" SET "last_case_number" = ("public"."projects"."last_case_number" + $1)
  WHERE ("public"."projects"."id" = $2 AND "public"."projects"."org_id" = $3)
  RETURNING "public"."projects"."id", "public"."projects"."last_suite_number", "public"."projects"."last_case_number"`;

const INSERT_CASE = `INSERT INTO "public"."test_cases" ("id","org_id","project_id","case_number","title","description","suite_id","milestone_id","tags","created_at","updated_at")
  VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) RETURNING "public"."test_cases"."id", "public"."test_cases"."org_id",
  "public"."test_cases"."project_id", "public"."test_cases"."case_number", "public"."test_cases"."title", "public"."test_cases"."description",
  "public"."test_cases"."suite_id", "public"."test_cases"."milestone_id", "public"."test_cases"."tags", "public"."test_cases"."archived_at",
  "public"."test_cases"."created_at", "public"."test_cases"."updated_at"`;

const STEPS_OF_CASE = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."case_id" AS "caseId", "t0"."position", "t0"."action", "t0"."expected_result" AS "expectedResult",
  "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt", "TestCaseStep_attachments"."__prisma_data__" AS "attachments"
  FROM "public"."test_case_steps" AS "t0" LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t3"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t2"."id") AS "__prisma_data__", "t2"."position"
  FROM (SELECT "t1".* FROM "public"."step_attachments" AS "t1" WHERE "t0"."id" = "t1"."step_id" /* root select */) AS "t2" /* inner select */) AS "t3"
  ORDER BY "t3"."position" ASC /* middle select */) AS "t4" /* outer select */) AS "TestCaseStep_attachments"
  ON true WHERE ("t0"."case_id" = $1 AND "t0"."org_id" = $2) ORDER BY "t0"."position" ASC, "t0"."id" ASC`;

const INSERT_STEPS = `INSERT INTO "public"."test_case_steps" ("id","org_id","case_id","position","action","expected_result","created_at","updated_at")
  VALUES ${valueRows(STEPS.length, 8)}`;

// The step-attachment look-ups (create and PATCH).
const ATTACHMENTS_OF_CASE = `SELECT "t0"."id" FROM "public"."step_attachments" AS "t0" WHERE (1=0 AND "t0"."case_id" = $1 AND "t0"."org_id" = $2)`;

const STAGED_ATTACHMENT = `SELECT "t0"."id", "t0"."staged_key" AS "stagedKey" FROM "public"."step_attachments" AS "t0"
  WHERE (1=0 AND "t0"."org_id" = $1) LIMIT $2`;

const STORED_ATTACHMENTS = `SELECT "t0"."id", "t0"."storage_key" AS "storageKey" FROM "public"."step_attachments" AS "t0"
  WHERE (1=0 AND 1=1 AND "t0"."org_id" = $1)`;

// Writing the priority value (create and PATCH); LOCK_CASE also starts the PATCH.
const LOCK_CASE = `SELECT 1 FROM test_cases WHERE id = $1 AND org_id = $2 FOR UPDATE`;

const SHARE_FIELD = `SELECT 1 FROM custom_fields WHERE org_id = $1 AND id IN ($2) FOR SHARE`;

const CASE_FIELD_DEFINITIONS = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."entity", "t0"."field_group" AS "group", "t0"."system_key" AS "systemKey",
  "t0"."value_type" AS "valueType", "t0"."title_en" AS "titleEn", "t0"."title_es" AS "titleEs", "t0"."placeholder_en" AS "placeholderEn",
  "t0"."placeholder_es" AS "placeholderEs", "t0"."is_required" AS "isRequired", "t0"."default_value" AS "defaultValue",
  "t0"."all_projects" AS "allProjects", "t0"."position", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt",
  "CustomField_options"."__prisma_data__" AS "options", "CustomField_projects"."__prisma_data__" AS "projects"
  FROM "public"."custom_fields" AS "t0" LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t3"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t2"."id", 'orgId', "t2"."org_id", 'fieldId',
  "t2"."field_id", 'seedKey', "t2"."seed_key", 'nameEn', "t2"."name_en", 'nameEs', "t2"."name_es", 'icon', "t2"."icon",
  'color', "t2"."color", 'position', "t2"."position", 'createdAt', "t2"."created_at") AS "__prisma_data__", "t2"."position",
  "t2"."id" FROM (SELECT "t1".* FROM "public"."custom_field_options" AS "t1" WHERE "t0"."id" = "t1"."field_id" /* root select */) AS "t2" /* inner select */) AS "t3"
  ORDER BY "t3"."position" ASC, "t3"."id" ASC /* middle select */) AS "t4" /* outer select */) AS "CustomField_options"
  ON true LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t7"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('projectId', "t6"."project_id") AS "__prisma_data__"
  FROM (SELECT "t5".* FROM "public"."custom_field_projects" AS "t5" WHERE "t0"."id" = "t5"."field_id" /* root select */) AS "t6" /* inner select */) AS "t7" /* middle select */) AS "t8" /* outer select */) AS "CustomField_projects"
  ON true WHERE ("t0"."entity" = $1 AND "t0"."org_id" = $2) ORDER BY "t0"."position" ASC, "t0"."id" ASC`;

const CURRENT_VALUES = `SELECT "t0"."case_id" AS "caseId", "t0"."field_id" AS "fieldId", "t0"."value"
  FROM "public"."test_case_field_values" AS "t0" WHERE ("t0"."case_id" = $1 AND "t0"."field_id" IN ($2) AND "t0"."org_id" = $3)`;

const DELETE_VALUES = `DELETE FROM "public"."test_case_field_values"
  WHERE ("public"."test_case_field_values"."case_id" = $1 AND "public"."test_case_field_values"."field_id" IN ($2)
  AND "public"."test_case_field_values"."org_id" = $3)`;

const INSERT_VALUE = `INSERT INTO "public"."test_case_field_values" ("case_id","field_id","org_id","value","updated_at")
  VALUES ($1,$2,$3,$4,$5)`;

// The case read back for the response and the audit label (create and PATCH); the response's values.
const CASE_RECORD = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."case_number" AS "caseNumber",
  "t0"."title", "t0"."description", "t0"."suite_id" AS "suiteId", "t0"."milestone_id" AS "milestoneId", "t0"."tags",
  "t0"."archived_at" AS "archivedAt", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt", "TestCase_project"."__prisma_data__" AS "project",
  "TestCase_steps"."__prisma_data__" AS "steps" FROM "public"."test_cases" AS "t0"
  LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t1"."id", 'orgId', "t1"."org_id", 'code', "t1"."code", 'name',
  "t1"."name", 'description', "t1"."description", 'avatarKey', "t1"."avatar_key", 'avatarVersion', "t1"."avatar_version",
  'lockedAt', "t1"."locked_at", 'lastSuiteNumber', "t1"."last_suite_number", 'lastCaseNumber', "t1"."last_case_number",
  'createdAt', "t1"."created_at", 'updatedAt', "t1"."updated_at") AS "__prisma_data__"
  FROM "public"."projects" AS "t1" WHERE "t0"."project_id" = "t1"."id" LIMIT $1) AS "TestCase_project"
  ON true LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t4"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t3"."id", 'orgId', "t3"."org_id", 'caseId',
  "t3"."case_id", 'position', "t3"."position", 'action', "t3"."action", 'expectedResult', "t3"."expected_result",
  'createdAt', "t3"."created_at", 'updatedAt', "t3"."updated_at", 'attachments', "TestCaseStep_attachments"."__prisma_data__") AS "__prisma_data__",
  "t3"."position", "t3"."id" FROM (SELECT "t2".* FROM "public"."test_case_steps" AS "t2" WHERE "t0"."id" = "t2"."case_id" /* root select */) AS "t3"
  LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t8"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t7"."id", 'orgId', "t7"."org_id", 'caseId',
  "t7"."case_id", 'stepId', "t7"."step_id", 'stagedKey', "t7"."staged_key", 'storageKey', "t7"."storage_key", 'fileName',
  "t7"."file_name", 'contentType', "t7"."content_type", 'sizeBytes', "t7"."size_bytes", 'position', "t7"."position",
  'createdAt', "t7"."created_at") AS "__prisma_data__", "t7"."position", "t7"."id"
  FROM (SELECT "t6".* FROM "public"."step_attachments" AS "t6" WHERE "t3"."id" = "t6"."step_id" /* root select */) AS "t7" /* inner select */) AS "t8"
  ORDER BY "t8"."position" ASC, "t8"."id" ASC /* middle select */) AS "t9" /* outer select */) AS "TestCaseStep_attachments"
  ON true /* inner select */) AS "t4" ORDER BY "t4"."position" ASC, "t4"."id" ASC /* middle select */) AS "t5" /* outer select */) AS "TestCase_steps"
  ON true WHERE ("t0"."id" = $2 AND "t0"."org_id" = $3) LIMIT $4`;

const VALUES_OF_CASES = (cases: number) => `SELECT "t0"."case_id" AS "caseId", "t0"."field_id" AS "fieldId", "t0"."value"
  FROM "public"."test_case_field_values" AS "t0" WHERE ("t0"."case_id" IN (${placeholders(1, cases)}) AND "t0"."org_id" = $${cases + 1})`;

// The suite tree.
const TREE_ORDER = `WITH RECURSIVE tree(id, sort_key) AS (
  SELECT id, lpad(position::text, 10, '0') || id::text
  FROM suites WHERE org_id = $1 AND project_id = $2 AND parent_id IS NULL
  UNION ALL
  SELECT s.id, tree.sort_key || lpad(s.position::text, 10, '0') || s.id::text
  FROM suites s JOIN tree ON s.parent_id = tree.id
  WHERE s.org_id = $3
)
SELECT id FROM tree
WHERE $4::text IS NULL OR sort_key COLLATE "C" > (SELECT sort_key FROM tree WHERE id = $5) COLLATE "C"
ORDER BY sort_key COLLATE "C"
LIMIT $6::int`;

const SUITES_WITH_CASES = (
  suites: number,
) => `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."suite_number" AS "suiteNumber",
  "t0"."name", "t0"."description", "t0"."parent_id" AS "parentId", "t0"."position", "t0"."created_at" AS "createdAt",
  "t0"."updated_at" AS "updatedAt", "Suite_cases"."__prisma_data__" AS "cases"
  FROM "public"."suites" AS "t0" LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t3"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t2"."id", 'orgId', "t2"."org_id", 'projectId',
  "t2"."project_id", 'caseNumber', "t2"."case_number", 'title', "t2"."title", 'description', "t2"."description", 'suiteId',
  "t2"."suite_id", 'milestoneId', "t2"."milestone_id", 'tags', "t2"."tags", 'archivedAt', "t2"."archived_at", 'createdAt',
  "t2"."created_at", 'updatedAt', "t2"."updated_at", 'projectId', "t2"."project_id", 'project', "TestCase_project"."__prisma_data__",
  'steps', "TestCase_steps"."__prisma_data__") AS "__prisma_data__", "t2"."id", "t2"."archived_at", "t2"."project_id"
  FROM (SELECT "t1".* FROM "public"."test_cases" AS "t1" WHERE "t0"."id" = "t1"."suite_id" /* root select */) AS "t2"
  LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('code', "t5"."code") AS "__prisma_data__"
  FROM "public"."projects" AS "t5" WHERE "t2"."project_id" = "t5"."id" LIMIT $1) AS "TestCase_project"
  ON true LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__"
  FROM (SELECT "t8"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t7"."id", 'orgId', "t7"."org_id", 'caseId',
  "t7"."case_id", 'position', "t7"."position", 'action', "t7"."action", 'expectedResult', "t7"."expected_result",
  'createdAt', "t7"."created_at", 'updatedAt', "t7"."updated_at") AS "__prisma_data__", "t7"."position", "t7"."id"
  FROM (SELECT "t6".* FROM "public"."test_case_steps" AS "t6" WHERE "t2"."id" = "t6"."case_id" /* root select */) AS "t7" /* inner select */) AS "t8"
  ORDER BY "t8"."position" ASC, "t8"."id" ASC /* middle select */) AS "t9" /* outer select */) AS "TestCase_steps"
  ON true /* inner select */) AS "t3" WHERE "t3"."archived_at" IS NULL
  ORDER BY "t3"."id" ASC /* middle select */) AS "t4" /* outer select */) AS "Suite_cases"
  ON true WHERE ("t0"."id" IN (${placeholders(2, suites)}) AND "t0"."org_id" = $${suites + 2})`;

// The case list: the project by code with today's columns (PROJECT_BY_CODE above is the create's,
// as it was when that floor was taken), then a page of cases with their project and steps.
const CASE_LIST_PROJECT = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."code", "t0"."name", "t0"."description", "t0"."avatar_key" AS "avatarKey", "t0"."avatar_version" AS "avatarVersion",
  "t0"."avatar_size_bytes" AS "avatarSizeBytes", "t0"."locked_at" AS "lockedAt", "t0"."last_suite_number" AS "lastSuiteNumber", "t0"."last_case_number" AS "lastCaseNumber",
  "t0"."last_plan_number" AS "lastPlanNumber", "t0"."last_defect_number" AS "lastDefectNumber", "t0"."run_settings" AS "runSettings", "t0"."access_mode" AS "accessMode",
  "t0"."owner_user_id" AS "ownerUserId", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt" FROM "public"."projects" AS "t0" WHERE ("t0"."code" = $1 AND
  "t0"."org_id" = $2) LIMIT $3`;

const CASES_WITH_STEPS = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."case_number" AS "caseNumber", "t0"."title", "t0"."description", "t0"."suite_id" AS
  "suiteId", "t0"."milestone_id" AS "milestoneId", "t0"."automation_key" AS "automationKey", "t0"."tags", "t0"."archived_at" AS "archivedAt", "t0"."created_at" AS
  "createdAt", "t0"."updated_at" AS "updatedAt", "TestCase_project"."__prisma_data__" AS "project", "TestCase_steps"."__prisma_data__" AS "steps" FROM "public"."test_cases"
  AS "t0" LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t1"."id", 'orgId', "t1"."org_id", 'code', "t1"."code", 'name', "t1"."name", 'description', "t1"."description",
  'avatarKey', "t1"."avatar_key", 'avatarVersion', "t1"."avatar_version", 'avatarSizeBytes', "t1"."avatar_size_bytes", 'lockedAt', "t1"."locked_at", 'lastSuiteNumber',
  "t1"."last_suite_number", 'lastCaseNumber', "t1"."last_case_number", 'lastPlanNumber', "t1"."last_plan_number", 'lastDefectNumber', "t1"."last_defect_number",
  'runSettings', "t1"."run_settings", 'accessMode', "t1"."access_mode", 'ownerUserId', "t1"."owner_user_id", 'createdAt', "t1"."created_at", 'updatedAt', "t1"."updated_at")
  AS "__prisma_data__" FROM "public"."projects" AS "t1" WHERE "t0"."project_id" = "t1"."id" LIMIT $1) AS "TestCase_project" ON true LEFT JOIN LATERAL (SELECT
  COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS "__prisma_data__" FROM (SELECT "t4"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t3"."id", 'orgId',
  "t3"."org_id", 'caseId', "t3"."case_id", 'position', "t3"."position", 'action', "t3"."action", 'expectedResult', "t3"."expected_result", 'createdAt', "t3"."created_at",
  'updatedAt', "t3"."updated_at", 'attachments', "TestCaseStep_attachments"."__prisma_data__") AS "__prisma_data__", "t3"."position", "t3"."id" FROM (SELECT "t2".* FROM
  "public"."test_case_steps" AS "t2" WHERE "t0"."id" = "t2"."case_id" /* root select */) AS "t3" LEFT JOIN LATERAL (SELECT COALESCE(JSONB_AGG("__prisma_data__"), '[]') AS
  "__prisma_data__" FROM (SELECT "t8"."__prisma_data__" FROM (SELECT JSONB_BUILD_OBJECT('id', "t7"."id", 'orgId', "t7"."org_id", 'caseId', "t7"."case_id", 'stepId',
  "t7"."step_id", 'stagedKey', "t7"."staged_key", 'storageKey', "t7"."storage_key", 'fileName', "t7"."file_name", 'contentType', "t7"."content_type", 'sizeBytes',
  "t7"."size_bytes", 'position', "t7"."position", 'createdAt', "t7"."created_at") AS "__prisma_data__", "t7"."position", "t7"."id" FROM (SELECT "t6".* FROM
  "public"."step_attachments" AS "t6" WHERE "t3"."id" = "t6"."step_id" /* root select */) AS "t7" /* inner select */) AS "t8" ORDER BY "t8"."position" ASC, "t8"."id" ASC /*
  middle select */) AS "t9" /* outer select */) AS "TestCaseStep_attachments" ON true /* inner select */) AS "t4" ORDER BY "t4"."position" ASC, "t4"."id" ASC /* middle
  select */) AS "t5" /* outer select */) AS "TestCase_steps" ON true`;
/** The page after `cursor` (or the first): `limit + 1` cases by ULID, the extra one only saying that more follow. */
const casePage = (afterCursor: boolean) =>
  afterCursor
    ? `${CASES_WITH_STEPS} WHERE ("t0"."project_id" = $2 AND "t0"."archived_at" IS NULL AND "t0"."id" > $3 AND "t0"."org_id" = $4) ORDER BY "t0"."id" ASC LIMIT $5`
    : `${CASES_WITH_STEPS} WHERE ("t0"."project_id" = $2 AND "t0"."archived_at" IS NULL AND "t0"."org_id" = $3) ORDER BY "t0"."id" ASC LIMIT $4`;

// The PATCH.
const CASE_WITH_PROJECT = `SELECT "t0"."id", "t0"."org_id" AS "orgId", "t0"."project_id" AS "projectId", "t0"."case_number" AS "caseNumber",
  "t0"."title", "t0"."description", "t0"."suite_id" AS "suiteId", "t0"."milestone_id" AS "milestoneId", "t0"."tags",
  "t0"."archived_at" AS "archivedAt", "t0"."created_at" AS "createdAt", "t0"."updated_at" AS "updatedAt", "TestCase_project"."__prisma_data__" AS "project"
  FROM "public"."test_cases" AS "t0" LEFT JOIN LATERAL (SELECT JSONB_BUILD_OBJECT('id', "t1"."id", 'orgId', "t1"."org_id",
  'code', "t1"."code", 'name', "t1"."name", 'description', "t1"."description", 'avatarKey', "t1"."avatar_key", 'avatarVersion',
  "t1"."avatar_version", 'lockedAt', "t1"."locked_at", 'lastSuiteNumber', "t1"."last_suite_number", 'lastCaseNumber',
  "t1"."last_case_number", 'createdAt', "t1"."created_at", 'updatedAt', "t1"."updated_at") AS "__prisma_data__"
  FROM "public"."projects" AS "t1" WHERE "t0"."project_id" = "t1"."id" LIMIT $1) AS "TestCase_project"
  ON true WHERE ("t0"."id" = $2 AND "t0"."org_id" = $3) LIMIT $4`;

const UPDATE_STEPS = `UPDATE test_case_steps
SET position = edit.position,
    action = edit.action,
    expected_result = CASE WHEN edit.keep_expected THEN test_case_steps.expected_result ELSE edit.expected_result END,
    updated_at = $1
FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::boolean[])
  AS edit(id, position, action, expected_result, keep_expected)
WHERE test_case_steps.id = edit.id AND test_case_steps.case_id = $7 AND test_case_steps.org_id = $8`;

const UPDATE_TITLE = `UPDATE "public"."test_cases" SET "title" = $1, "updated_at" = $2
  WHERE ("public"."test_cases"."id" = $3 AND "public"."test_cases"."org_id" = $4)
  RETURNING "public"."test_cases"."id", "public"."test_cases"."org_id", "public"."test_cases"."project_id", "public"."test_cases"."case_number",
  "public"."test_cases"."title", "public"."test_cases"."description", "public"."test_cases"."suite_id", "public"."test_cases"."milestone_id",
  "public"."test_cases"."tags", "public"."test_cases"."archived_at", "public"."test_cases"."created_at", "public"."test_cases"."updated_at"`;

// ---- the operations ----------------------------------------------------------------------------

/** The field's English title: the audit entry's fieldLabel. */
const PRIORITY_LABEL = 'Priority';

/** The three look-ups the service's step-attachment code sends for steps without attachments. */
async function lookUpAttachments(query: Query, actor: CaseActor, caseId: string): Promise<void> {
  await query(ATTACHMENTS_OF_CASE, [caseId, actor.orgId]);
  await query(STAGED_ATTACHMENT, [actor.orgId, 1]);
  await query(STORED_ATTACHMENTS, [actor.orgId]);
}

/** writeCaseFieldValues for one select value that changes (so the row is replaced). */
async function writePriority(query: Query, actor: CaseActor, caseId: string, option: string): Promise<void> {
  const fieldUlid = actor.priority.fieldUlid;
  await query(LOCK_CASE, [caseId, actor.orgId]);
  await query(SHARE_FIELD, [actor.orgId, fieldUlid]);
  await query(CASE_FIELD_DEFINITIONS, ['test_case', actor.orgId]);
  await query(CURRENT_VALUES, [caseId, fieldUlid, actor.orgId]);
  await query(DELETE_VALUES, [caseId, fieldUlid, actor.orgId]);
  await query(INSERT_VALUE, [caseId, fieldUlid, actor.orgId, JSON.stringify(option), new Date()]);
}

/** readCaseFieldValues, outside the transaction: the definitions, then the values of the cases. */
async function readValues(sql: Sql, actor: CaseActor, caseIds: string[]): Promise<void> {
  await sql.query(CASE_FIELD_DEFINITIONS, ['test_case', actor.orgId]);
  await sql.query(VALUES_OF_CASES(caseIds.length), [...caseIds, actor.orgId]);
}

const auditEvent = (actor: CaseActor, action: string, caseId: string, label: string, metadata: unknown) => [
  newId(),
  actor.orgId,
  action,
  'api_token',
  null,
  actor.tokenId,
  null,
  actor.tokenName,
  'test_case',
  caseId,
  label,
  null,
  JSON.stringify(metadata),
  new Date(),
];

/** POST /api/v1/projects/{code}/test-cases with caseBody(index): returns the case for the PATCH pool. */
export async function createCase(sql: Sql, actor: CaseActor, index: number): Promise<PoolCase> {
  await authenticate(sql, actor);
  const title = caseTitle(index);
  let created: PoolCase | undefined;
  await sql.transaction(async (query) => {
    const project = ((await query(PROJECT_BY_CODE, [actor.projectCode, actor.orgId, 1])) as Rows<{ id: string }>).rows[0];
    if (!project) throw new Error(`no project ${actor.projectCode}`);
    const counter = (await query(NEXT_CASE_NUMBER, [1, project.id, actor.orgId])) as Rows<{ last_case_number: number }>;
    const caseNumber = counter.rows[0]!.last_case_number;
    const caseId = newId();
    const now = new Date();
    await query(INSERT_CASE, [caseId, actor.orgId, project.id, caseNumber, title, null, null, null, [], now, now]);
    await query(STEPS_OF_CASE, [caseId, actor.orgId]);
    const steps = STEPS.map((step) => ({ ulid: newId(), ...step }));
    const stepsAt = new Date();
    await query(
      INSERT_STEPS,
      steps.flatMap((step, position) => [step.ulid, actor.orgId, caseId, position, step.action, step.expectedResult, stepsAt, stepsAt]),
    );
    await lookUpAttachments(query, actor, caseId);
    await writePriority(query, actor, caseId, actor.priority.optionUlids[0]!);
    await query(CASE_RECORD, [1, caseId, actor.orgId, 1]);
    const displayId = `${actor.projectCode}-${caseNumber}`;
    await query(
      INSERT_AUDIT,
      auditEvent(actor, 'test_case.created', caseId, `${displayId} · ${title}`, { displayId, suiteUlid: null, stepCount: steps.length }),
    );
    created = { ulid: caseId, caseNumber, title, steps, version: 0 };
  });
  await readValues(sql, actor, [created!.ulid]);
  return created!;
}

/** POST /graphql with TREE_QUERY: returns the number of cases read. */
export async function readTree(sql: Sql, actor: CaseActor): Promise<number> {
  await authenticate(sql, actor);
  const project = ((await sql.query(PROJECT_BY_CODE, [actor.projectCode, actor.orgId, 1])) as Rows<{ id: string }>).rows[0];
  if (!project) throw new Error(`no project ${actor.projectCode}`);
  const order = (await sql.query(TREE_ORDER, [actor.orgId, project.id, actor.orgId, null, null, null])) as Rows<{ id: string }>;
  const suiteIds = order.rows.map((row) => row.id);
  const suites = (await sql.query(SUITES_WITH_CASES(suiteIds.length), [1, ...suiteIds, actor.orgId])) as Rows<{
    cases: Array<{ id: string }>;
  }>;
  const caseIds = [...new Set(suites.rows.flatMap((suite) => suite.cases.map((each) => each.id)))];
  await readValues(sql, actor, caseIds);
  return caseIds.length;
}

/** GET /api/v1/projects/{code}/test-cases?limit=CASE_PAGE (&cursor=): returns the number of cases listed. */
export async function readCasePage(sql: Sql, actor: CaseActor, cursor: string | null): Promise<number> {
  await authenticate(sql, actor);
  const project = ((await sql.query(CASE_LIST_PROJECT, [actor.projectCode, actor.orgId, 1])) as Rows<{ id: string }>).rows[0];
  if (!project) throw new Error(`no project ${actor.projectCode}`);
  const window = cursor ? [project.id, cursor, actor.orgId] : [project.id, actor.orgId];
  const cases = ((await sql.query(casePage(cursor !== null), [1, ...window, CASE_PAGE + 1])) as Rows<{ id: string }>).rows.slice(
    0,
    CASE_PAGE,
  );
  await readValues(
    sql,
    actor,
    cases.map((each) => each.id),
  );
  return cases.length;
}

/** PATCH /api/v1/test-cases/{ulid} with patchBody(testCase, version): title, one step action, priority. */
export async function patchCase(sql: Sql, actor: CaseActor, testCase: PoolCase, version: number): Promise<void> {
  await authenticate(sql, actor);
  const before = versionOf(testCase, version - 1, actor.priority);
  const after = versionOf(testCase, version, actor.priority);
  const step = testCase.steps[CHANGED_STEP]!;
  const caseId = testCase.ulid;
  await sql.transaction(async (query) => {
    await query(LOCK_CASE, [caseId, actor.orgId]);
    await query(CASE_WITH_PROJECT, [1, caseId, actor.orgId, 1]);
    await query(STEPS_OF_CASE, [caseId, actor.orgId]);
    await query(UPDATE_STEPS, [
      new Date(),
      [step.ulid],
      [CHANGED_STEP],
      [after.action],
      [step.expectedResult],
      [false],
      caseId,
      actor.orgId,
    ]);
    await lookUpAttachments(query, actor, caseId);
    await writePriority(query, actor, caseId, after.option);
    const updated = (await query(UPDATE_TITLE, [after.title, new Date(), caseId, actor.orgId])) as Rows;
    if (updated.rows.length !== 1) throw new Error(`case ${caseId} was not updated`);
    await query(CASE_RECORD, [1, caseId, actor.orgId, 1]);
    const metadata = {
      changes: [{ field: 'title', from: before.title, to: after.title }],
      stepsChange: {
        kind: 'detailed',
        previousCount: testCase.steps.length,
        nextCount: testCase.steps.length,
        summary: { added: 0, removed: 0, modified: 1, reordered: 0 },
        entries: [
          {
            ulid: step.ulid,
            change: 'modified',
            position: CHANGED_STEP,
            fields: ['action'],
            action: after.action,
            previousAction: before.action,
          },
        ],
      },
      customFieldChanges: [{ fieldUlid: actor.priority.fieldUlid, fieldLabel: PRIORITY_LABEL, from: before.option, to: after.option }],
    };
    await query(
      INSERT_AUDIT,
      auditEvent(actor, 'test_case.updated', caseId, `${actor.projectCode}-${testCase.caseNumber} · ${after.title}`, metadata),
    );
  });
  await readValues(sql, actor, [caseId]);
}

// ---- the runs (the same counts as the service side) ---------------------------------------------

/** Creates warm-up + measured cases; checks their numbers (a plain SELECT, not measured). */
export async function rawCreateCases(sql: Sql, actor: CaseActor, counts: Counts, drive: Drive) {
  const pool: PoolCase[] = [];
  let index = 0;
  const op = async () => {
    pool.push(await createCase(sql, actor, index++));
  };
  const warmup = await runOps(counts.warmup, drive.concurrency, drive.maxMs, op);
  const measurement = await runOps(counts.measured, drive.concurrency, drive.maxMs, op);
  const numbers = (await sql.query('SELECT case_number FROM test_cases WHERE project_id = $1', [actor.projectId])) as Rows<{
    case_number: number;
  }>;
  assertGapless(
    numbers.rows.map((row) => row.case_number),
    warmup.ok + measurement.ok,
    'raw create cases',
  );
  return { measurement, pool: pool.sort((a, b) => (a.ulid < b.ulid ? -1 : 1)) };
}

export async function rawReadTree(sql: Sql, actor: CaseActor, counts: Counts, drive: Drive): Promise<Measurement> {
  const read = await readTree(sql, actor);
  if (read !== TREE_CASES) throw new Error(`raw tree: ${read} cases instead of ${TREE_CASES}`);
  return measureOps(counts, drive, async () => {
    await readTree(sql, actor);
  });
}

/** The pages of `cursors` (from casePageCursors) round-robin, each checked full first. */
export async function rawCaseList(
  sql: Sql,
  actor: CaseActor,
  cursors: Array<string | null>,
  counts: Counts,
  drive: Drive,
): Promise<Measurement> {
  for (const cursor of cursors) {
    const read = await readCasePage(sql, actor, cursor);
    if (read !== CASE_PAGE) throw new Error(`raw case list: ${read} cases on the page after ${cursor}`);
  }
  let page = 0;
  return measureOps(counts, drive, async () => {
    await readCasePage(sql, actor, cursors[page++ % cursors.length] ?? null);
  });
}

export function rawPatchCases(sql: Sql, actor: CaseActor, pool: PoolCase[], counts: Counts, drive: Drive): Promise<Measurement> {
  const sequence = patchSequence(pool);
  return measureOps(counts, drive, () => {
    const { testCase, version } = sequence();
    return patchCase(sql, actor, testCase, version);
  });
}
