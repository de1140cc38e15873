import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../harness/report/render-html.ts';
import { sampleReport } from './sample-report.ts';

describe('report.html', () => {
  const report = sampleReport();
  const html = renderReportHtml(report);

  it('has a row per check with a cell per version carrying its status', () => {
    for (const check of report.checks) {
      const row = new RegExp(`<tr data-check="${check.id.replace(/\./g, '\\.')}" data-level="${check.level ?? 'spec'}">([\\s\\S]*?)</tr>`).exec(html);
      expect(row, check.id).not.toBeNull();
      const cells = [...(row?.[1] ?? '').matchAll(/<td data-version="([^"]+)" data-status="([^"]+)"[^>]*>([^<]+)<\/td>/g)].map(([, version, status, text]) => [version, status, text]);
      expect(cells.map(([version, status]) => [version, status]), check.id).toEqual(report.versions.map((version) => [version, check.results[version]?.status ?? 'none']));
      for (const [, , text] of cells) expect(text?.trim()).not.toBe('');
    }
    expect(html.match(/<tr data-check=/g)).toHaveLength(report.checks.length);
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
    expect(html).not.toMatch(/https?:\/\//);
  });
});
