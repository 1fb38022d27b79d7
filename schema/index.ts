import { builder } from './builder.ts';
import './types/organization.ts';
import './types/project.ts';

export const schema = builder.toSchema();
