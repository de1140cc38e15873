#!/usr/bin/env node
// The CLI is TypeScript run as is: tsx compiles it on load, so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli/main.ts');
