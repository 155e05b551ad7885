import { expect, fixture, html } from '@open-wc/testing';
import { maskCpfInput } from './cpf-input.js';

describe('maskCpfInput', () => {
  it('keeps the caret after the same digit when a CPF is edited in the middle', async () => {
    const input = await fixture<HTMLInputElement>(html`<input />`);
    input.value = '529.98224725';
    input.setSelectionRange(6, 6);
    expect(maskCpfInput(input)).to.equal('529.982.247-25');
    expect(input.selectionStart).to.equal(6);
  });
});
