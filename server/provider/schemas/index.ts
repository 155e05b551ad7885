export * from './common';
export * from './pix';
export * from './transactions';
export * from './company';
