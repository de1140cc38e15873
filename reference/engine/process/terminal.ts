/**
 * What a pseudo-terminal in its default mode does to the bytes through it: on output `\n` becomes
 * `\r\n` (ONLCR, applied to every newline, so `\r\n` from a program arrives as `\r\r\n`); on input
 * `\r` becomes `\n` (ICRNL), typed input is echoed back (ECHO), and Ctrl-D ends the input.
 */

const LF = 0x0a;
const CR = 0x0d;
const EOT = 0x04;

export function translateOutput(chunk: Buffer): Buffer {
  if (!chunk.includes(LF)) return chunk;
  const bytes: number[] = [];
  for (const byte of chunk) {
    if (byte === LF) bytes.push(CR);
    bytes.push(byte);
  }
  return Buffer.from(bytes);
}

export interface TerminalInput {
  /** what the program reads */
  data: Buffer;
  /** Ctrl-D was typed: the program's reads end there */
  endOfInput: boolean;
}

/**
 * Line editing is not modelled: input reaches the program as it is typed, not line by line, and
 * Ctrl-D ends the input for good rather than for one read.
 */
export function translateInput(chunk: Buffer): TerminalInput {
  const eot = chunk.indexOf(EOT);
  const typed = eot >= 0 ? chunk.subarray(0, eot) : chunk;
  return { data: Buffer.from(typed.map((byte) => (byte === CR ? LF : byte))), endOfInput: eot >= 0 };
}
