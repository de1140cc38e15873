/**
 * The build file's lines as dockerd's parser reads them (moby/buildkit frontend/dockerfile/parser):
 * parser directives at the top (`# escape=` picks `\` or a backtick as the escape token), comments,
 * blank lines, and line continuations — an escape token at the end of a line joins the next one,
 * whose leading spaces are kept, while comment lines and empty lines inside the continuation are
 * skipped. Each instruction keeps its text as written (continuations joined): the build's `Step`
 * lines show it. What the instructions' arguments mean is buildfile-instructions.ts's business.
 */
import { BuildfileSyntaxError } from './buildfile-errors.ts';

export type EscapeToken = '\\' | '`';

export interface BuildfileLine {
  /** lower case: `from`, `run`, … (unknown ones too) */
  keyword: string;
  /** leading `--name=value` words */
  flags: string[];
  /** what follows the keyword and the flags */
  args: string;
  /** the instruction as written, continuations joined */
  original: string;
  /** where it starts, from 1 */
  line: number;
}

export interface ParsedBuildfile {
  escape: EscapeToken;
  lines: BuildfileLine[];
}

const DIRECTIVE = /^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$/;
const KNOWN_DIRECTIVES = new Set(['escape', 'syntax']);
const COMMENT = /^[ \t\v\f\r]*#/;
const WHITESPACE = /[\t\v\f\r ]+/;

/** Thrown as soon as a build file has more instructions than the parse allows: the rest is not read. */
export class TooManyInstructionsError extends Error {
  override name = 'TooManyInstructionsError';
}

/** @param maxInstructions past this many, TooManyInstructionsError (the rest of the text is not parsed) */
export function parseBuildfile(text: string, maxInstructions = Infinity): ParsedBuildfile {
  const rawLines = text.replace(/^\uFEFF/, '').split('\n');
  const escape = readEscapeDirective(rawLines);
  const continuation = new RegExp(`${escape === '\\' ? '\\\\' : '`'}[ \\t]*$`);
  const lines: BuildfileLine[] = [];
  let index = 0;
  while (index < rawLines.length) {
    const first = trimLeft(stripNewline(rawLines[index] as string));
    index += 1;
    const start = index;
    if (COMMENT.test(first)) continue;
    let { text: line, ended } = trimContinuation(first, continuation);
    if (ended && line === '') continue;
    while (!ended && index < rawLines.length) {
      const next = stripNewline(rawLines[index] as string);
      index += 1;
      if (COMMENT.test(next) || trimLeft(next) === '') continue;
      const trimmed = trimContinuation(next, continuation);
      line += trimmed.text;
      ended = trimmed.ended;
    }
    lines.push(splitInstruction(line, start));
    if (lines.length > maxInstructions) throw new TooManyInstructionsError(`more than ${maxInstructions} instructions`);
  }
  if (lines.length === 0) throw new BuildfileSyntaxError('file with no instructions');
  return { escape, lines };
}

/** Directives only count before the first line that is not one (a comment, a blank line, an unknown directive, an instruction). */
function readEscapeDirective(lines: readonly string[]): EscapeToken {
  let escape: EscapeToken = '\\';
  const seen = new Set<string>();
  for (const line of lines) {
    const match = DIRECTIVE.exec(stripNewline(line));
    if (!match) break;
    const name = (match[1] as string).toLowerCase();
    if (!KNOWN_DIRECTIVES.has(name)) break;
    if (seen.has(name)) throw new BuildfileSyntaxError(`only one ${name} parser directive can be used`);
    seen.add(name);
    if (name !== 'escape') continue;
    const value = match[2] as string;
    if (value !== '\\' && value !== '`') throw new BuildfileSyntaxError(`invalid escape token '${value}' does not match \` or \\`);
    escape = value;
  }
  return escape;
}

function stripNewline(line: string): string {
  return line.replace(/\r$/, '');
}

function trimLeft(line: string): string {
  return line.replace(/^[ \t\v\f\r]+/, '');
}

function trimContinuation(line: string, continuation: RegExp): { text: string; ended: boolean } {
  return continuation.test(line) ? { text: line.replace(continuation, ''), ended: false } : { text: line, ended: true };
}

function splitInstruction(original: string, line: number): BuildfileLine {
  const trimmed = original.trim();
  const split = WHITESPACE.exec(trimmed);
  const keyword = (split ? trimmed.slice(0, split.index) : trimmed).toLowerCase();
  const rest = split ? trimmed.slice(split.index + split[0].length) : '';
  const { flags, args } = extractFlags(rest);
  return { keyword, flags, args, original, line };
}

/** Leading words that start with `--`; a bare `--` ends them. */
function extractFlags(rest: string): { flags: string[]; args: string } {
  const flags: string[] = [];
  let args = rest;
  for (;;) {
    args = trimLeft(args);
    if (!args.startsWith('--')) return { flags, args };
    const end = args.search(/\s/);
    const word = end < 0 ? args : args.slice(0, end);
    args = end < 0 ? '' : args.slice(end);
    if (word === '--') return { flags, args: trimLeft(args) };
    flags.push(word);
  }
}
