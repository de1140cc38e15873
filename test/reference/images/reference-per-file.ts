/** A reference started once for the test file and reset before each test, reached through the returned call. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startReference, type ReferenceOptions, type RunningReference } from '../../../reference/serve.ts';
import { httpCaller, type Call } from '../http-client.ts';

export function referencePerFile(options: ReferenceOptions = {}): Call {
  let reference: RunningReference;
  let call: Call;
  beforeAll(async () => {
    reference = await startReference(options);
    call = httpCaller(reference.engineUrl);
  });
  afterAll(() => reference.close());
  beforeEach(() => reference.reset());
  return (method, path, options) => call(method, path, options);
}
