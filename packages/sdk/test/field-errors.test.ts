import { ApiError, apiFieldErrors, NetworkError } from '@planwright/sdk';
import { describe, expect, it } from 'vitest';

describe('apiFieldErrors', () => {
  it('reads the field errors of a 400 answer', () => {
    const error = new ApiError({
      status: 400,
      data: {
        detail: 'Invalid input: version',
        errors: [
          { param: 'version', code: 'version_not_newer', message: 'Publish a version above 3.' },
          { code: 'other', message: 'No field.' },
        ],
      },
    });
    expect(apiFieldErrors(error)).toEqual([
      { param: 'version', code: 'version_not_newer', message: 'Publish a version above 3.' },
      { param: '', code: 'other', message: 'No field.' },
    ]);
  });

  it('is empty for anything else, and skips entries without a message', () => {
    expect(apiFieldErrors(new ApiError({ status: 500, data: 'oops' }))).toEqual([]);
    expect(apiFieldErrors(new ApiError({ status: 400, data: { errors: 'x' } }))).toEqual([]);
    expect(
      apiFieldErrors(
        new ApiError({ status: 400, data: { errors: [null, 7, { param: 'a' }, { message: ' ' }] } }),
      ),
    ).toEqual([]);
    expect(apiFieldErrors(new NetworkError({ cause: new Error('down') }))).toEqual([]);
    expect(apiFieldErrors(new Error('plain'))).toEqual([]);
    expect(apiFieldErrors(undefined)).toEqual([]);
  });
});
