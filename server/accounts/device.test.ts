import { describe, expect, it } from 'vitest';
import { deviceLabel, MAX_DEVICE_LENGTH } from './device';

describe('deviceLabel', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128 · Linux'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome 131 · Windows',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge 131 · Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari 17 · iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome 131 · Android',
    ],
    ['curl/8.5.0', 'curl 8'],
    ['something else entirely', 'Outro navegador'],
  ])('names %s as %s', (agent, label) => {
    expect(deviceLabel(agent)).toBe(label);
  });

  it('gives null without a User-Agent, and never more than the longest label', () => {
    expect(deviceLabel(undefined)).toBeNull();
    expect(deviceLabel('   ')).toBeNull();
    expect(deviceLabel(`${'x'.repeat(5000)} Firefox/1`)!.length).toBeLessThanOrEqual(MAX_DEVICE_LENGTH);
  });
});
