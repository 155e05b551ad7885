export { createProviderClient, type ProviderClient, type ProviderClientOptions } from './client';
export { ProviderConfigError, ProviderError, ProviderNetworkError } from './errors';
export * from './schemas';
