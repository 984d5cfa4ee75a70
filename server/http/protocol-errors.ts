/**
 * The refusals made at the HTTP level, before any route runs (by Node's parser, its timeouts,
 * Fastify's router and body parser, or the drain), in pt-BR. Codes for any route are in
 * errors.ts; these are the ones only the protocol produces.
 */
const PROTOCOL_ERRORS: Record<number, [code: string, message: string]> = {
  400: ['invalid_input', 'Requisição inválida.'],
  404: ['not_found', 'Recurso não encontrado.'],
  405: ['method_not_allowed', 'Método não permitido.'],
  408: ['request_timeout', 'A requisição demorou demais para chegar. Tente novamente.'],
  413: ['payload_too_large', 'Dados grandes demais.'],
  414: ['uri_too_long', 'Endereço longo demais.'],
  431: ['headers_too_large', 'Cabeçalhos da requisição grandes demais.'],
  500: ['internal_error', 'Erro interno do servidor.'],
  503: ['service_unavailable', 'Serviço indisponível no momento. Tente novamente em instantes.'],
}

/** The standard body (errors.ts's shape; errors.ts imports this file, not the other way). */
export function protocolError(status: number): { error: { code: string; message: string } } {
  const [code, message] = PROTOCOL_ERRORS[status] ?? PROTOCOL_ERRORS[status < 500 ? 400 : 500]!
  return { error: { code, message } }
}
