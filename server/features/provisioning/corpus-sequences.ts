import { readFile } from 'node:fs/promises'
import type { ScimType } from './scim-error'

/**
 * The corpus of request sequences real directories send (corpus/*.json, written from Entra ID's
 * and Okta's SCIM documentation), for a black-box replay against /scim/v2 and for the unit check
 * that every body in it reads (corpus.test.ts).
 *
 * A step's `path` is relative to the SCIM base (`/Users?filter=…`, the query encoded as the
 * directory sends it). Ids are the server's: a step with `saveAs` names the `id` of its answer,
 * and later steps write `{{name}}` where that id goes, in the path or anywhere in the body.
 * `expectScimType` goes with a 400 or 409.
 */

export type CorpusMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface CorpusStep {
  method: CorpusMethod
  path: string
  body?: unknown
  expectStatus: number
  expectScimType?: ScimType
  saveAs?: string
}

export interface CorpusSequence {
  name: string
  steps: CorpusStep[]
}

export interface Corpus {
  /** The documentation the sequences were written from. */
  source: string
  sequences: CorpusSequence[]
}

export const CORPUS_FILES = ['entra-id.json', 'okta.json'] as const

export async function readCorpus(file: (typeof CORPUS_FILES)[number]): Promise<Corpus> {
  return JSON.parse(await readFile(new URL(`./corpus/${file}`, import.meta.url), 'utf8')) as Corpus
}

/** The step with each `{{name}}` replaced by the id saved under that name. */
export function withIds(step: CorpusStep, ids: Record<string, string>): CorpusStep {
  const fill = (text: string) =>
    text.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => ids[name] ?? placeholder)
  const fillAll = (value: unknown): unknown =>
    typeof value === 'string'
      ? fill(value)
      : Array.isArray(value)
        ? value.map(fillAll)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, part]) => [key, fillAll(part)]))
          : value
  return {
    ...step,
    path: fill(step.path),
    ...(step.body !== undefined ? { body: fillAll(step.body) } : {}),
  }
}
