import { AGREEMENT_PAGES } from '@lm/shared/channel';
import { describe, expect, it } from 'vitest';
import { loadAgreementText } from './index';

describe('agreement texts', () => {
  it.each(
    AGREEMENT_PAGES.map((p) => [p.key, p.title] as const),
  )('%s has a complete text', async (key, title) => {
    const text = await loadAgreementText(key);
    expect(text.title).toBe(title);
    expect(text.intro.length).toBeGreaterThan(30);
    expect(text.sections.length).toBeGreaterThanOrEqual(4);
    for (const s of text.sections) {
      expect(s.heading).not.toBe('');
      expect(s.paragraphs.length).toBeGreaterThan(0);
    }
    expect(new Set(text.sections.map((s) => s.heading)).size).toBe(text.sections.length);
  });
});
