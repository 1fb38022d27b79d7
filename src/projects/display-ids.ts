import { unreadableRequest, validationFailed } from '../errors.ts';

/** Display IDs of the contract: case `<CODE>-<n>`, suite `<CODE>-S<n>`. */
export const caseDisplayId = (projectCode: string, caseNumber: number) => `${projectCode}-${caseNumber}`;
export const suiteDisplayId = (projectCode: string, suiteNumber: number) => `${projectCode}-S${suiteNumber}`;

const PATTERNS = {
  case: /^([A-Z][A-Z0-9]*)-([1-9][0-9]*)$/,
  suite: /^([A-Z][A-Z0-9]*)-S([1-9][0-9]*)$/,
} as const;

/**
 * The number a display ID names within `projectCode`: a malformed ID answers 422
 * validation_failed, a well-formed one with another project's prefix 400 validation_failed.
 */
export function parseDisplayId(displayId: string, projectCode: string, kind: 'case' | 'suite'): number {
  const match = PATTERNS[kind].exec(displayId);
  const number = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(number)) {
    const shape = kind === 'case' ? '<projectCode>-<number>' : '<projectCode>-S<number>';
    throw validationFailed(`displayId must look like ${shape}`, { path: ['displayId'] });
  }
  if (match[1] !== projectCode) {
    throw unreadableRequest('foreign_display_id', `displayId ${displayId} does not belong to project ${projectCode}`, { path: ['displayId'] });
  }
  return number;
}
