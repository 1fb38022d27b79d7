import { linkedDefectsOfRunCase } from '../defects/defects.service.ts';
import type { RequestContext } from '../foundation/context.ts';
import { listRunCaseAttachments } from './result-attachments.service.ts';
import { getRunCase, type RunCaseRef, toRunCase } from './run-cases.service.ts';

/** GET of one run case: the case with the defects linked through its results and its results' attachments. */
export async function getRunCaseDetail(ctx: RequestContext, ref: RunCaseRef) {
  const { run, runCase } = await getRunCase(ctx, ref);
  return {
    ...toRunCase(runCase, run.project.code),
    linkedDefects: await linkedDefectsOfRunCase(ctx.db, runCase.id),
    attachments: await listRunCaseAttachments(ctx.db, runCase),
  };
}
