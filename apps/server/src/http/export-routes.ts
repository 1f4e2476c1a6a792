import type { RouteSpec } from '@reformes/domain';
import type { RouteHandler, routeTable } from './route-table.ts';

/** An export: its route, and the writer that turns the rows into its file. */
type ExportFormat = readonly [spec: RouteSpec, write: unknown];

/** `'csv'` for `/portfolio/export.csv`. */
type ExtensionOf<R extends RouteSpec> = R['path'] extends `${string}.${infer E}` ? E : never;

/**
 * Registers one download route per format, all answered by one handler given the format's route, the file
 * extension its path ends with and its writer:
 * `onEachExport(on, [[ROUTES.exportCsv, toCsv]], ({ spec, extension, write }) => async (request, reply) => …)`.
 */
export function onEachExport<F extends readonly ExportFormat[]>(
  on: ReturnType<typeof routeTable>,
  formats: F,
  handlerOf: (format: { spec: F[number][0]; extension: ExtensionOf<F[number][0]>; write: F[number][1] }) => RouteHandler<F[number][0]>,
): void {
  for (const [spec, write] of formats) {
    const extension = spec.path.slice(spec.path.lastIndexOf('.') + 1) as ExtensionOf<F[number][0]>;
    on(spec, handlerOf({ spec, extension, write }));
  }
}
