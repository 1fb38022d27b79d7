/**
 * Child of bench/import.ts: reads the gzip-compressed JUnit report `argv[2]` through the result
 * import's reader and prints { tests, baselineRssMb, peakRssMb, ms } as JSON (peak RSS over the
 * child's life, which does nothing else; the baseline is its RSS before reading).
 */
import { readReports } from '../src/result-imports/result-imports.service.ts';

const file = process.argv[2]!;
const baselineRssMb = process.memoryUsage().rss / 1024 / 1024;
const started = performance.now();
const { tests } = await readReports(
  [{ path: file, fileName: 'report.xml.gz', contentType: 'application/xml', sizeBytes: 0, sha256: '' }],
  undefined,
);
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ tests: tests.length, baselineRssMb, peakRssMb: process.resourceUsage().maxRSS / 1024, ms }));
