/** A browser's User-Agent as sent, for the tests of what the panel says of it ("Firefox no Linux"). */
export const FIREFOX_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
