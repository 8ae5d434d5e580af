// The one way the page reaches the platform: a client typed by the schema generated from
// openapi.yaml at build time (web/generated/api.d.ts), so a contract change the page does not follow
// fails `npm run build`. Same origin, the customer's cookies included.
import createClient from 'openapi-fetch';
import type { paths } from '../generated/api';

export const api = createClient<paths>({ baseUrl: '/api', credentials: 'same-origin' });

export { callApi as call, problemOf, type ApiProblem } from '../shared/api-call';
