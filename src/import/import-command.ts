import fs from 'node:fs';
import type { CliIo } from '../cli/command.js';
import { importBugzilla, ImportRefused, redactedUrl, type ImportSummary } from './bugzilla-importer.js';

/** What `import-bugzilla` is given on its command line. */
export interface ImportCommandInput {
  from: string;
  paramsFile: string;
  check: boolean;
  /** Continue the earlier import of the same Bugzilla (ImportOptions.sinceLast). */
  sinceLast?: boolean;
  databaseUrl: string;
  /** Progress lines go to a terminal only (a log or a pipe gets the summary alone). */
  terminal: boolean;
}

/** `import-bugzilla`: reads the params file, runs the import, prints progress on a terminal and the summary. */
export async function runImportCommand(input: ImportCommandInput, io: CliIo): Promise<ImportSummary> {
  if (!/^(mysql|mariadb):\/\//.test(input.from)) throw new ImportRefused(`--from must be a mysql:// or mariadb:// URL of Bugzilla's database, not ${input.from}`);
  let params: Record<string, unknown>;
  try {
    params = JSON.parse(fs.readFileSync(input.paramsFile, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ImportRefused(`cannot read Bugzilla's parameters from ${input.paramsFile}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let last = '';
  const summary = await importBugzilla({
    from: input.from,
    to: input.databaseUrl,
    params,
    check: input.check,
    sinceLast: input.sinceLast,
    progress: input.terminal
      ? (stage, done, total) => {
          const line = `${stage}: ${done}/${total}`;
          if (line !== last) io.err(`\r${(last = line)}${done === total ? '\n' : ''}`);
        }
      : undefined,
  });
  io.out(summaryText(summary, input.from));
  return summary;
}

export function summaryText(summary: ImportSummary, from: string): string {
  const lines = [
    summary.checked
      ? `Check of the import from ${redactedUrl(from)}: it can be imported; nothing was written.`
      : `Imported from ${redactedUrl(from)}${summary.sinceLast ? ' (the changes since the last import)' : ''} in ${summary.seconds.toFixed(1)} s.`,
    ...Object.entries(summary.counts).map(([kind, n]) => `  ${kind}: ${n}`),
  ];
  if (summary.skippedParameters.length) lines.push(`  parameters Tracker does not have (left out): ${summary.skippedParameters.join(', ')}`);
  for (const warning of summary.warnings) lines.push(`Warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}
