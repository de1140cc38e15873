/**
 * A check's fingerprint: what a reading of it read. It is the sha256 of the top-level statements of
 * its suite file that name its id (its declaration, or the table row that makes it), followed by the
 * file's statements that name no check (imports, helpers, tables and loops that make several checks),
 * so a change to either is a change to the check. Step files shared by many areas are not part of it
 * (a change there would ask for every check to be read again; reviews of those files cover them).
 * An import names its module by file name only: moving a module to another folder changes no check.
 */
import { createHash } from 'node:crypto';
import ts from 'typescript';

/** A statement's text; an import's or re-export's module path is cut to its file name. */
function statementText(file: ts.SourceFile, statement: ts.Statement): string {
  const text = statement.getFullText(file).trim();
  const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) ? statement.moduleSpecifier : undefined;
  if (specifier === undefined || !ts.isStringLiteral(specifier)) return text;
  const quoted = specifier.getText(file);
  return text.replace(quoted, `'${specifier.text.slice(specifier.text.lastIndexOf('/') + 1)}'`);
}

/** Each given id's fingerprint in one suite file's source. */
export function checkFingerprints(source: string, ids: string[]): Map<string, string> {
  const file = ts.createSourceFile('check.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const statements = file.statements.map((statement) => statementText(file, statement));
  const namesOf = (text: string): string[] => ids.filter((id) => text.includes(`'${id}'`) || text.includes(`\`${id}\``) || text.includes(`"${id}"`));
  const shared = statements.filter((text) => namesOf(text).length === 0).join('\n');
  return new Map(ids.map((id) => {
    const own = statements.filter((text) => namesOf(text).includes(id)).join('\n');
    return [id, createHash('sha256').update(own).update('\n\0\n').update(shared).digest('hex').slice(0, 16)];
  }));
}
