import { createHash } from 'node:crypto';

/** SHA-256 hex of a text (UTF-8): what identifies the exact text of an agreement a person accepted. */
export function textHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}
