import type { RequestContext } from '../context.ts';
import { listRunCaseAttachments } from './result-attachments.service.ts';
import { getRunCase, toRunCase, type RunCaseRef } from './run-cases.service.ts';

/** GET of one run case: the case with the defects linked through its results and its results' attachments. */
export async function getRunCaseDetail(ctx: RequestContext, ref: RunCaseRef) {
  const { run, runCase } = await getRunCase(ctx, ref);
  return {
    ...toRunCase(runCase, run.project.code),
    // Defects do not exist yet: nothing can be linked.
    linkedDefects: [],
    attachments: await listRunCaseAttachments(ctx.db, runCase),
  };
}
