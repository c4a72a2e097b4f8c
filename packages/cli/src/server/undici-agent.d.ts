// undici 7 ships no declarations beside its lib/ files: its Agent's module exports the Agent class
// (CommonJS `module.exports = Agent`, the default export when imported from ESM).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentClass: typeof Agent;
  export default AgentClass;
}
