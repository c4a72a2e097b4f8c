import type { AiConfig } from '../../config/config.js';
import type { AiProvider } from './ai-provider.js';
import type { AiSdkProviderOptions } from './ai-sdk-provider.js';
import { createOfflineProvider, type OfflineProviderOptions } from './offline-provider.js';

/** Options for whichever provider the configuration picks. */
export type CreateProviderOptions = AiSdkProviderOptions & OfflineProviderOptions;

/**
 * The server's one provider: the offline drafter when `config.provider` is `offline`, else the AI SDK one.
 * The AI SDK is imported only then: a server that never calls a model does not pay for loading it at start.
 */
export async function createProvider(
  config: AiConfig,
  options: CreateProviderOptions = {},
): Promise<AiProvider> {
  if (config.provider === 'offline')
    return createOfflineProvider(options.label ? { label: options.label } : {});
  const { createAiSdkProvider } = await import('./ai-sdk-provider.js');
  return createAiSdkProvider(config, options);
}
