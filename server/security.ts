import helmet from '@fastify/helmet'
import fp from 'fastify-plugin'

export interface SecurityOptions {
  /** Behind HTTPS: send HSTS and ask browsers to upgrade any stray http:// sub-request. */
  https: boolean
}

/**
 * Security headers on every response. The client is built so that it needs nothing inline:
 * the colour-mode boot script is an external file, styles come from the bundled stylesheet, and
 * CoreUI's icons in that stylesheet are data: URLs (hence img-src data:).
 */
export const contentSecurityPolicy = (https: boolean) => ({
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'manifest-src': ["'self'"],
    'worker-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  },
})

export default fp<SecurityOptions>(
  async (app, options) => {
    await app.register(helmet, {
      contentSecurityPolicy: contentSecurityPolicy(options.https),
      // HSTS over plain HTTP is ignored by browsers and misleading to readers of the headers.
      strictTransportSecurity: options.https
        ? { maxAge: 31_536_000, includeSubDomains: true }
        : false,
      // The panel is never framed (frame-ancestors above); this is the same rule for old browsers.
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
    })
  },
  { name: 'security' },
)
