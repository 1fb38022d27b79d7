#!/usr/bin/env node
// The command-line client a CI job installs from the service itself
// (`npx --yes "$TCMS_URL/downloads/tcms-cli.tgz" results upload …`): only the commands that talk
// HTTP. scripts/build.mjs bundles it into one file with no dependency to fetch.
import { version } from '../../package.json';
import { EXIT, RESULTS_EXIT_CODES, RESULTS_USAGE, runResults, type UploadOutput } from '../results-upload.ts';

const USAGE = `Usage: tcms <command>  (tcms-cli ${version})

Commands:
${RESULTS_USAGE}
  tcms --version
      Print the version.
  tcms help, tcms --help
      Print this text.

${RESULTS_EXIT_CODES}`;

const output: UploadOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

async function runClient(argv: string[]): Promise<number> {
  const [command] = argv;
  if (command === 'results') return runResults(argv.slice(1), output, process.env);
  if (command === '--version') {
    output.out(version);
    return EXIT.ok;
  }
  if (command === 'help' || command === '--help' || command === '-h') {
    output.out(USAGE);
    return EXIT.ok;
  }
  output.err(command === undefined ? USAGE : `tcms: unknown command "${command}" (see "tcms help")`);
  return EXIT.usage;
}

process.exitCode = await runClient(process.argv.slice(2));
