// The one place a storage failure becomes 502 UPLOAD_PROVIDER_ERROR (the adapter has already
// retried). AppErrors pass through unchanged.
import { AppError } from '../errors';

export function providerError(): AppError {
  return new AppError(502, 'UPLOAD_PROVIDER_ERROR', 'The file storage did not answer; nothing was changed, please try again');
}

export async function storageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw providerError();
  }
}
