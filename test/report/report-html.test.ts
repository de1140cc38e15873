import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../harness/report/render-html.ts';
import { sampleReport } from './sample-report.ts';

describe('report.html', () => {
  const report = sampleReport();
  const html = renderReportHtml(report);

  /** The rows of one view (`grid` or `matrix`): per check, its cells as [version, status, text]. */
  function rowsOf(view: 'grid' | 'matrix'): Map<string, string[][]> {
    const section = view === 'grid' ? /<div id="grid">([\s\S]*?)\n<\/div>/.exec(html)?.[1] : /<table id="matrix">([\s\S]*?)<\/table>/.exec(html)?.[1];
    const rows = new Map<string, string[][]>();
    for (const [, id, cells] of (section ?? '').matchAll(/<tr data-check="([^"]+)" data-level="[^"]+">([\s\S]*?)<\/tr>/g)) {
      expect(rows.has(id ?? ''), `${view}: ${id} twice`).toBe(false);
      rows.set(id ?? '', [...(cells ?? '').matchAll(/<td data-version="([^"]+)" data-status="([^"]+)"[^>]*>([^<]+)<\/td>/g)].map(([, version, status, text]) => [version ?? '', status ?? '', text ?? '']));
    }
    return rows;
  }

  for (const view of ['grid', 'matrix'] as const) {
    it(`the ${view} has a row per check with a cell per version carrying its status and a symbol`, () => {
      const rows = rowsOf(view);
      expect([...rows.keys()].sort()).toEqual(report.checks.map((check) => check.id).sort());
      for (const check of report.checks) {
        const cells = rows.get(check.id) ?? [];
        expect(cells.map(([version, status]) => [version, status]), check.id).toEqual(report.versions.map((version) => [version, check.results[version]?.status ?? 'none']));
        for (const [, , text] of cells) expect(text?.trim()).not.toBe('');
      }
    });
  }

  it('the grid comes before the full table, which is folded; areas with a result that fails the gate are open, the others closed', () => {
    expect(html.indexOf('<div id="grid">')).toBeLessThan(html.indexOf('<details id="table-view">'));
    expect(html.indexOf('<details id="table-view">')).toBeLessThan(html.indexOf('<table id="matrix">'));
    const open = [...html.matchAll(/<details class="area" data-area="([^"]+)"( open)?>/g)].map(([, area, isOpen]) => `${area}${isOpen ? ' open' : ''}`);
    expect(open).toEqual(['containers open', 'exec open', 'images', 'streams', 'swarm', 'system open']);
  });

  it('a result that did not pass opens details: message, the spec text, the requests and responses, and a curl that sends the last request again', () => {
    const cell = /<tr data-check="containers\.create\.no-cmd"[^>]*>[\s\S]*?<td data-version="1\.18" data-status="failed"[^>]*data-detail="([^"]+)"/.exec(html);
    expect(cell).not.toBeNull();
    const template = new RegExp(`<template id="${cell?.[1]}">([\\s\\S]*?)</template>`).exec(html)?.[1] ?? '';
    expect(template).toContain('<code>containers.create.no-cmd</code> at 1.18');
    expect(template).toContain('<pre class="message">expected status 500, got 400');
    expect(template).toContain('<blockquote>A create without Cmd and an image without one is refused with 500.</blockquote>');
    expect(template).toContain('<code>GET /v1.18/images/busybox/json → 200 application/json</code>');
    expect(template).toContain('&quot;message&quot;:&quot;No command specified&quot;');
    // the reproduce command, escaped for HTML: the socket, the method, the header, the body quoted for sh
    const reproduce = /<pre class="reproduce">([\s\S]*?)<\/pre>/.exec(template)?.[1] ?? '';
    expect(reproduce).toBe([
      'curl --silent --show-error --include --unix-socket /var/run/docker.sock \\',
      '  --request POST \\',
      '  --header &#39;content-type: application/json&#39; \\',
      '  --data-binary &#39;{&quot;Image&quot;:&quot;busybox&quot;,&quot;Cmd&quot;:null,&quot;Labels&quot;:{&quot;it&#39;\\&#39;&#39;s&quot;:&quot;&lt;b&gt;&quot;}}&#39; \\',
      '  &#39;http://localhost/v1.18/containers/create?name=shipshape-1&#39;',
    ].join('\n'));
    // a docker-level result says what it rests on instead of a spec quote
    const dockerCell = /<tr data-check="exec\.start\.detach"[^>]*>[\s\S]*?data-detail="([^"]+)"/.exec(html)?.[1];
    const dockerTemplate = new RegExp(`<template id="${dockerCell}">([\\s\\S]*?)</template>`).exec(html)?.[1] ?? '';
    expect(dockerTemplate).toContain('Docker-level: behaviour the spec does not state, as dockerd shows it (seen on dockerd 20.10.24)');
    expect(dockerTemplate).toContain('No requests were recorded for this result');
    // passed and skipped cells open nothing; every other result has its template
    expect(html).not.toMatch(/data-status="(?:passed|skipped)"[^>]*data-detail=/);
    const withDetails = report.checks.flatMap((check) => Object.values(check.results)).filter((result) => result.status !== 'passed' && result.status !== 'skipped');
    expect(html.match(/<template id="detail-\d+">/g)).toHaveLength(withDetails.length);
  });

  it('shows per-version and per-area conformance', () => {
    for (const version of report.versions) expect(html).toContain(`<tr data-version="${version}"><th>${version}</th>`);
    expect(html).toContain('<tr data-version="1.18"><th>1.18</th><td class="num">55.6%</td><td class="num">5</td><td class="num">2</td><td class="num">1</td>');
    for (const area of new Set(report.checks.map((check) => check.area))) expect(html).toContain(`<tr data-area="${area}">`);
  });

  it('shows conformance (spec checks) and Docker compatibility (docker checks) side by side per version', () => {
    // 1.18: spec 4 passed of 7 judged; docker: exec.start.detach passed, system.version.schema an expected failure
    expect(html).toMatch(/<tr data-version="1\.18">.*<td data-version="1\.18" data-level="spec" [^>]*>57\.1%<\/td><td data-version="1\.18" data-level="docker" [^>]*>50\.0%<\/td><\/tr>/);
    expect(html).toMatch(/<tr data-version="1\.21">.*<td data-version="1\.21" data-level="docker" [^>]*>0\.0%<\/td><\/tr>/);
    expect(html).toContain('<th class="num" data-level="spec">conformance (spec checks)</th><th class="num" data-level="docker">Docker compatibility (docker checks)</th>');
  });

  it('shows both figures per area: a row per area and level, with its checks and a cell per version', () => {
    const table = /<table id="per-area-levels">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
    const rows = [...table.matchAll(/<tr data-area="([^"]+)" data-level="([^"]+)"><th>[^<]*<\/th><td>[^<]*<\/td><td class="num">(\d+)<\/td>(.*?)<\/tr>/g)].map(([, area, level, checks, cells]) => ({
      area, level, checks: Number(checks), cells: [...(cells ?? '').matchAll(/>([^<]+)<\/td>/g)].map(([, text]) => text),
    }));
    const areas = [...new Set(report.checks.map((check) => check.area))].sort();
    expect(rows.map(({ area, level }) => `${area} ${level}`)).toEqual(areas.flatMap((area) => [`${area} spec`, `${area} docker`]));
    for (const { area, level, checks, cells } of rows) {
      expect(checks, `${area} ${level}`).toBe(report.checks.filter((check) => check.area === area && (check.level ?? 'spec') === level).length);
      expect(cells).toHaveLength(report.versions.length);
    }
    const exec = (level: string) => rows.find((row) => row.area === 'exec' && row.level === level)?.cells;
    expect(exec('docker')).toEqual(['100.0%', '100.0%', '100.0%', '0.0%', '100.0%', '100.0%', '100.0%', '100.0%']);
    expect(exec('spec')).toEqual(Array(8).fill('–'));
  });

  it('names each check\'s level in the matrix, with the dockerd build a docker-level check was seen on, and offers a level filter', () => {
    expect(html).toMatch(/<tr data-check="exec\.start\.detach" data-level="docker">.*<td>docker <span class="muted">seen on dockerd 20\.10\.24<\/span><\/td>/);
    expect(html).toMatch(/<tr data-check="containers\.start\.already-started" data-level="spec">.*<td>spec<\/td>/);
    // the grid marks a docker-level row, so a failure there reads as Docker compatibility at a glance
    expect(html).toContain('<tr data-check="exec.start.detach" data-level="docker"><th title="the rule of exec.start.detach (Docker compatibility (docker checks))"><code>start.detach</code> <span class="muted">docker</span></th>');
    expect(html).toContain('<code>start.already-started</code></th>');
    expect(html).toContain('<select id="level-filter"><option value="">any</option><option value="spec">conformance (spec checks)</option><option value="docker">Docker compatibility (docker checks)</option></select>');
  });

  it('shows the header facts, the filter controls and the messages', () => {
    for (const text of ['unix:///var/run/docker.sock', 'live, docker dialect', 'version 20.10.24', '424242', 'id="filter"', 'id="status-filter"']) expect(html).toContain(text);
    expect(html).toContain('timed out after 30000 ms waiting for the container to stop');
    expect(html).toContain('the target lacks swarm');
  });

  it('embeds the report as JSON that reads back unchanged and cannot close its script element', () => {
    const embedded = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(embedded).not.toMatch(/<\/script|<!--/i);
    expect(JSON.parse(embedded)).toEqual(report);
  });

  it('escapes messages and shows control characters as text', () => {
    expect(html).not.toContain('<b>&amp;</b>');
    expect(html).toContain('&lt;b&gt;&amp;amp;&lt;/b&gt;');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the page
    expect(html).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    expect(html).toContain('\\u001b[31mred');
  });

  it('is self-contained: nothing to fetch', () => {
    expect(html).not.toMatch(/<link\b|<img\b|<iframe\b|\bsrc=|@import|url\(/i);
    // URLs appear only as text (the reproduce commands), never as something the page loads or links to
    expect(html).not.toMatch(/(?:href|action|src)\s*=\s*["']?https?:/i);
  });
});
