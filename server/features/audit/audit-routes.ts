import { Type } from 'typebox'
import { AuditCsvQuerySchema, AuditPageSchema, AuditQuerySchema } from '../../../common/api/audit'
import { errorAnswers } from '../../../common/api/errors'
import { bearer, guardedRoutes, signedIn } from '../../access/guarded-routes'
import { HttpError } from '../../http/errors'
import { Readable } from 'node:stream'
import type { Access } from '../../../common/api/roles'
import type { AuditQuery } from '../../../common/api/audit'
import { providerLabels, type ProviderLabels } from '../../../common/provider-labels'
import type { Db } from '../../db/database'
import { CSV_HEAD, CsvClock, csvLine, inPieces, isTimeZone } from './audit-csv'
import { auditPage, cursorOf, findAuditRows, toAuditEvent } from '../../audit-log/audit-query'

/**
 * Rows read per query of the CSV export: each read is one bounded step of the index, so the
 * embedded database never holds the event loop for long, and the answer streams a chunk at a
 * time as the client takes it (the server's memory does not grow with the export). A chunk's rows
 * and lines are alive together, and a young collection that falls within one copies them all: with
 * 1000 rows, a year's export on PostgreSQL beside a busy core had the server's loop late by 16.5-21
 * ms at p99 (29-115 ms at most), with 250 by 4.5-8.7 ms (10-105 ms), at the same pace (by hand on
 * the data npm run bench -- --only scale seeds; docs/performance.md, "Lists bounded by the page").
 */
const CSV_CHUNK = 250

/**
 * The most characters the export hands the response at once: about 200 lines. A thousand lines
 * made one string of about 290 KB, over V8's largest ordinary object (128 KB). V8 keeps such a
 * string in a space of its own that only a full collection empties, and a string still being
 * written outlives the young collections: exporting a year's log on SQLite grew the server's RSS
 * by 61 MB, and in pieces of this size by 4.5 MB, at the same pace (npm run bench -- --only
 * scale; docs/performance.md, "Lists bounded by the page").
 */
const PIECE_CHARS = 64 * 1024

/**
 * GET /api/audit (a page, newest first) and /api/audit.csv (the same filters, every row), as
 * common/api/audit.ts describes them, each behind its own permission.
 */
export default guardedRoutes([signedIn], async (app, { db, config }) => {
  const labels = providerLabels(config.authProviders)
  app.get(
    '/audit',
    {
      schema: {
        'x-permission': 'audit.view',
        summary: 'The audit log, newest first, paged by cursor',
        description:
          'Permission audit.view; scope team: only the events about people of the caller’s team. The audit log, newest first: who did what to whom, when, from which address and browser. Filtered by type, person and dates, and paged by an opaque cursor.',
        security: bearer,
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => auditPage(db, request.query, request.access),
  )

  app.get(
    '/audit.csv',
    {
      schema: {
        'x-permission': 'audit.export',
        summary:
          'The audit log as CSV (UTF-8 with BOM, `;`-separated, pt-BR headers and details), with the same filters',
        description:
          'Permission audit.export, scoped like GET /api/audit. The audit log with the same filters, as a CSV file that Excel with Brazilian settings opens in columns: UTF-8 with a BOM, `;` between fields, headers and details in pt-BR, times in the time zone asked for.',
        security: bearer,
        querystring: AuditCsvQuerySchema,
        produces: ['text/csv'],
        response: {
          200: Type.String({ description: 'CSV, UTF-8 with a byte-order mark' }),
          ...errorAnswers(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { tz = 'UTC', ...filters } = request.query
      if (!isTimeZone(tz)) {
        throw new HttpError(400, 'invalid_input', 'Fuso horário desconhecido.')
      }
      const day = new Date().toISOString().slice(0, 10)
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="auditoria-${day}.csv"`)
          // A stream: Fastify pipes it as it is; the schema's string describes the body's type.
          .send(
            Readable.from(csvChunks(db, filters, tz, labels, request.access), {
              // One piece made ahead, not sixteen: the memory an export holds.
              highWaterMark: 1,
            }) as unknown as string,
          )
      )
    },
  )
})

/**
 * The whole filtered log as CSV text, a chunk of CSV_CHUNK rows at a time, each read from where
 * the last one ended (the same cursor as the pages'). Nothing caps it: a read is bounded, and a
 * chunk is made only when the client has taken the one before (Readable.from's back-pressure).
 */
async function* csvChunks(
  db: Db,
  filters: AuditQuery,
  timeZone: string,
  labels: ProviderLabels,
  access: Access | undefined,
): AsyncGenerator<string> {
  const clock = new CsvClock(timeZone)
  yield CSV_HEAD
  let before = filters.before
  for (;;) {
    const rows = await findAuditRows(db, { ...filters, before }, CSV_CHUNK, access)
    const lines = rows.map((row) => csvLine(toAuditEvent(row), clock, labels))
    yield* inPieces(lines, PIECE_CHARS)
    const last = rows.at(-1)
    if (!last || rows.length < CSV_CHUNK) return
    before = cursorOf({ at: last.at.toISOString(), id: last.id })
    // A turn of the event loop between chunks: the embedded database's reads are synchronous,
    // and a client that takes every chunk at once would otherwise have the stream read the
    // next one straight away, chunk after chunk, with no request of anyone else served between.
    await new Promise((resolve) => setImmediate(resolve))
  }
}
