import { describe, expect, it } from 'vitest';
import { escapeStoreKeyPart, exchangePaceKey, quotaKey } from './store-keys.js';
import { tokenStoreKey } from './token-manager.js';

describe('store keys', () => {
  it('escape each part by one rule: % and the key’s separators as %XX', () => {
    expect(escapeStoreKeyPart('a%b|c#d{e}', /[%|#]/g)).toBe('a%25b%7Cc%23d{e}');
    expect(escapeStoreKeyPart('a%b|c#d{e}', /[%|#{}]/g)).toBe('a%25b%7Cc%23d%7Be%7D');
  });

  it('keep the formats already in shared stores (token v2, quota v1, exchange pace v1)', () => {
    expect(tokenStoreKey('https://api.example.com:8443/x', 'a|b', 'c#d', 'e%f{g}')).toBe(
      'im-openapi:app-token:v2:https://api.example.com:8443/x|a%7Cb#c%23d|e%25f{g}',
    );
    expect(quotaKey('https://api.example.com', 'o{x}', 'p|q')).toBe(
      'im-openapi:quota:v1:{https://api.example.com|o%7Bx%7D#p%7Cq}',
    );
    expect(exchangePaceKey('host{1}')).toBe('im-openapi:exchange-pace:v1:{host_1_}');
  });

  it('never let a separator in a name make two apps share a key', () => {
    expect(tokenStoreKey('u', 'o', 'p|q', 'r')).not.toBe(tokenStoreKey('u', 'o', 'p', 'q|r'));
    expect(quotaKey('u', 'a#b', 'c')).not.toBe(quotaKey('u', 'a', 'b#c'));
    expect(quotaKey('u', 'a}b', 'c')).not.toBe(quotaKey('u', 'a', '}b#c'));
  });
});
