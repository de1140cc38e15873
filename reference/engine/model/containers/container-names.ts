/**
 * Container names: the rule a given name must follow, and docker-style `adjective_surname` names for
 * containers created without one. Generated names are drawn from a digest of the container's id, so
 * a deterministic id source gives deterministic names, and ids alike but for a digit give unlike names.
 */
import { createHash } from 'node:crypto';
import { InvalidParameterError } from '../common/errors.ts';

/** dockerd's rule (the spec's `/?[a-zA-Z0-9_-]+` is narrower than what dockerd accepts) */
const NAME_PATTERN = /^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;

/** `/name` for a valid name (with or without its slash); InvalidParameterError otherwise. */
export function canonicalName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new InvalidParameterError(`Invalid container name (${name}), only [a-zA-Z0-9][a-zA-Z0-9_.-] are allowed`);
  }
  return name.startsWith('/') ? name : `/${name}`;
}

const ADJECTIVES = [
  'admiring', 'adoring', 'affectionate', 'agitated', 'amazing', 'angry', 'awesome', 'blissful', 'brave', 'clever',
  'cocky', 'compassionate', 'competent', 'confident', 'cranky', 'dazzling', 'determined', 'distracted', 'dreamy', 'eager',
  'ecstatic', 'elastic', 'elated', 'elegant', 'eloquent', 'epic', 'fervent', 'festive', 'focused', 'friendly',
  'frosty', 'gallant', 'gifted', 'goofy', 'gracious', 'happy', 'hopeful', 'hungry', 'inspiring', 'jolly',
  'jovial', 'keen', 'kind', 'laughing', 'loving', 'lucid', 'modest', 'musing', 'nervous', 'nifty',
  'nostalgic', 'objective', 'optimistic', 'peaceful', 'pensive', 'practical', 'quirky', 'relaxed', 'romantic', 'serene',
  'sharp', 'silly', 'sleepy', 'stoic', 'tender', 'thirsty', 'trusting', 'upbeat', 'vibrant', 'zealous',
] as const;

const SURNAMES = [
  'albattani', 'almeida', 'archimedes', 'ardinghelli', 'babbage', 'banach', 'bardeen', 'bartik', 'bell', 'blackwell',
  'bohr', 'borg', 'bose', 'brahmagupta', 'brattain', 'carson', 'chandrasekhar', 'curie', 'darwin', 'davinci',
  'dijkstra', 'einstein', 'elion', 'engelbart', 'euclid', 'fermat', 'fermi', 'feynman', 'franklin', 'galileo',
  'goldstine', 'goodall', 'hamilton', 'hawking', 'heisenberg', 'hodgkin', 'hopper', 'hypatia', 'jang', 'jennings',
  'kalam', 'keller', 'kepler', 'knuth', 'lalande', 'lamport', 'leakey', 'lovelace', 'lumiere', 'mayer',
  'mccarthy', 'mcclintock', 'meitner', 'mestorf', 'morse', 'newton', 'nobel', 'noether', 'pare', 'pasteur',
  'perlman', 'pike', 'poincare', 'ptolemy', 'raman', 'ritchie', 'shannon', 'sinoussi', 'stallman', 'swanson',
  'tesla', 'thompson', 'torvalds', 'turing', 'wescoff', 'wiles', 'williams', 'wilson', 'wright', 'yalow',
] as const;

/** As dockerd: six tries (a digit appended from the second on), then the short id. */
const TRIES = 6;

export function generateName(id: string, isTaken: (name: string) => boolean): string {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const draw = createHash('sha256').update(`${attempt}:${id}`).digest();
    let name = `/${ADJECTIVES[draw.readUInt16BE(0) % ADJECTIVES.length]}_${SURNAMES[draw.readUInt16BE(2) % SURNAMES.length]}`;
    if (attempt > 0) name += String(draw.readUInt8(4) % 10);
    if (!isTaken(name)) return name;
  }
  // Ids are unique, so the whole id is free even where its short form is not.
  const short = `/${id.slice(0, 12)}`;
  return isTaken(short) ? `/${id}` : short;
}
