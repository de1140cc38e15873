/**
 * A check's fingerprint: what a reading of it read. It is the sha256 of the top-level statements of
 * its suite file that name its id (its declaration, or the table row that makes it), followed by the
 * file's statements that name no check (imports, helpers, tables and loops that make several checks),
 * so a change to either is a change to the check. Step files shared by many areas are not part of it
 * (a change there would ask for every check to be read again; reviews of those files cover them).
 */
import { createHash } from 'node:crypto';
import ts from 'typescript';

/** Each given id's fingerprint in one suite file's source. */
export function checkFingerprints(source: string, ids: string[]): Map<string, string> {
  const file = ts.createSourceFile('check.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const statements = file.statements.map((statement) => statement.getFullText(file).trim());
  const namesOf = (text: string): string[] => ids.filter((id) => text.includes(`'${id}'`) || text.includes(`\`${id}\``) || text.includes(`"${id}"`));
  const shared = statements.filter((text) => namesOf(text).length === 0).join('\n');
  return new Map(ids.map((id) => {
    const own = statements.filter((text) => namesOf(text).includes(id)).join('\n');
    return [id, createHash('sha256').update(own).update('\n\0\n').update(shared).digest('hex').slice(0, 16)];
  }));
}
