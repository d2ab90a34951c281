import { ApiError } from './api-error.js';

/** Authentication (401) and authorisation (403) errors. The 401s never reveal whether a key exists. */
const challenge = (error: string, description: string) => ({
  'www-authenticate': `Bearer realm="staykit", error="${error}", error_description="${description}"`,
});

export const authErrors = {
  missingKey: () =>
    new ApiError(401, 'SK401', 'An API key is required', {
      hint: 'Send the header "Authorization: Bearer <API_KEY>"',
      headers: { 'www-authenticate': 'Bearer realm="staykit"' },
    }),
  malformedHeader: () =>
    new ApiError(401, 'SK401', 'The Authorization header must be "Bearer <API_KEY>"', {
      headers: challenge('invalid_request', 'malformed Authorization header'),
    }),
  invalidKey: () =>
    new ApiError(401, 'SK401', 'The API key is invalid, expired or revoked', {
      headers: challenge('invalid_token', 'invalid, expired or revoked API key'),
    }),
  missingScope: (scope: string) =>
    new ApiError(403, 'SK403', `This API key lacks the scope "${scope}"`, {
      details: `The request needs "${scope}" (or the broader "${scope.split(':').pop()}")`,
      hint: 'Create a key with the needed scope: staykit key create --org <ID> --scopes …',
    }),
};
