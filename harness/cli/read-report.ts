/** Reads a report.json a user names; a missing or malformed file is one clear line, not a stack trace. */
import fs from 'node:fs/promises';
import type { Report } from '../report/types.ts';
import { UsageError } from './usage-error.ts';

export async function readReport(file: string): Promise<Report> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not JSON (${(error as Error).message})`);
  }
  const report = value as Partial<Report>;
  if (
    typeof report !== 'object' || report === null ||
    report.tool?.name !== 'shipshape' ||
    !Array.isArray(report.versions) ||
    !Array.isArray(report.checks) ||
    !report.checks.every((check) => typeof check?.id === 'string' && typeof check.results === 'object' && check.results !== null)
  ) {
    throw new UsageError(`${file}: not a shipshape report.json (needs tool.name "shipshape", versions, and checks with id and results)`);
  }
  return report as Report;
}
