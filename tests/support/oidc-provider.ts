import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type InteractionResults } from 'oidc-provider';

/** A person the test provider can sign in, with the claims it vouches for. */
export interface TestOidcAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  picture?: string;
}

/** What the provider does at its next login/consent screen: sign someone in, or refuse like a user who clicks Cancel. */
export type NextInteraction = { signInAs: string } | { deny: true };

/** A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1, for one confidential client. */
export interface TestOidcProvider {
  /** `http://127.0.0.1:{port}` */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client with this redirect URI; until then every request answers 503 (not ready). */
  registerClient(redirectUri: string): void;
  addAccount(account: TestOidcAccount): void;
  /** What the next interaction does (the default signs in the last account added). */
  nextInteraction(next: NextInteraction): void;
  /** When true, the ID token carries only `sub`: e-mail and names come from UserInfo (OIDC Core's default). */
  claimsOnlyInUserInfo: boolean;
  /** Interactions seen so far (login and consent screens), to show the test drove them. */
  readonly interactions: string[];
  close(): Promise<void>;
}

/**
 * The provider's storage: a plain Map per provider instance (oidc-provider's own quick-start adapter
 * is one global LRU shared by every instance in the process, and it warns on every start).
 */
function memoryAdapterFactory() {
  const records = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const sessionsByUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const live = (key: string) => {
    const record = records.get(key);
    if (!record) return undefined;
    if (record.expiresAt <= Date.now()) {
      records.delete(key);
      return undefined;
    }
    return record.payload;
  };
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      records.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
      if (this.model === 'Session' && typeof payload.uid === 'string') sessionsByUid.set(payload.uid, id);
      if (typeof payload.userCode === 'string') byUserCode.set(payload.userCode, id);
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      const id = sessionsByUid.get(uid);
      return id ? live(this.key(id)) : undefined;
    }
    async findByUserCode(userCode: string) {
      const id = byUserCode.get(userCode);
      return id ? live(this.key(id)) : undefined;
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      records.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, record] of records) if (record.payload.grantId === grantId) records.delete(key);
    }
  };
}

/**
 * Starts an OpenID Connect provider on 127.0.0.1 (`port`, or a free one) for the client
 * `planwright-test` (`clientSecret`, or a random one). It requires PKCE (S256)
 * and, like Google, puts the e-mail and profile claims in the ID token. Its login and consent screens
 * are a tiny handler that does what the test asked with {@link TestOidcProvider.nextInteraction},
 * so a test drives the whole flow over HTTP with no browser.
 */
export async function startOidcProvider(
  options: { port?: number; clientSecret?: string } = {},
): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503, { 'content-type': 'text/plain' }).end('provider not ready');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'planwright-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const accounts = new Map<string, TestOidcAccount>();
  const interactions: string[] = [];
  let next: NextInteraction | undefined;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const harness: TestOidcProvider = {
    issuer,
    clientId,
    clientSecret,
    claimsOnlyInUserInfo: false,
    interactions,
    addAccount(account) {
      accounts.set(account.sub, account);
      next = { signInAs: account.sub };
    },
    nextInteraction(plan) {
      next = plan;
    },
    registerClient(redirectUri) {
      const provider = new Provider(issuer, {
        adapter: memoryAdapterFactory(),
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        pkce: { methods: ['S256'], required: () => true },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['name', 'given_name', 'family_name', 'picture'],
        },
        // Google puts the scope's claims in the ID token; OIDC Core (and this provider by default) only in UserInfo.
        conformIdTokenClaims: false,
        cookies: { keys: [randomBytes(32).toString('base64url')] },
        jwks: { keys: [{ ...signingKey, kid: 'test-signing-key', use: 'sig', alg: 'RS256' }] },
        features: { devInteractions: { enabled: false } },
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 3600,
          IdToken: 600,
          Interaction: 600,
          Session: 3600,
        },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        findAccount: (_ctx, sub) => {
          const account = accounts.get(sub);
          if (!account) return undefined;
          return {
            accountId: sub,
            claims: (use) => {
              if (use === 'id_token' && harness.claimsOnlyInUserInfo) return { sub };
              const name = [account.given_name, account.family_name].filter(Boolean).join(' ');
              return { ...account, ...(name ? { name } : {}) };
            },
          };
        },
        renderError: (ctx, out) => {
          ctx.type = 'json';
          ctx.body = out;
        },
      });
      provider.use(async (ctx, nextMiddleware) => {
        const match = /^\/interaction\/([\w-]+)$/.exec(ctx.path);
        if (!match || ctx.method !== 'GET') return nextMiddleware();
        const details = await provider.interactionDetails(ctx.req, ctx.res);
        interactions.push(details.prompt.name);
        let result: InteractionResults;
        if (!next || 'deny' in next) {
          result = { error: 'access_denied', error_description: 'The user cancelled the sign-in.' };
        } else if (details.prompt.name === 'login') {
          result = { login: { accountId: next.signInAs } };
        } else {
          const accountId = details.session?.accountId ?? next.signInAs;
          const grant = details.grantId
            ? await provider.Grant.find(details.grantId)
            : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
          if (!grant) throw new Error('the interaction names a grant the provider does not have');
          grant.addOIDCScope(String(details.params.scope));
          const missing = details.prompt.details.missingOIDCClaims;
          if (Array.isArray(missing)) grant.addOIDCClaims(missing as string[]);
          result = { consent: { grantId: await grant.save() } };
        }
        const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, {
          mergeWithLastSubmission: true,
        });
        ctx.status = 303;
        ctx.set('location', returnTo);
      });
      handler = provider.callback();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return harness;
}
