/**
 * The values the fuzzer puts in requests: query strings, JSON of the wrong type or at the extremes,
 * malformed JSON, filters maps, tar streams (well formed, truncated, with a malformed header field)
 * and build files. Nothing here names a host outside the loopback: the reference fetches what
 * `fromSrc`, `remote` and a build file's `ADD <url>` name, so those get values from fixed lists.
 */
import fc from 'fast-check';

/** `text` percent-encoded: encodeURIComponent, or byte by byte (UTF-8, a lone surrogate as U+FFFD) where that throws. */
export function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // a lone surrogate
  }
  return [...Buffer.from(text)].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** Strings a hostile client sends: empty, odd characters, path tricks, very long ones. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 16, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 8, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '.',
      '..',
      '../../etc/passwd',
      '/',
      '//',
      '%',
      '%00',
      '\u0000',
      '\n',
      'a\r\nX-Injected: 1',
      '*',
      '?',
      '#',
      'null',
      'undefined',
      'true',
      '-1',
      '0',
      '1e308',
      'NaN',
      '18446744073709551616',
      '9007199254740993',
      '"',
      '{',
      '[]',
      '{}',
      'busybox',
      'busybox:latest',
      'BusyBox:LATEST',
      'busybox@sha256:0000',
      'sha256:',
      'é',
      '\uFFFF',
      '\uD800',
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'A/', '-', '0', '.', 'é'), fc.integer({ min: 256, max: 70_000 })).map(([unit, times]) => unit.repeat(times)) },
);

/** What a query parameter gets: booleans and integers of every spelling, extremes, odd strings. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('1', '0', 'true', 'false', 'True', 'yes', '', '-1', '2147483648', '1e3', '0x10', ' 1', '1.5', 'Infinity') },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n })).map(String) },
  { weight: 3, arbitrary: oddString },
);

const extremeNumber = fc.constantFrom(0, -1, 1, 0.5, -0.0, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, 18446744073709551616, 1e21, 5e-324);

/** A JSON value of any type, at the extremes as often as not. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: fc.oneof(fc.boolean(), fc.constant(null), extremeNumber, fc.integer(), fc.double({ noNaN: true })) },
    { weight: 3, arbitrary: oddString },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(oddString, tie('value'), { maxKeys: 4 }) },
  ),
})).value;

/** Sets `value` at the dotted `field` of `target`; an array on the way takes the value in its first element. */
export function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  const [head = '', ...rest] = field.split('.');
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner = typeof target[head] === 'object' && target[head] !== null && !Array.isArray(target[head]) ? (target[head] as Record<string, unknown>) : {};
  target[head] = inner;
  setField(inner, rest.join('.'), value);
}

/** A name's case changed as a Go client's field might be (`interface` for `Interface`). */
export const recase = (name: string, how: number): string => (how === 0 ? name : how === 1 ? name.toLowerCase() : name.toUpperCase());

/** JSON that does not parse, or parses to something other than an object. */
export const badJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '}', '{"a":', '{"a":1,}', "{'a':1}", 'null', '[]', '1', '"x"', 'true', '{"a":1}{"b":2}', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}'),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
);

/** Filter names dockerd knows on some list or another, and a few it does not. */
const FILTER_NAMES = [
  'status', 'label', 'name', 'id', 'exited', 'ancestor', 'before', 'since', 'volume', 'network', 'health', 'publish', 'expose', 'isolation', 'is-task',
  'dangling', 'reference', 'driver', 'type', 'scope', 'desired-state', 'node', 'service', 'role', 'membership', 'event', 'container', 'image', 'daemon',
  'stars', 'is-automated', 'is-official', 'until', 'bogus', '',
];

/** The `filters` parameter: a map of known and unknown names to lists, boolean maps or junk; or not JSON at all. */
export function filtersValue(names: readonly string[]): fc.Arbitrary<string> {
  const filterName = fc.oneof(fc.constantFrom(...names, ...FILTER_NAMES), oddString);
  const filterValues = fc.oneof(
    fc.array(fc.oneof(fc.constantFrom('bogus', 'running', 'true', 'false', '1', 'a=b', 'a', 'local', 'custom', 'builtin', 'container', 'image', 'accepted', 'shutdown', '80/tcp', '1-2', 'busybox', 'healthy'), oddString), { maxLength: 3 }),
    fc.dictionary(oddString, fc.oneof(fc.boolean(), jsonValue), { maxKeys: 3 }),
    jsonValue,
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.dictionary(filterName, filterValues, { maxKeys: 3 }).map((filters) => JSON.stringify(filters)) },
    { weight: 1, arbitrary: badJsonText },
  );
}

