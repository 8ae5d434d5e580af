// sdk-core sends gzip-compressed requests by default. Decompressing them costs this server a
// quarter of its CPU (and the worker as much again to compress), for loopback traffic where it
// buys nothing. Core has a documented fallback: when GetSystemInfo answers UNIMPLEMENTED with a
// message about the compressor, it reconnects without compression. This interceptor triggers that
// fallback, and only for compressed GetSystemInfo calls, so uncompressed clients are unaffected.
import { ServerInterceptingCall, ServerInterceptor, status as Status, Metadata } from '@grpc/grpc-js';

export const ENCODING_METADATA_KEY = 'x-devserver-request-encoding';

const GET_SYSTEM_INFO_PATH = '/temporal.api.workflowservice.v1.WorkflowService/GetSystemInfo';

/**
 * Copies the request's grpc-encoding (which grpc-js strips) into metadata the handler can read.
 * Only GetSystemInfo reads it: every other call is left unwrapped, since each interceptor layer
 * adds its own listener objects and callbacks to every message of the call.
 */
export const exposeRequestEncoding: ServerInterceptor = (method, call) => {
  // The call grpc-js passes in is its base call, which is all an interceptor must return.
  if (method.path !== GET_SYSTEM_INFO_PATH) return call as ServerInterceptingCall;
  // grpc-js keeps the incoming encoding on its base call object; absent on other versions, in
  // which case compression simply stays on.
  const encoding = (call as unknown as { incomingEncoding?: string }).incomingEncoding;
  return new ServerInterceptingCall(call, {
    start(next) {
      next({
        onReceiveMetadata(md: Metadata, nextMd: (m: Metadata) => void) {
          if (encoding && encoding !== 'identity') md.set(ENCODING_METADATA_KEY, encoding);
          nextMd(md);
        },
      });
    },
  });
};

export function refuseCompressedSystemInfo(md: Metadata): { code: Status; details: string } | undefined {
  const enc = md.get(ENCODING_METADATA_KEY)[0];
  if (!enc) return undefined;
  return { code: Status.UNIMPLEMENTED, details: `grpc-encoding ${enc} is not supported here (compressor disabled); please retry without compression` };
}
