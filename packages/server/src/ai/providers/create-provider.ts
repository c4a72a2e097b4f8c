import type { AiConfig } from '../../config/config.js';
import type { AiProvider } from './ai-provider.js';
import { type AiSdkProviderOptions, createAiSdkProvider } from './ai-sdk-provider.js';
import { createOfflineProvider, type OfflineProviderOptions } from './offline-provider.js';

/** Options for whichever provider the configuration picks. */
export type CreateProviderOptions = AiSdkProviderOptions & OfflineProviderOptions;

/** The server's one provider: the offline drafter when `config.provider` is `offline`, else the AI SDK one. */
export function createProvider(config: AiConfig, options: CreateProviderOptions = {}): AiProvider {
  if (config.provider === 'offline')
    return createOfflineProvider(options.label ? { label: options.label } : {});
  return createAiSdkProvider(config, options);
}
