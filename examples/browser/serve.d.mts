// Declarations of serve.mjs (plain JavaScript, run by node as it is), for TypeScript callers such as the test.

/** Paths proxied to Planwright: the REST API, the allauth sign-in endpoints, the chat socket. */
export declare const PROXIED_PREFIXES: readonly string[];

/** The page's server: `url` is its origin (`http://host:port`). */
export interface EmbeddedSdkServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the built page from `root` and proxies Planwright's paths (HTTP and WebSocket) to `upstream`. */
export declare function startEmbeddedSdkServer(options: {
  root?: string;
  upstream: string;
  /** 0 picks a free port; default 8080. */
  port?: number;
  host?: string;
}): Promise<EmbeddedSdkServer>;
