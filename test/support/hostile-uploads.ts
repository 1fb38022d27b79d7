import { gzipSync } from 'node:zlib';

/**
 * Hostile uploads, generated when a test (or `bench/hostile-uploads.ts`) runs: the reproducers of
 * issue 28 and their kin, each as the bytes of a request to an import route.
 */

const MIB = 1024 * 1024;

export type HostileUpload = {
  name: string;
  /** The path below the project, e.g. `result-imports`. */
  route: 'result-imports' | 'test-case-imports' | 'test-case-imports?dryRun=true';
  contentType: string;
  headers?: Record<string, string>;
  body: Buffer;
  /** What the bytes amount to once inflated, for the report. */
  inflatedBytes: number;
};

/**
 * A gzip file of several members (RFC 1952 allows any number, and every inflater reads them in a
 * row): `unit` is compressed once and repeated, so a file that inflates to gigabytes is made in
 * milliseconds.
 */
export function repeatedGzip(head: string, unit: string, times: number, tail = ''): Buffer {
  const member = gzipSync(unit, { level: 9 });
  return Buffer.concat([gzipSync(head), ...Array.from({ length: times }, () => member), gzipSync(tail)]);
}

const megabytesOf = (unit: string, mib: number) => unit.repeat(Math.ceil((mib * MIB) / unit.length));

/** `<x>` nested `levels` deep inside one testcase, never closed. */
export const nestedJunit = (bytes: number): HostileUpload => {
  const head = '<testsuites><testsuite name="s"><testcase name="t">';
  return {
    name: `JUnit, elements nested ${Math.round(bytes / MIB)} MB deep`,
    route: 'result-imports',
    contentType: 'application/xml',
    body: Buffer.from(head + '<x>'.repeat(Math.ceil(bytes / 3))),
    inflatedBytes: bytes,
  };
};

/** The same nesting gzip-compressed: about 1 MB that inflates to `inflatedMib`. */
export const nestedJunitGzip = (inflatedMib: number): HostileUpload => {
  const unit = megabytesOf('<x>', 1);
  return {
    name: `JUnit gzip, nested elements inflating to ${inflatedMib} MiB`,
    route: 'result-imports',
    contentType: 'application/xml',
    headers: { 'Content-Encoding': 'gzip' },
    body: repeatedGzip('<testsuites><testsuite name="s"><testcase name="t">', unit, inflatedMib),
    inflatedBytes: inflatedMib * MIB,
  };
};

/** `[` nested inside `results.tests`, never closed. */
export const nestedCtrf = (bytes: number): HostileUpload => ({
  name: `CTRF, arrays nested ${Math.round(bytes / MIB)} MB deep`,
  route: 'result-imports',
  contentType: 'application/json',
  body: Buffer.from(`{"results":{"tests":[${'['.repeat(bytes)}`),
  inflatedBytes: bytes,
});

/** One failure message of `inflatedMib` MiB, gzip-compressed to about a thousandth of it. */
export const textNodeGzip = (inflatedMib: number): HostileUpload => ({
  name: `JUnit gzip, one text node of ${inflatedMib} MiB`,
  route: 'result-imports',
  contentType: 'application/xml',
  headers: { 'Content-Encoding': 'gzip' },
  body: repeatedGzip(
    '<testsuites><testsuite name="s"><testcase name="t"><failure>',
    'a'.repeat(MIB),
    inflatedMib,
    '</failure></testcase></testsuite></testsuites>',
  ),
  inflatedBytes: inflatedMib * MIB,
});

/** A multipart body of `parts` gzip reports, each of valid XML (properties, no test) inflating to `inflatedMib`. */
export function gzipMultipart(parts: number, inflatedMib: number): HostileUpload {
  const boundary = 'hostile-boundary-7d1c';
  const report = repeatedGzip(
    '<testsuites><testsuite name="s"><properties>',
    megabytesOf('<property name="p" value="v"/>', 1),
    inflatedMib,
    '</properties></testsuite></testsuites>',
  );
  const chunks = Array.from({ length: parts }, (_, index) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report-${index}.xml.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
    ),
    report,
    Buffer.from('\r\n'),
  ]).flat();
  const body = Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]);
  return {
    name: `multipart of ${parts} gzip reports inflating to ${inflatedMib} MiB each`,
    route: 'result-imports',
    contentType: `multipart/form-data; boundary=${boundary}`,
    body,
    inflatedBytes: parts * inflatedMib * MIB,
  };
}

/** A TestRail export whose one case holds elements nested `bytes` deep (dry run). */
export const nestedTestRail = (bytes: number): HostileUpload => {
  const levels = Math.ceil(bytes / 7);
  return {
    name: `TestRail XML, ${Math.round(bytes / 1024)} KB nested in a case (dry run)`,
    route: 'test-case-imports?dryRun=true',
    contentType: 'application/xml',
    body: Buffer.from(
      `<suite><sections><section><name>S</name><cases><case><title>t</title>${'<a>'.repeat(levels)}${'</a>'.repeat(levels)}</case></cases></section></sections></suite>`,
    ),
    inflatedBytes: bytes,
  };
};

/** A CSV whose second record opens a quoted cell and never closes it. */
export const unclosedCsvCell = (bytes: number): HostileUpload => ({
  name: `CSV, a quoted cell of ${Math.round(bytes / MIB)} MB never closed`,
  route: 'test-case-imports?dryRun=true',
  contentType: 'text/csv',
  body: Buffer.from(`title,description\nt,"${'a'.repeat(bytes)}`),
  inflatedBytes: bytes,
});

/** A CSV header of `columns` columns. */
export const wideCsv = (columns: number): HostileUpload => {
  const header = `title,${Array.from({ length: columns }, (_, index) => `c${index}`).join(',')}`;
  return {
    name: `CSV, a header of ${columns} columns`,
    route: 'test-case-imports?dryRun=true',
    contentType: 'text/csv',
    body: Buffer.from(`${header}\nt${','.repeat(columns)}\n`),
    inflatedBytes: header.length * 2,
  };
};
