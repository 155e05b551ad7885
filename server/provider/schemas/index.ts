export * from './common';
export * from './pix';
export * from './company';
