/**
 * Where the server answers "I serve requests". In a file of its own so the container's
 * healthcheck can import it without pulling Fastify into a program that runs every 30 seconds.
 */
export const HEALTH_PATH = '/healthz'
