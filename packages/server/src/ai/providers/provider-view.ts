import type { ProviderInfo } from './ai-provider.js';

/** Who answered, as every AI answer carries it (`provider` in transforms and chat frames). */
export function providerSummary(info: ProviderInfo) {
  return { name: info.name, model: info.model, label: info.label, offline: info.offline };
}

/** Who answers and what it can do, as `GET apps/ai/provider/` and the context inspector show it. */
export function providerView(info: ProviderInfo) {
  return {
    ...providerSummary(info),
    supports: {
      web_access: info.supports.webAccess,
      research: info.supports.research,
      tools: info.supports.tools,
    },
  };
}
