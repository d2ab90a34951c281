import { apiError } from './registry.js';

/** Authentication (401) and authorisation (403) errors. The 401s never reveal whether a key exists. */
const challenge = (error: string, description: string) => ({
  'www-authenticate': `Bearer realm="staykit", error="${error}", error_description="${description}"`,
});

export const authErrors = {
  missingKey: () =>
    apiError('SK401', {
      params: { message: 'An API key is required' },
      hint: 'Send the header "Authorization: Bearer <API_KEY>"',
      headers: { 'www-authenticate': 'Bearer realm="staykit"' },
    }),
  malformedHeader: () =>
    apiError('SK401', {
      params: { message: 'The Authorization header must be "Bearer <API_KEY>"' },
      headers: challenge('invalid_request', 'malformed Authorization header'),
    }),
  invalidKey: () =>
    apiError('SK401', {
      params: { message: 'The API key is invalid, expired or revoked' },
      headers: challenge('invalid_token', 'invalid, expired or revoked API key'),
    }),
  missingScope: (scope: string) =>
    apiError('SK403', {
      params: { scope },
      details: `The request needs "${scope}" (or the broader "${scope.split(':').pop()}")`,
    }),
};
