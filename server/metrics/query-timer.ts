import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import type { PanelMetrics } from './panel-metrics'

/**
 * A Kysely plugin that times every query: Kysely calls transformQuery as the query is sent and
 * transformResult when its rows are back, both with the same query id. A query that fails never
 * reaches transformResult; its start is dropped with its id (a WeakMap).
 */
export function queryTimer(metrics: PanelMetrics): KyselyPlugin {
  const started = new WeakMap<object, number>()
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      started.set(args.queryId, performance.now())
      return args.node
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const start = started.get(args.queryId)
      if (start !== undefined) metrics.queryDuration.observe((performance.now() - start) / 1000)
      return args.result
    },
  }
}
