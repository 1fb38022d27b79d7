import type { SaxesTag } from 'saxes';
import { uploadedXmlParser } from '../foundation/uploads/xml.ts';
import { AppError } from '../kernel/errors.ts';
import { ATTEMPTS_MAX, type Attempt, clip, type ImportStatus, MESSAGE_MAX, parseFailed, type TestSink } from './report.ts';

/** Elements of a testcase that are one of its runs, by the status they stand for. */
const FINAL = { failure: 'failed', error: 'failed', skipped: 'skipped' } as const;
/** Surefire/Failsafe reruns: flaky* precede a final pass, rerun* follow the first failure. */
const EARLIER = new Set(['flakyFailure', 'flakyError']);
const LATER = new Set(['rerunFailure', 'rerunError']);

type Outcome = { status: ImportStatus; elapsedMs: number | null; message: string };

type OpenCase = {
  name: string;
  classname: string | null;
  elapsedMs: number | null;
  final: Outcome | null;
  earlier: Outcome[];
  later: Outcome[];
  caseProperty: string | null;
};

/** JUnit `time` (seconds, sometimes with thousands separators) in whole milliseconds; null when unreadable. */
function millis(time: string | undefined): number | null {
  if (time === undefined) return null;
  const seconds = Number(time.replace(/,/g, ''));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(Math.round(seconds * 1000), 2_147_483_647) : null;
}

/** Test file names that JavaScript, Python, Ruby and PHP runners write as the classname. */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py|rb|php|feature)$/i;

/**
 * A dotted identifier path (`com.acme.PaymentTest`, pytest's `tests.test_pay.TestCard`) is a
 * suite per segment; anything else (a file name like vitest's `cart.test.ts`, a describe title, a
 * Go package) is one suite.
 */
export const suitePathOf = (scope: string): string[] =>
  /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)+$/u.test(scope) && !SOURCE_FILE.test(scope) ? scope.split('.') : [scope];

function attemptsOf(open: OpenCase): Attempt[] {
  const final: Outcome = open.final ?? { status: 'passed', elapsedMs: open.elapsedMs, message: '' };
  const attempt = (outcome: Outcome): Attempt => ({ status: outcome.status, elapsedMs: outcome.elapsedMs, message: clip(outcome.message) });
  return [...open.earlier, { ...final, elapsedMs: open.elapsedMs }, ...open.later].map(attempt);
}

/**
 * Reads a JUnit XML report from its UTF-8 bytes, handing each testcase to `sink` as soon as it
 * closes: `<testsuites>` or a bare `<testsuite>`, suites nested in suites, the dialects of
 * Surefire/Failsafe, pytest, jest-junit, vitest, mocha and go-junit-report. The parser's bounds
 * (src/foundation/uploads/xml.ts) hold; a test keeps at most ATTEMPTS_MAX attempts (reruns past them are
 * left out); system-out and system-err are not kept.
 */
export async function parseJunit(chunks: AsyncIterable<Uint8Array>, sink: TestSink): Promise<void> {
  const suites: string[] = [];
  let open: OpenCase | null = null;
  /** The outcome whose message text is being read, and the property whose value is. */
  let reading: Outcome | null = null;
  let property: { name: string; value: string } | null = null;
  let depth = 0;
  let root: string | null = null;

  const { fail, read } = uploadedXmlParser((line, column, message) => parseFailed(message, line, column), 'the report is not valid UTF-8', {
    opentag(tag: SaxesTag) {
      depth++;
      const attributes = tag.attributes as Record<string, string>;
      if (root === null) {
        root = tag.name;
        if (root !== 'testsuites' && root !== 'testsuite') {
          throw new AppError('unsupported_media_type', `Not a JUnit report: its root element is <${root}>`);
        }
      }
      if (tag.name === 'testsuite') suites.push(attributes.name ?? '');
      else if (tag.name === 'testcase') {
        open = {
          name: attributes.name ?? '',
          classname: attributes.classname || null,
          elapsedMs: millis(attributes.time),
          final: null,
          earlier: [],
          later: [],
          caseProperty: null,
        };
      } else if (open) {
        const status = (FINAL as Record<string, ImportStatus>)[tag.name];
        const message = attributes.message ?? '';
        if (status) {
          reading = open.final = { status, elapsedMs: null, message };
        } else if ((EARLIER.has(tag.name) || LATER.has(tag.name)) && open.earlier.length + open.later.length < ATTEMPTS_MAX - 1) {
          reading = { status: 'failed', elapsedMs: millis(attributes.time), message };
          (EARLIER.has(tag.name) ? open.earlier : open.later).push(reading);
        } else if (tag.name === 'property') {
          property = { name: attributes.name ?? '', value: attributes.value ?? '' };
        }
      }
    },
    text(text: string) {
      if (reading && reading.message.length < MESSAGE_MAX) reading.message += reading.message ? text : text.trimStart();
      else if (property && !property.value) property.value = text.trim();
    },
    closetag(tag: SaxesTag) {
      depth--;
      if (tag.name === 'testsuite') suites.pop();
      else if (tag.name === 'testcase' && open) {
        const closed: OpenCase = open;
        open = null;
        const scope = closed.classname;
        sink.add({
          name: closed.name,
          scope,
          suitePath: scope ? suitePathOf(scope) : suites.filter(Boolean).slice(-1),
          caseProperty: closed.caseProperty,
          parameters: null,
          attempts: attemptsOf(closed),
          flakyReported: false,
        });
      } else if (tag.name === 'property' && property && open) {
        if (property.name === 'tcms_case' && property.value) open.caseProperty = property.value.trim();
        property = null;
      } else if (tag.name in FINAL || EARLIER.has(tag.name) || LATER.has(tag.name)) {
        if (reading) reading.message = reading.message.trimEnd();
        reading = null;
      }
    },
  });

  await read(chunks);
  if (root === null || depth !== 0) fail('the document ends too early');
}
