// supertest against the shared app. `http()` gives a supertest agent for anything unusual (headers,
// cookies, raw bodies); `call()` covers the common case with an optional bearer token and JSON body.
import request from 'supertest';
import { stack } from './stack';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export async function http(): Promise<ReturnType<typeof request>> {
  return request((await stack()).app);
}

export async function call(method: Method, path: string, token?: string, body?: unknown): Promise<request.Response> {
  let req = (await http())[method](`/api${path}`);
  if (token) req = req.set('Authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body as object);
}
