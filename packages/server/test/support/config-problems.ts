import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

/** The problems `loadConfig` reports for `env`; fails the test when it reports none. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/planwright');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}
