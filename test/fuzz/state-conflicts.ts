/**
 * Requests that are well formed but come at the wrong time: the object exists and is in a state the
 * operation does not apply to. They are not client mistakes in the sense of the fuzz (a malformed
 * request), and where the endpoint's row lists neither 400 nor 409 the spec's only failure for them
 * is 500 ("server error", spec/1 §7.2), which dockerd 1.13 answers. Each entry names its endpoint and
 * the words of the answer; anything else on these endpoints is still a finding.
 */
export interface StateConflict {
  endpoint: string;
  message: RegExp;
}

export const STATE_CONFLICTS: readonly StateConflict[] = [
  // rows 204, 404, 500
  { endpoint: '1:POST /containers/{id_or_name}/unpause', message: /is not paused/ },
  { endpoint: '1:POST /containers/{id_or_name}/pause', message: /is (already paused|not running|restarting)/ },
  { endpoint: '1:POST /containers/{id_or_name}/kill', message: /is not running/ },
  // rows 200, 404, 500
  { endpoint: '1:POST /containers/{id_or_name}/resize', message: /is not running|cannot resize/ },
  { endpoint: '1:GET /containers/{id_or_name}/top', message: /is not running/ },
];

export function isStateConflict(endpoint: string, message: string): boolean {
  return STATE_CONFLICTS.some((conflict) => conflict.endpoint === endpoint && conflict.message.test(message));
}
