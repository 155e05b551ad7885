/** Entry of the back-office page (`/assets/backoffice.js`): defines `<bo-app>` and every element it uses. */
import './app/bo-app';
