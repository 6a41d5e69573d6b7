import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMatch = vi.fn();
vi.mock('./api/get-match', () => ({ fetchMatch: (key: string) => fetchMatch(key) }));

const { loadLinkedMatch, matchKeyOption } = await import('./linked-match');

const KEY = 'k1.yoGN7ODHTU2Enkre.zkCiBFk8hQUQ5nGjrQ.bV8vULGp0TBAMU2Vyx7mqg';
const SESSION = 'productMatchInfo';

/** A tab's sessionStorage holding `stored` as the match. */
function tab(stored: unknown) {
  const items = new Map<string, string>();
  if (stored !== undefined) items.set(SESSION, JSON.stringify(stored));
  vi.stubGlobal('window', {
    sessionStorage: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => items.set(k, v),
    },
  });
  return items;
}

describe('matchKeyOption', () => {
  it('takes a sealed key and nothing that is not one (a run id, markup, a short or object value)', () => {
    expect(matchKeyOption({ matchKey: KEY })).toBe(KEY);
    expect(matchKeyOption({ matchKey: ` ${KEY} ` })).toBe(KEY);
    for (const bad of ['42', '0000000000000000000042', `${KEY}<script>`, 'k1.a.b', { k: KEY }, null]) {
      expect(matchKeyOption({ matchKey: bad })).toBeNull();
    }
    expect(matchKeyOption({})).toBeNull();
  });
});

describe('loadLinkedMatch (issue 16.8)', () => {
  beforeEach(() => {
    fetchMatch.mockReset();
  });

  it('a key the tab holds: the stored run, no request', async () => {
    const stored = { matchId: 5, matchKey: KEY, id: '1', productName: '星河信用贷' };
    tab(stored);
    expect(await loadLinkedMatch({ matchKey: KEY }, SESSION)).toEqual(stored);
    expect(fetchMatch).not.toHaveBeenCalled();
  });

  it('a key the tab does not hold: loaded from the server and kept', async () => {
    const items = tab({ matchId: 4, matchKey: 'k1.other.run.key-xxxxxxxxxx', id: '9', productName: '旧' });
    const loaded = { matchId: 5, matchKey: KEY, id: '1', productName: '星河信用贷', mayAuthProductList: [] };
    fetchMatch.mockResolvedValue(loaded);
    expect(await loadLinkedMatch({ matchKey: KEY }, SESSION)).toEqual(loaded);
    expect(fetchMatch).toHaveBeenCalledWith(KEY);
    expect(JSON.parse(items.get(SESSION)!)).toEqual(loaded);
  });

  it('a key the server refuses (another person’s): nothing, and the tab keeps what it had', async () => {
    const mine = { matchId: 4, matchKey: 'k1.other.run.key-xxxxxxxxxx', id: '9', productName: '旧' };
    const items = tab(mine);
    fetchMatch.mockRejectedValue(new Error('404 匹配结果不存在'));
    expect(await loadLinkedMatch({ matchKey: KEY }, SESSION)).toBeNull();
    expect(JSON.parse(items.get(SESSION)!)).toEqual(mine);
  });

  it('a partner’s link with the result (rqResult) and no key: that result, as before', async () => {
    tab(undefined);
    const rqResult = { id: '3', productName: '云帆工薪贷' };
    expect(await loadLinkedMatch({ rqResult }, SESSION)).toEqual(rqResult);
    expect(await loadLinkedMatch({}, SESSION)).toBeNull();
    expect(fetchMatch).not.toHaveBeenCalled();
  });
});
