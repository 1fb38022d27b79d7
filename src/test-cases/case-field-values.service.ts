import { type CustomFieldValue, type FieldValueInput, readCaseFieldValues, writeValues } from '../custom-fields/field-values.service.ts';
import { authorize } from '../foundation/auth/policy.ts';
import type { RequestContext } from '../foundation/context.ts';
import type { Db } from '../kernel/database/client.ts';
import { notFound } from '../kernel/errors.ts';
import { ULID_PATTERN } from '../kernel/ids.ts';
import { inCaseTransaction } from './test-cases.service.ts';

/** The custom field values of one test case, written through the field values' rules (src/custom-fields/). */

async function writeCaseValues(
  ctx: RequestContext,
  caseUlid: string,
  write: (tx: Db, testCase: { id: string; projectId: string }) => Promise<unknown[]>,
): Promise<CustomFieldValue[]> {
  authorize(ctx, 'case.write');
  return inCaseTransaction(ctx, caseUlid, async (tx, testCase) => {
    const changes = await write(tx, testCase);
    if (changes.length > 0) await tx.testCase.update({ where: { id: testCase.id }, data: { updatedAt: new Date() } });
    return (await readCaseFieldValues(ctx, [testCase], tx)).get(testCase.id) ?? [];
  });
}

/** PUT …/custom-field-values: the listed values become the case's whole set (no audit event). */
export function replaceCaseValues(ctx: RequestContext, caseUlid: string, values: FieldValueInput[]) {
  return writeCaseValues(ctx, caseUlid, (tx, testCase) =>
    writeValues(tx, ctx, { entity: 'test_case', ...testCase }, values, {
      mode: 'replace',
      pathOf: (index) => ['values', index],
      listPath: ['values'],
    }),
  );
}

/** PATCH …/custom-field-values/{fieldUlid}: one value; required is enforced on that field only. */
export function setCaseValue(ctx: RequestContext, caseUlid: string, fieldUlid: string, value: unknown) {
  return writeCaseValues(ctx, caseUlid, (tx, testCase) => {
    if (!ULID_PATTERN.test(fieldUlid)) throw notFound('Custom field');
    return writeValues(tx, ctx, { entity: 'test_case', ...testCase }, [{ fieldUlid, value }], {
      mode: 'merge',
      pathOf: () => [],
      listPath: [],
    });
  });
}
