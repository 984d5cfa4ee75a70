import fp from 'fastify-plugin'

/**
 * The server's part in a graceful shutdown. Fastify already answers 503 to requests that arrive
 * while it closes, and Node closes idle keep-alive connections when the close begins. What is
 * left are the connections busy at that moment: after their response they would stay open until
 * the keep-alive timeout (72 s), holding the process past any sensible grace period. Telling the
 * client `Connection: close` on those last responses lets them end at once.
 */
export default fp(
  async (app) => {
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close')
      done(null, payload)
    })
  },
  { name: 'graceful-close' },
)
