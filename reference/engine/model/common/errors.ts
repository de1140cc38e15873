/**
 * What the model refuses, by kind. The HTTP layer maps each kind to a status code, so the model
 * states the rule and never decides how it looks on the wire.
 */
export class EngineError extends Error {
  override name = 'EngineError';
}

/** No such container, image, ... */
export class NotFoundError extends EngineError {
  override name = 'NotFoundError';
}

/** The request clashes with the current state, e.g. a name already in use. */
export class ConflictError extends EngineError {
  override name = 'ConflictError';
}

/** The request itself is wrong, whatever the state. */
export class InvalidParameterError extends EngineError {
  override name = 'InvalidParameterError';
}

/** An id prefix that names more than one object. */
export class AmbiguousReferenceError extends EngineError {
  override name = 'AmbiguousReferenceError';
}

/** Neither the create request nor its image gives a command to run (its status changed at 1.24). */
export class MissingCommandError extends EngineError {
  override name = 'MissingCommandError';
  constructor() {
    super('No command specified');
  }
}

/** The object is already in the state asked for: start of a running container, stop of a stopped one. */
export class NotModifiedError extends EngineError {
  override name = 'NotModifiedError';
}

/** The object refuses the change whatever the request says, e.g. writing into a read-only rootfs. */
export class ForbiddenError extends EngineError {
  override name = 'ForbiddenError';
}

/** A client cannot attach to the streams of the container in its state: it has run and stopped. */
export class NotAttachableError extends EngineError {
  override name = 'NotAttachableError';
}

/** An operation that needs a running container met one that is not. */
export class NotRunningError extends ConflictError {
  override name = 'NotRunningError';
  constructor(id: string) {
    super(`Container ${id} is not running`);
  }
}

/** A feature the configuration turned off, e.g. reading the logs of a container whose log driver keeps none. */
export class NotSupportedError extends EngineError {
  override name = 'NotSupportedError';
}

/** The engine cannot serve the request in its present role, e.g. a swarm endpoint on a node outside a swarm. */
export class UnavailableError extends EngineError {
  override name = 'UnavailableError';
}
