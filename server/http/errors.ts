import type { FastifyError, FastifyInstance } from 'fastify';

/** An error whose message is safe to show the caller, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = () => new HttpError(401, 'Unauthorized');
export const forbidden = () => new HttpError(403, 'Forbidden');
export const notFound = (what = 'Not found') => new HttpError(404, what);

/** One error handler: 4xx answers carry a reason in {error}; 5xx details stay in the log. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'request';
      const field = first?.instancePath ? `${where}${first.instancePath.replace(/\//g, '.')}` : where;
      const detail =
        first?.keyword === 'additionalProperties'
          ? `unknown field "${String((first.params as { additionalProperty?: string }).additionalProperty)}"`
          : first?.message ?? 'is invalid';
      return reply.status(400).send({ error: `${field} ${detail}` });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError'
          ? 'Malformed JSON body'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body is too large'
            : error.message;
      return reply.status(status).send({ error: message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error' });
  });
}
