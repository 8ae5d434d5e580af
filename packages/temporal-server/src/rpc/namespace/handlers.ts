// Connection bootstrap and namespace RPCs (what NativeConnection and Client ask first), and the OperatorService search-attribute
// registry the SDK's test environments use.
import { status as Status } from '@grpc/grpc-js';
import { invalidArgument, RpcError } from '../../errors';
import type { OperatorServiceHandlers, WorkflowServiceHandlers } from '../../messages';
import { duration } from '../../proto';
import type { RunRegistry } from '../../state/run-registry';
import type { SearchAttributeTypes } from '../../state/search-attribute-types';

export const SERVER_VERSION = '1.24.0-salon-devserver';
const NAMESPACE_STATE_REGISTERED = 1;
const ARCHIVAL_DISABLED = 2;

function namespaceInfo(name: string, retentionMs: number) {
  return {
    namespaceInfo: { name, state: NAMESPACE_STATE_REGISTERED, id: `ns-${name}`, description: 'salon dev server namespace', capabilities: {}, limits: {} },
    config: { workflowExecutionRetentionTtl: duration(retentionMs), historyArchivalState: ARCHIVAL_DISABLED, visibilityArchivalState: ARCHIVAL_DISABLED },
    isGlobalNamespace: false,
  };
}

/** `retentionMs`: how long closed runs are kept (the server's retention sweep), reported as the namespaces' retention. */
export function namespaceHandlers(
  registry: Pick<RunRegistry, 'namespaces' | 'checkNamespace'>,
  searchAttributes: SearchAttributeTypes,
  retentionMs: number,
): WorkflowServiceHandlers {
  return {
    GetSystemInfo: () => ({
      serverVersion: SERVER_VERSION,
      capabilities: {
        signalAndQueryHeader: true,
        internalErrorDifferentiation: true,
        activityFailureIncludeHeartbeat: true,
        encodedFailureAttributes: true,
        upsertMemo: true,
        sdkMetadata: true,
      },
    }),
    DescribeNamespace: (req) => {
      const name = req.namespace || 'default';
      if (!registry.namespaces.has(name)) registry.checkNamespace(name);
      return namespaceInfo(name, retentionMs);
    },
    ListNamespaces: () => ({ namespaces: [...registry.namespaces].map((name) => namespaceInfo(name, retentionMs)) }),
    RegisterNamespace: (req) => {
      if (!req.namespace) throw invalidArgument('namespace is required');
      if (registry.namespaces.has(req.namespace)) throw new RpcError(Status.ALREADY_EXISTS, `Namespace ${req.namespace} already exists.`);
      registry.namespaces.add(req.namespace);
      return {};
    },
    GetClusterInfo: () => ({
      serverVersion: SERVER_VERSION,
      clusterName: 'salon-devserver',
      clusterId: 'salon-devserver',
      historyShardCount: 1,
      persistenceStore: 'memory',
      visibilityStore: 'memory',
      supportedClients: {},
    }),
    GetSearchAttributes: () => ({ keys: searchAttributes.all() }),
  };
}

export function operatorServiceHandlers(searchAttributes: SearchAttributeTypes): OperatorServiceHandlers {
  return {
    AddSearchAttributes: (req) => {
      for (const [k, v] of Object.entries(req.searchAttributes ?? {})) if (v !== undefined) searchAttributes.custom.set(k, v);
      return {};
    },
    ListSearchAttributes: () => ({ customAttributes: searchAttributes.all(), systemAttributes: {}, storageSchema: {} }),
  };
}
