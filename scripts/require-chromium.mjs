import { findChromium, installHint } from './find-chromium.mjs';

if (!findChromium()) {
  console.error(installHint);
  process.exit(1);
}
