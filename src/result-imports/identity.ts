import { TITLE_MAX } from '../test-cases/test-cases.schemas.ts';
import type { ReportedTest } from './report.ts';

/** Automation keys longer than this are clipped (a unique index entry must stay well inside a page). */
export const AUTOMATION_KEY_MAX = 1_000;
/** Suite names of created suites are clipped to the suites' own limit. */
const SUITE_NAME_MAX = 200;

/** How a reported test may bind to a case (contract §12), first match wins. */
export type TestIdentity = {
  /** The case number a `tcms_case` property names, then one named in brackets in the test name. */
  caseNumbers: number[];
  automationKey: string;
  /** The title of a case created for the test: its name without the parameter part. */
  title: string;
  suitePath: string[];
  /** CTRF `parameters`, else the bracketed parameter part of the name (`test_add[1-2]` → "1-2"). */
  parameters: unknown;
};

/**
 * Reads a test's identity within the project `projectCode`. Brackets holding a display ID of the
 * project (`[WEB-12] pays by card`, anywhere in the name) name a case; other brackets closing the
 * name are the parameters of a parameterized test (pytest `test_add[1-2]`, JUnit 5 `sum(int)[2]`),
 * left out of the key so that every parameter set binds to the same case.
 */
export function identify(test: ReportedTest, projectCode: string): TestIdentity {
  const displayId = new RegExp(`^${projectCode}-([1-9][0-9]{0,8})$`);
  const numberIn = (text: string | null) => {
    const match = text === null ? null : displayId.exec(text.trim());
    return match ? Number(match[1]) : null;
  };
  const fromName = [...test.name.matchAll(/\[([^[\]]*)\]/g)].map((match) => numberIn(match[1]!)).find((number) => number !== null) ?? null;
  const caseNumbers = [numberIn(test.caseProperty), fromName].filter((number): number is number => number !== null);

  const trailing = /\s*\[([^[\]]*)\]$/.exec(test.name);
  const parameterPart = trailing && numberIn(trailing[1]!) === null && trailing.index > 0 ? trailing : null;
  const baseName = parameterPart ? test.name.slice(0, parameterPart.index) : test.name;
  const automationKey = (test.scope ? `${test.scope}.${baseName}` : baseName).slice(0, AUTOMATION_KEY_MAX);
  return {
    caseNumbers,
    automationKey,
    title: (baseName.trim() || automationKey.trim() || 'Unnamed test').slice(0, TITLE_MAX),
    suitePath: test.suitePath.map((name) => name.trim().slice(0, SUITE_NAME_MAX)).filter(Boolean),
    parameters: test.parameters ?? (parameterPart ? parameterPart[1] : null),
  };
}
