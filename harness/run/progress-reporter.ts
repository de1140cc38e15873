/**
 * What a person watching a run sees: one line per suite file and version as it finishes, and each
 * failure the moment it happens (its first line), so a long live run is never silent.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import path from 'node:path';

export class ProgressReporter implements Reporter {
  private done = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly root: string,
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    this.done += 1;
    const result = testCase.result();
    const descriptor = testCase.meta().check;
    if (result.state !== 'failed' || !descriptor) return;
    const outcome = testCase.meta().outcome ?? 'error';
    const firstLine = result.errors[0]?.message.split('\n')[0] ?? '';
    this.write(`  ${outcome === 'failed' ? '✗' : '!'} ${testCase.project.name} ${descriptor.id}: ${firstLine}`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testCase of testModule.children.allTests()) {
      const state = testCase.result().state;
      if (state === 'passed' || state === 'failed' || state === 'skipped') counts[state] += 1;
    }
    const file = path.relative(this.root, testModule.moduleId);
    this.write(`[${String(this.done).padStart(5)}] ${testModule.project.name.padEnd(6)} ${file}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}
