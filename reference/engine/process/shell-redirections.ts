/**
 * Redirections of one command: `>FILE`, `>>FILE`, `<FILE`, `>&2`, `2>&1`, applied left to right
 * over the shell's streams, as open(2) and dup2(2) would. Errors carry ash's wording.
 */
import { FilesystemError, type ContainerFilesystem } from '../filesystem/container-filesystem.ts';
import { errnoText } from './applet-support.ts';
import { resolvePath } from './paths.ts';
import { bufferInput, type OutputSink, type ProgramIo } from './program-io.ts';
import { UnsupportedSyntaxError, type Redirection } from './shell-syntax.ts';

/** A redirection that could not be set up; the command does not run and its status is 1. */
export class RedirectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedirectionError';
  }
}

/** Appends each write to the file: what a descriptor opened with O_APPEND, or a fresh O_TRUNC one, does. */
function fileSink(fs: ContainerFilesystem, path: string): OutputSink {
  return {
    write: (data) => {
      try {
        fs.writeFile(path, data, { append: true });
      } catch (error) {
        if (!(error instanceof FilesystemError)) throw error;
        // the file went away under the writer (rm -rf of its directory): the data is lost, as on
        // an unlinked inode nobody can open again
      }
    },
  };
}

export function applyRedirections(
  redirections: readonly Redirection[],
  base: ProgramIo,
  target: (redirection: Redirection) => string,
  fs: ContainerFilesystem,
  cwd: string,
): ProgramIo {
  const descriptors: [ProgramIo['stdin'], OutputSink, OutputSink] = [base.stdin, base.stdout, base.stderr];
  const outputs: Array<OutputSink | undefined> = [undefined, base.stdout, base.stderr];
  for (const redirection of redirections) {
    if (redirection.fd > 2) throw new UnsupportedSyntaxError(`redirecting descriptor ${redirection.fd}`);
    const word = target(redirection);
    switch (redirection.operator) {
      case '>':
      case '>|':
      case '>>': {
        const path = resolvePath(cwd, word);
        openForWriting(fs, path, word, redirection.operator === '>>');
        setOutput(redirection.fd, fileSink(fs, path));
        break;
      }
      case '<': {
        const path = resolvePath(cwd, word);
        const stat = fs.stat(path);
        if (stat === undefined) throw new RedirectionError(`can't open ${word}: no such file`);
        if (stat.kind === 'directory') throw new RedirectionError(`can't open ${word}: Is a directory`);
        if (redirection.fd !== 0) throw new UnsupportedSyntaxError(`reading into descriptor ${redirection.fd}`);
        descriptors[0] = bufferInput(fs.readFile(path));
        break;
      }
      case '>&':
      case '<&': {
        const source = Number(word);
        if (redirection.fd === 0 || source === 0) {
          if (redirection.fd === 0 && source === 0) break;
          throw new UnsupportedSyntaxError('duplicating standard input');
        }
        const sink = outputs[source];
        if (sink === undefined) throw new RedirectionError(`${word}: Bad file descriptor`);
        setOutput(redirection.fd, sink);
        break;
      }
    }
  }
  return { stdin: descriptors[0], stdout: descriptors[1], stderr: descriptors[2] };

  function setOutput(fd: number, sink: OutputSink): void {
    if (fd === 0) throw new UnsupportedSyntaxError('writing to descriptor 0');
    outputs[fd] = sink;
    descriptors[fd as 1 | 2] = sink;
  }
}

function openForWriting(fs: ContainerFilesystem, path: string, shown: string, append: boolean): void {
  const stat = fs.stat(path);
  if (stat?.kind === 'directory') throw new RedirectionError(`can't create ${shown}: Is a directory`);
  if (append && stat !== undefined) return;
  try {
    fs.writeFile(path, '');
  } catch (error) {
    // ash words a missing or non-directory parent alike
    const text = error instanceof FilesystemError && (error.code === 'ENOENT' || error.code === 'ENOTDIR') ? 'nonexistent directory' : errnoText(error);
    throw new RedirectionError(`can't create ${shown}: ${text}`);
  }
}
