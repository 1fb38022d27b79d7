import type { Commentable } from '../comments/comments.service.ts';
import { resolveDefect } from './defects.service.ts';

export const defectComments: Commentable = {
  entityType: 'defect',
  ownerColumn: 'defectId',
  resolve: async (ctx, defectUlid, db) => {
    const defect = await resolveDefect(ctx, defectUlid, { db });
    return { id: defect.id, projectId: defect.projectId, label: defect.title };
  },
};
