import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect } from '@playwright/test'
import { QUICK_POLL_MS } from './quick-poll'
import { e2e } from './test-env'

export interface ReceivedMail {
  subject: string
  text: string
}

/** A single-part text mail as nodemailer writes it: headers, then a quoted-printable or base64 body. */
export function parseMail(raw: string): ReceivedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/)
  const body = rest.join('\n\n')
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.+(?:\\r?\\n[ \\t].+)*)`, 'im')
      .exec(head)?.[1]
      ?.replace(/\r?\n[ \t]/g, ' ')
  // Text and HTML (multipart/alternative): the text part is what a test reads.
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1]
  const textPart = boundary
    ? body.split(`--${boundary}`).find((part) => /content-type:\s*text\/plain/i.test(part))
    : undefined
  if (textPart) {
    return {
      subject: parseMail(`${head}\n\n`).subject,
      text: parseMail(textPart.replace(/^\r?\n/, '')).text,
    }
  }
  const encoding = header('Content-Transfer-Encoding')?.trim().toLowerCase()
  let text: string
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  else if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    text = Buffer.from(bytes, 'latin1').toString('utf8')
  } else text = body
  // RFC 2047 encoded-words in the subject (=?UTF-8?Q?...?=).
  // The white space between two encoded-words is not part of the text (RFC 2047, 6.2).
  const subject = (header('Subject') ?? '')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (__, hex: string) =>
                String.fromCharCode(parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    )
  return { subject, text }
}

/** The mails received so far for an address, oldest first. */
export async function mailsTo(address: string): Promise<ReceivedMail[]> {
  const names = (await readdir(e2e.mailDir))
    .filter((name) => name.endsWith(`-${address}.eml`))
    .sort()
  return Promise.all(
    names.map(async (name) => parseMail(await readFile(join(e2e.mailDir, name), 'utf8'))),
  )
}

/** Waits for the next mail to an address, after `already` mails had arrived. */
export async function waitForMail(address: string, already = 0): Promise<ReceivedMail> {
  await expect
    .poll(async () => (await mailsTo(address)).length, {
      timeout: 10_000,
      intervals: QUICK_POLL_MS,
    })
    .toBeGreaterThan(already)
  const mails = await mailsTo(address)
  return mails[mails.length - 1] as ReceivedMail
}

/** Waits for a mail to an address whose subject matches, whatever else arrives around it. */
export async function waitForMailAbout(address: string, subject: RegExp): Promise<ReceivedMail> {
  await expect
    .poll(async () => (await mailsTo(address)).map((mail) => mail.subject), {
      timeout: 10_000,
      intervals: QUICK_POLL_MS,
    })
    .toContainEqual(expect.stringMatching(subject))
  const mails = await mailsTo(address)
  return mails.find((mail) => subject.test(mail.subject)) as ReceivedMail
}
