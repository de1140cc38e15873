// Preloaded into dockerode's own tests (mocha --require): every docker-modem Modem without a version
// asks at DOCKER_TEST_API_VERSION (default 1.25); dockerode's tests give none, and docker-modem reads none from the environment.
import { createRequire } from 'node:module';
import process from 'node:process';

const Modem = createRequire(`${process.cwd()}/`)('docker-modem');
const dial = Modem.prototype.dial;
Modem.prototype.dial = function dialAtVersion(options, callback) {
  if (!this.version) this.version = `v${process.env.DOCKER_TEST_API_VERSION || '1.25'}`;
  return dial.call(this, options, callback);
};
