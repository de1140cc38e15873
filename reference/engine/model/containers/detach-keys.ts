/**
 * Detach keys: the key sequence that, typed into an attached terminal, ends the attach and leaves the
 * process running. Written as dockerd reads it (`ctrl-p,ctrl-q`, `a`, `ctrl-x`), matched on the
 * client's input as dockerd's escape proxy matches it: bytes that may start the sequence are held
 * back until it is clear whether they do.
 */

/** ctrl-p ctrl-q: what detaches when neither the client nor the exec names keys. */
export const DEFAULT_DETACH_KEYS: Buffer = Buffer.from([0x10, 0x11]);

/** `ctrl-@` is 0, `ctrl-a` 1 … `ctrl-z` 26, then `ctrl-[` `ctrl-\` `ctrl-]` `ctrl-^` `ctrl-_` (27–31). */
const CONTROL_KEYS = ['@', ...'abcdefghijklmnopqrstuvwxyz', '[', '\\', ']', '^', '_'].map((key) => `ctrl-${key}`);
const DEL = 0x7f;

/** The bytes of a comma-separated key list (dockerd's term.ToBytes); undefined when a key is none it knows. */
export function parseDetachKeys(text: string): Buffer | undefined {
  const codes: number[] = [];
  for (const key of text.split(',')) {
    if (key.length === 1) codes.push(key.charCodeAt(0));
    else if (CONTROL_KEYS.includes(key)) codes.push(CONTROL_KEYS.indexOf(key));
    else if (key === 'DEL') codes.push(DEL);
    else return undefined;
  }
  return Buffer.from(codes);
}

export interface KeyScan {
  /** what goes on to the process: the input without the bytes that are (so far) part of the sequence */
  forward: Buffer;
  /** the whole sequence was typed: whatever followed it is dropped */
  detached: boolean;
}

/** Finds the detach sequence in a stream of input chunks, however the chunks cut it. */
export class DetachKeyMatcher {
  /** how many bytes of the sequence the input ended with so far (held back) */
  private matched = 0;

  constructor(private readonly keys: Buffer) {}

  push(chunk: Buffer): KeyScan {
    const forward: number[] = [];
    for (const byte of chunk) {
      if (byte !== this.keys[this.matched] && this.matched > 0) {
        // Not the sequence after all: the held bytes were input, and this byte may start it afresh.
        forward.push(...this.keys.subarray(0, this.matched));
        this.matched = 0;
      }
      if (byte === this.keys[this.matched]) {
        if (++this.matched === this.keys.length) return { forward: Buffer.from(forward), detached: true };
      } else {
        forward.push(byte);
      }
    }
    return { forward: Buffer.from(forward), detached: false };
  }
}
