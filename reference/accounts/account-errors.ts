/** What the accounts model refuses, by kind: the HTTP layer maps them to 400 and 404 (spec/3 §7.1). */
export class InvalidAccountChange extends Error {
  override name = 'InvalidAccountChange';
}

export class UnknownEmailAddress extends Error {
  override name = 'UnknownEmailAddress';
}
