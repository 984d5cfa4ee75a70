import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyRequest } from 'fastify'

/**
 * A browser that opens a path without `#` (`/nao-existe`, a link typed by hand) gets a small
 * page in pt-BR with a way into the panel, not the API's JSON. Everything under /api, and any
 * client that does not prefer HTML (fetch's `*\/*`, API tools), keeps the standard JSON error.
 * No script and no inline style, so the page's CSP holds as it is; the colour scheme follows the
 * system, as the panel's own "auto" does.
 */
export function wantsNotFoundPage(request: FastifyRequest): boolean {
  if (request.url === '/api' || request.url.startsWith('/api/')) return false
  const accept = request.headers.accept
  if (!accept) return false
  return negotiate(accept, ['application/json', 'text/html']) === 'text/html'
}

export const NOT_FOUND_PAGE = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Página não encontrada · Painel</title>
</head>
<body>
<main>
<h1>Página não encontrada</h1>
<p>Este endereço não existe no Painel. As páginas do Painel ficam depois de <code>#</code>, como em <code>/#/login</code>.</p>
<p><a href="/#/">Ir para o Painel</a></p>
</main>
</body>
</html>
`
