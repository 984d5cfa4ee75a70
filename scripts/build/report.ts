import { relative } from 'node:path'
import type { CompressedFile } from './compress'

/** Sizes as every table of the build and the bench shows them. */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** The table `npm run build` prints: every output with its raw, gzip and brotli size. */
export function sizeTable(files: readonly CompressedFile[], base: string): string {
  const rows = [...files]
    .sort((a, b) => b.brotli - a.brotli)
    .map((file) => [relative(base, file.path), kb(file.raw), kb(file.gzip), kb(file.brotli)])
  const total = files.reduce(
    (sum, file) => ({
      raw: sum.raw + file.raw,
      gzip: sum.gzip + file.gzip,
      brotli: sum.brotli + file.brotli,
    }),
    { raw: 0, gzip: 0, brotli: 0 },
  )
  return formatTable(
    ['file', 'raw', 'gzip', 'brotli'],
    [...rows, [`total (${files.length} files)`, kb(total.raw), kb(total.gzip), kb(total.brotli)]],
  )
}

/** A plain-text table: first column left-aligned, the others right-aligned. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd()
  const rule = widths.map((width) => '-'.repeat(width)).join('  ')
  return [line(header), rule, ...rows.map(line)].join('\n')
}