/** One 512-byte ustar header; `size` is the field's text, so a test can put anything there. */
function tarHeader(name: string, size: string, type: string, linkName = ''): Buffer {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 100), 0, 'latin1');
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  header.write(size.slice(0, 12), 124, 'latin1');
  header.write('00000000000\0', 136, 'latin1');
  header.write('        ', 148, 'latin1');
  header.write(type, 156, 'latin1');
  header.write(linkName.slice(0, 100), 157, 'latin1');
  header.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

const padded = (data: Buffer): Buffer => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);

/** A tar of `files`, each entry's header well formed unless `sizeField` replaces its size field. */
export function tarOf(files: ReadonlyArray<{ name: string; data: Buffer; type?: string; linkName?: string; sizeField?: string }>): Buffer {
  const parts = files.flatMap(({ name, data, type = '0', linkName, sizeField }) => [tarHeader(name, sizeField ?? `${data.length.toString(8).padStart(11, '0')}\0`, type, linkName), padded(data)]);
  return Buffer.concat([...parts, Buffer.alloc(1024)]);
}

const entryName = fc.oneof(fc.constantFrom('a', 'dir/', 'dir/b', '../escape', '/abs', '.', './x', 'manifest.json', 'repositories', 'Buildfile', 'Dockerfile', 'x'.repeat(100)), fc.string({ maxLength: 30 }));
const entryData = fc.oneof(fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)), fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)), jsonValue.map((value) => Buffer.from(JSON.stringify(value) ?? '')));

/** Build file lines: the instructions with odd arguments. `ADD` sources stay local (no scheme). */
const buildLine = fc.oneof(
  fc.tuple(
    fc.constantFrom('FROM', 'RUN', 'CMD', 'ENTRYPOINT', 'LABEL', 'ENV', 'ADD', 'COPY', 'WORKDIR', 'USER', 'EXPOSE', 'VOLUME', 'ARG', 'ONBUILD', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL', 'MAINTAINER', 'BOGUS', 'from', ''),
    fc.oneof(fc.constantFrom('busybox', 'scratch', 'a=b', '["x"]', '[', '\\', 'a b c', '$FOO', '${A:-b}', '8080/tcp', 'busybox AS x', '--from=0 a b'), oddString),
  ).map(([instruction, argument]) => `${instruction} ${argument.replaceAll(':', '')}`),
  fc.constantFrom('# comment', '', '\\', 'FROM busybox\\'),
);

export const buildFile: fc.Arbitrary<string> = fc.oneof(
  fc.array(buildLine, { maxLength: 12 }).map((lines) => ['FROM busybox', ...lines].join('\n')),
  fc.array(buildLine, { maxLength: 8 }).map((lines) => lines.join('\n')),
  // many LABEL lines: the cost of a build file must stay linear in its size
  fc.integer({ min: 100, max: 2_000 }).map((count) => ['FROM busybox', ...Array.from({ length: count }, (_, index) => `LABEL l${index}=v${index}`)].join('\n')),
);

/** A tar body: well formed, with a malformed size field, truncated, of junk, or a build context. */
export const tarBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.record({ name: entryName, data: entryData, type: fc.constantFrom('0', '0', '5', '2', '1', 'x') }), { maxLength: 4 }).map((files) => tarOf(files.map((file) => ({ ...file, linkName: file.type === '2' || file.type === '1' ? '../../etc' : '' })))) },
  { weight: 3, arbitrary: fc.tuple(buildFile, fc.constantFrom('Buildfile', 'Dockerfile')).map(([text, name]) => tarOf([{ name, data: Buffer.from(text) }])) },
  { weight: 2, arbitrary: fc.tuple(entryName, entryData, fc.constantFrom('zzzzzzzzzzz\0', '77777777777\0', '-1', '\u0080\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u00ff\u00ff\u00ff\u00ff', '', '00000001000 ', '1e3')).map(([name, data, sizeField]) => tarOf([{ name, data, sizeField }])) },
  { weight: 2, arbitrary: fc.tuple(fc.array(fc.record({ name: entryName, data: entryData }), { minLength: 1, maxLength: 3 }), fc.nat()).map(([files, cut]) => { const tar = tarOf(files); return tar.subarray(0, cut % tar.length); }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.alloc(0), Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]), Buffer.from('BZh91AY&SY'), Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) },
);
