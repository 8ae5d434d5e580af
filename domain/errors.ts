// The one error type of the platform. Domain code throws these; api/middleware/error-handler.ts is
// the only place that turns them (and database/validator errors) into HTTP responses.

export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Upper snake case of a resource name: `tenantCustomer` -> `TENANT_CUSTOMER`. */
function codeOf(resource: string): string {
  return resource
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toUpperCase();
}

export const errors = {
  validation: (message: string, details?: ErrorDetail[]) => new AppError(400, 'VALIDATION_ERROR', message, details),
  forbiddenField: (fields: string[]) =>
    new AppError(
      400,
      'FORBIDDEN_FIELD',
      `You may not change: ${fields.join(', ')}`,
      fields.map((field) => ({ field, message: 'not permitted for your role' })),
    ),
  unauthorized: (message = 'Authentication required') => new AppError(401, 'UNAUTHORIZED', message),
  subscriptionRequired: (message = 'An active subscription is required') => new AppError(402, 'SUBSCRIPTION_REQUIRED', message),
  forbidden: (message = 'You are not permitted to do this') => new AppError(403, 'FORBIDDEN', message),
  /** 404 `{RESOURCE}_NOT_FOUND`, e.g. notFound('booking') -> BOOKING_NOT_FOUND. */
  notFound: (resource: string, message?: string) => new AppError(404, `${codeOf(resource)}_NOT_FOUND`, message ?? `${resource} not found`),
  /** 409 with an explicit `{RESOURCE}_{REASON}` code. */
  conflict: (code: string, message: string, details?: ErrorDetail[]) => new AppError(409, code, message, details),
  /** 422 business rule failure with an explicit code. */
  unprocessable: (code: string, message: string, details?: ErrorDetail[]) => new AppError(422, code, message, details),
  /** 410 for a route that was retired; the message says where to go instead. */
  gone: (code: string, message: string) => new AppError(410, code, message),
  rateLimited: () => new AppError(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests, try again later'),
  unavailable: (code: string, message: string) => new AppError(503, code, message),
};

// --- uploads (docs/rules/errors.md#named-codes) ---
export const uploadErrors = {
  invalidType: (message: string) => new AppError(400, 'UPLOAD_INVALID_TYPE', message),
  typeMismatch: (message: string) => new AppError(400, 'UPLOAD_TYPE_MISMATCH', message),
  tooLarge: (limit: number) => new AppError(413, 'UPLOAD_TOO_LARGE', `The file is larger than ${limit} bytes, the limit for this purpose`),
  tooSmall: (minimum: number) => new AppError(400, 'UPLOAD_TOO_SMALL', `The file is smaller than ${minimum} bytes`),
  dimensionsTooLarge: (megapixels: number) => new AppError(400, 'UPLOAD_DIMENSIONS_TOO_LARGE', `The image has more than ${megapixels} megapixels`),
  notFound: (message = 'upload not found') => new AppError(404, 'UPLOAD_NOT_FOUND', message),
  tenantMismatch: () => new AppError(403, 'UPLOAD_TENANT_MISMATCH', 'The file key belongs to another salon'),
  purposeForbidden: (purpose: string) => new AppError(403, 'UPLOAD_PURPOSE_FORBIDDEN', `Your role may not use files of purpose ${purpose}`),
  alreadyReferenced: () => new AppError(409, 'UPLOAD_ALREADY_REFERENCED', 'The file is already used by another record'),
  integrityFailed: (message: string) => new AppError(422, 'UPLOAD_INTEGRITY_FAILED', message),
  imageSignatureInvalid: (message = 'The image URL signature is invalid or expired') => new AppError(403, 'IMAGE_SIGNATURE_INVALID', message),
  imageVariantLimit: (max: number) =>
    new AppError(422, 'IMAGE_VARIANT_LIMIT_REACHED', `This image already has ${max} rendered variants; use one of them (or its preset)`),
};
