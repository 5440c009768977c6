// An engine call's failure: the engine's message and the HTTP status it stands for (0: the
// engine cannot be reached; 400: a bad request or board; 503: no board proven in time).
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}
