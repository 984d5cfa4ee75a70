import { Type } from 'typebox'
import { AuditCsvQuerySchema, AuditPageSchema, AuditQuerySchema } from '../../../common/api/audit'
import { errorAnswers } from '../../../common/api/errors'
import { guardedRoutes, signedIn } from '../../access/guarded-routes'
import { HttpError } from '../../http/errors'
import { auditCsv, isTimeZone } from './audit-csv'
import { auditPage, findAuditEvents } from '../../audit-log/audit-query'
import { providerLabels } from '../../../common/provider-labels'

const bearer = [{ bearer: [] }]

/** The most rows one CSV holds; narrow the filters for more. */
export const CSV_MAX_ROWS = 50_000

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
      const events = await findAuditEvents(db, filters, CSV_MAX_ROWS, request.access)
      const day = new Date().toISOString().slice(0, 10)
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="auditoria-${day}.csv"`)
        .send(auditCsv(events, tz, labels))
    },
  )
})
