import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../harness/report/render-junit.ts';
import { API_VERSIONS } from '../../protocol/versions.ts';
import { everywhere, makeCheck, makeReport, sampleReport } from './sample-report.ts';

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&([^;]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`bare & in ${JSON.stringify(text.slice(0, 60))}`);
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    const char = ENTITIES[name];
    if (char === undefined) throw new Error(`unknown entity &${name};`);
    return char;
  });
}

/** A strict little XML reader: enough to prove junit.xml well-formed and to read it back. */
function parseXml(xml: string): XmlElement {
  // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters anywhere
  const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.exec(xml);
  if (forbidden) throw new Error(`forbidden character U+${forbidden[0].charCodeAt(0).toString(16)}`);
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')) throw new Error('no XML declaration');
  const token = /<\/([\w:.-]+)\s*>|<([\w:.-]+)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  token.lastIndex = xml.indexOf('?>') + 2;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (token.lastIndex < xml.length) {
    const at = token.lastIndex;
    const match = token.exec(xml);
    if (!match) throw new Error(`not well-formed at ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
    const [, closing, opening, attributeText = '', selfClosing, text] = match;
    const parent = stack.at(-1);
    if (text !== undefined) {
      if (parent) parent.text += decode(text);
      else if (text.trim() !== '') throw new Error('text outside the root element');
    } else if (closing !== undefined) {
      const open = stack.pop();
      if (open?.name !== closing) throw new Error(`</${closing}> closes <${open?.name}>`);
    } else if (opening !== undefined) {
      const attributes: Record<string, string> = {};
      for (const [, name = '', value = ''] of attributeText.matchAll(/([\w:.-]+)="([^"]*)"/g)) {
        if (name in attributes) throw new Error(`duplicate attribute ${name}`);
        attributes[name] = decode(value);
      }
      const element: XmlElement = { name: opening, attributes, children: [], text: '' };
      if (parent) parent.children.push(element);
      else if (root) throw new Error('more than one root element');
      else root = element;
      if (!selfClosing) stack.push(element);
    }
  }
  if (stack.length > 0 || !root) throw new Error(`unclosed <${stack.at(-1)?.name}>`);
  return root;
}

const children = (element: XmlElement | undefined, name: string) => element?.children.filter((child) => child.name === name) ?? [];

describe('the XML checker of this test', () => {
  it('rejects what is not well-formed', () => {
    const declaration = '<?xml version="1.0" encoding="UTF-8"?>';
    expect(() => parseXml(`${declaration}<a><b></a>`)).toThrow();
    expect(() => parseXml(`${declaration}<a>x & y</a>`)).toThrow();
    expect(() => parseXml(`${declaration}<a x="1" x="2"/>`)).toThrow();
    expect(() => parseXml(`${declaration}<a>\u0001</a>`)).toThrow();
    expect(() => parseXml(`${declaration}<a/><b/>`)).toThrow();
    expect(parseXml(`${declaration}<a x="&lt;&#10;"><b>&amp;</b></a>`).children[0]?.text).toBe('&');
  });
});

describe('junit.xml', () => {
  const report = sampleReport();
  const root = parseXml(renderJunit(report));
  const suites = children(root, 'testsuite');

  it('is well-formed XML with one testsuite per version, named v1.xx', () => {
    expect(root.name).toBe('testsuites');
    expect(suites.map((suite) => suite.attributes.name)).toEqual(API_VERSIONS.map((version) => `v${version}`));
  });

  it('has one testcase per check and version, classname the area and name the check id', () => {
    for (const suite of suites) {
      const cases = children(suite, 'testcase');
      expect(cases.map((testCase) => testCase.attributes.name)).toEqual(report.checks.map((check) => check.id).sort());
      for (const testCase of cases) expect(testCase.attributes.classname).toBe(testCase.attributes.name?.split('.')[0]);
    }
  });

  it('marks each status with the right element and counts them in the suite attributes', () => {
    for (const suite of suites) {
      const version = suite.attributes.name?.slice(1) ?? '';
      const cases = children(suite, 'testcase');
      let failures = 0;
      let errors = 0;
      let skipped = 0;
      for (const testCase of cases) {
        const result = report.checks.find((check) => check.id === testCase.attributes.name)?.results[version];
        const kinds = testCase.children.map((child) => child.name).filter((name) => name !== 'properties');
        switch (result?.status) {
          case 'failed':
          case 'unexpected-pass':
            failures += 1;
            expect(kinds).toEqual(['failure']);
            expect(children(testCase, 'failure')[0]?.attributes.type).toBe(result.status);
            break;
          case 'error':
            errors += 1;
            expect(kinds).toEqual(['error']);
            break;
          case 'skipped':
            skipped += 1;
            expect(kinds).toEqual(['skipped']);
            expect(children(testCase, 'skipped')[0]?.attributes.message).toBe(result.reason);
            break;
          case 'expected-failure':
            expect(kinds).toEqual(['system-out']);
            expect(children(testCase, 'system-out')[0]?.text).toContain(`expected failure (${result.reason})`);
            break;
          default:
            expect(kinds).toEqual([]);
        }
      }
      expect(suite.attributes).toMatchObject({ tests: String(cases.length), failures: String(failures), errors: String(errors), skipped: String(skipped) });
    }
    const total = (name: string) => suites.reduce((sum, suite) => sum + Number(suite.attributes[name]), 0);
    expect(root.attributes).toMatchObject({ tests: String(total('tests')), failures: String(total('failures')), errors: String(total('errors')), skipped: String(total('skipped')) });
  });

  it('gives each testcase its check\'s level (and a docker-level check\'s seen) as properties, first', () => {
    for (const suite of suites) {
      for (const testCase of children(suite, 'testcase')) {
        const check = report.checks.find((candidate) => candidate.id === testCase.attributes.name);
        expect(testCase.children[0]?.name).toBe('properties');
        const properties = Object.fromEntries(children(testCase.children[0], 'property').map((property) => [property.attributes.name, property.attributes.value]));
        expect(properties, check?.id).toEqual({ level: check?.level ?? 'spec', ...(check?.seen ? { seen: check.seen } : {}) });
      }
    }
    const detach = children(suites[0], 'testcase').find((testCase) => testCase.attributes.name === 'exec.start.detach');
    expect(children(detach?.children[0], 'property').map((property) => property.attributes)).toEqual([{ name: 'level', value: 'docker' }, { name: 'seen', value: 'dockerd 20.10.24' }]);
  });

  it('gives each testsuite its version\'s conformance and Docker compatibility as properties', () => {
    const properties = (version: string) => Object.fromEntries(children(children(suites.find((suite) => suite.attributes.name === `v${version}`), 'properties')[0], 'property').map((property) => [property.attributes.name, property.attributes.value]));
    expect(properties('1.18')).toMatchObject({ conformance: '57.1%', 'docker-compatibility': '50.0%' });
    expect(properties('1.21')).toMatchObject({ 'docker-compatibility': '0.0%' });
  });

  it('escapes markup and writes control characters as visible text', () => {
    const message = 'got <b>&</b> "x" \u001b[31m\u0000 </failure>\nsecond line';
    const reportWithMarkup = makeReport([makeCheck('system.escape.me', everywhere({ status: 'failed', message }, ['1.24']))], ['1.24']);
    const failure = children(children(children(parseXml(renderJunit(reportWithMarkup)), 'testsuite')[0], 'testcase')[0], 'failure')[0];
    expect(failure?.text).toBe(message.replace('\u001b', '\\u001b').replace('\u0000', '\\u0000'));
    expect(failure?.attributes.message).toBe('got <b>&</b> "x" \\u001b[31m\\u0000 </failure>');
  });
});
