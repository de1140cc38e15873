/** The users file the reference loads when given none: `fixtures/users/users.json`. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_USERS_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/users/users.json');
