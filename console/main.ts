/** Entry of the console's page (`/admin`, built by scripts/build-console.mjs): defines `<bo-app>` and every element it uses. */
import './app/bo-app';
