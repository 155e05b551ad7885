/**
 * What the screens of the lazy chunk (views/screens.ts) take from the entry. A chunk imports nothing (the build stops
 * if one does: importing the entry's Lit from a chunk would load the entry a second time under its other name), so
 * the entry hands its Lit and its helpers to the chunk's factory instead, and the chunk's modules import types only.
 */
import { css, html, nothing, svg } from 'lit';
import { PAYER_CPF } from '../../core/methods.js';
import { dateFormat } from '../date-format.js';
import { checkoutDetail, emit } from '../events.js';
import { errorMessage, fill } from '../i18n.js';
import { ptBR } from '../i18n/pt-br.js';
import { METHOD_UI } from '../methods.js';
import { CheckoutApiError, webUrl } from '../api.js';
import { heading, money, renderSpinnerLine, renderSummary } from './common.js';
import { METHOD_MARK, alertIcon, checkIcon, icon } from './icons.js';

export const kit = {
  css,
  html,
  svg,
  nothing,
  PAYER_CPF,
  emit,
  checkoutDetail,
  errorMessage,
  dateFormat,
  fill,
  METHOD_UI,
  heading,
  money,
  renderSummary,
  renderSpinnerLine,
  webUrl,
  CheckoutApiError,
  METHOD_MARK,
  alertIcon,
  checkIcon,
  icon,
  ptBR,
} as const;

export type Kit = typeof kit;
