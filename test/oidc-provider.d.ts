/** Minimal types of oidc-provider (the OpenID provider the single sign-on suites run on loopback; it ships none). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ProviderAccount {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    findAccount?: (ctx: unknown, id: string) => ProviderAccount | undefined | Promise<ProviderAccount | undefined>;
    pkce?: { required?: () => boolean };
    cookies?: { keys?: string[] };
    features?: Record<string, { enabled: boolean }>;
    ttl?: Record<string, number>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
