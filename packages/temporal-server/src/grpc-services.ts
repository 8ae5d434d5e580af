// Builds grpc-js service definitions from the @temporalio/proto descriptor and binds handlers.
// Methods without a handler answer UNIMPLEMENTED naming the method; requests that fail to decode
// answer INVALID_ARGUMENT; semantic errors keep their code; anything unexpected becomes INTERNAL
// with the message (never UNKNOWN, which clients retry).
import { Server, ServerUnaryCall, sendUnaryData, status as Status, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { RpcError } from './errors';
import { refuseCompressedSystemInfo } from './compression';
import type { Call } from './messages';
import { appendHistoryField } from './history/encoded-events';
import { decodeMessage, encodeMessage, protoType, root } from './proto';

const DECODE_ERROR = Symbol('decodeError');

type DecodedRequest = Record<string, unknown> & { [DECODE_ERROR]?: string };
type Response = Record<string, unknown> | undefined;
/**
 * A handler of any service. Each family declares its handlers with their own request types
 * (messages.ts ServiceHandlers); the method-style signature lets those tables be passed here.
 */
type AnyHandler = { handle(req: never, call: Call): unknown }['handle'];

/**
 * `beforeAnswer(method)`: what an answer waits for after its handler ran (the store writing the
 * change the answer acknowledges); undefined answers at once.
 */
export function addProtoService(
  server: Server,
  fullName: string,
  handlers: { [method: string]: AnyHandler | undefined },
  log: (msg: string) => void,
  ready: Promise<void> = Promise.resolve(),
  beforeAnswer: (method: string) => Promise<void> | undefined = () => undefined,
): void {
  const service = root.lookupService(fullName);
  const definition: Record<string, ServiceDefinition[string]> = {};
  const impl: UntypedServiceImplementation = {};
  for (const method of Object.values(service.methods)) {
    method.resolve();
    const reqType = protoType(method.resolvedRequestType!.fullName.replace(/^\./, ''));
    const resType = protoType(method.resolvedResponseType!.fullName.replace(/^\./, ''));
    const hf = method.resolvedResponseType!.fields.history?.resolve();
    const historyField: number | undefined = hf?.resolvedType?.fullName === '.temporal.api.history.v1.History' ? hf.id : undefined;
    definition[method.name] = {
      path: `/${fullName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (obj: object) => encodeMessage(reqType, obj),
      requestDeserialize: (buf: Buffer) => {
        try {
          return decodeMessage(reqType, buf);
        } catch (e) {
          return { [DECODE_ERROR]: (e as Error).message };
        }
      },
      responseSerialize: (obj: Response) => {
        try {
          const history = obj?.history as { events?: object[] } | undefined;
          if (historyField && history?.events) {
            // Fields may appear in any order on the wire: encode the rest, then append the history.
            const { history: _history, ...rest } = obj!;
            return appendHistoryField(encodeMessage(resType, rest), historyField, history.events);
          }
          return encodeMessage(resType, obj);
        } catch (e) {
          log(`response encoding for ${method.name} failed: ${(e as Error).stack}`);
          throw e;
        }
      },
      responseDeserialize: (buf: Buffer) => decodeMessage(resType, buf),
    };
    const handler = handlers[method.name] as ((req: DecodedRequest, call: Call) => unknown) | undefined;
    impl[method.name] = (call: ServerUnaryCall<DecodedRequest, Response>, callback: sendUnaryData<Response>) => {
      if (!handler) {
        callback({ code: Status.UNIMPLEMENTED, details: `${fullName}/${method.name} is not implemented by the salon Temporal dev server` });
        return;
      }
      if (method.name === 'GetSystemInfo') {
        const refusal = refuseCompressedSystemInfo(call.metadata);
        if (refusal) {
          callback(refusal);
          return;
        }
      }
      const decodeError = call.request?.[DECODE_ERROR];
      if (decodeError) {
        callback({ code: Status.INVALID_ARGUMENT, details: `malformed ${method.name} request: ${decodeError}` });
        return;
      }
      // GetSystemInfo answers at once (readiness probes); everything else waits for a restore.
      const result: Promise<unknown> =
        method.name === 'GetSystemInfo'
          ? new Promise((resolve) => resolve(handler(call.request, call)))
          : ready.then(async () => {
              const resp = await handler(call.request, call);
              await beforeAnswer(method.name);
              return resp;
            });
      result.then(
        (resp) => callback(null, resp as Response),
        (err: unknown) => {
          if (err instanceof RpcError) {
            callback({ code: err.code, details: err.message, metadata: err.metadata() });
          } else {
            log(`${method.name} failed: ${(err as Error)?.stack ?? err}`);
            callback({ code: Status.INTERNAL, details: `${method.name}: ${(err as Error)?.message ?? err}` });
          }
        },
      );
    };
  }
  server.addService(definition, impl);
}
