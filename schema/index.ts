import { builder } from './builder.ts';
import './types/organization.ts';
import './types/project.ts';
import './types/suite.ts';
import './types/test-case.ts';
import './types/custom-field.ts';
import './types/comment.ts';
import './types/milestone.ts';
import './types/environment.ts';
import './types/configuration.ts';
import './types/plan.ts';
import './types/run.ts';
import './types/run-case.ts';
import './types/run-case-bulk.ts';

export const schema = builder.toSchema();
