import { type ProviderInfo, TRANSFORM_ACTIONS } from './ai-provider.js';

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
    // Every action, each saying whether this provider does it and whether it runs without a model.
    actions: TRANSFORM_ACTIONS.map((action) => {
      const available = info.transformActions === undefined || info.transformActions.includes(action);
      return { action, available, offline: info.offline && available };
    }),
  };
}
