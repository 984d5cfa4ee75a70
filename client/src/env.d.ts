/** Replaced at build time: true in `npm run dev`, false in the production build. */
declare const __DEV__: boolean

/** package.json's version, put in at build time (shown in the footer). */
declare const __APP_VERSION__: string

/** Stylesheets are bundled by esbuild; importing one only has that effect. */
declare module '*.css'
