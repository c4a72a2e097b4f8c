import { startPostgres, type TestPostgres } from './postgres.js';

let postgres: TestPostgres | undefined;

/**
 * The integration-postgres project's global setup: one PostgreSQL for the whole run (TEST_DATABASE_URL
 * when given, else a throwaway Debian cluster), handed to the test files as TEST_DATABASE_URL; every
 * test server makes its own database there.
 */
export async function setup(): Promise<void> {
  postgres = await startPostgres();
  // Workers are started after global setup and inherit this process's environment.
  process.env.TEST_DATABASE_URL = postgres.adminUrl;
}

export async function teardown(): Promise<void> {
  await postgres?.stop();
}
