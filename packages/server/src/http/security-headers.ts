import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** Where the policy's parts come from: the public address and the built web app. */
export interface SecurityHeaderOptions {
  /** PUBLIC_URL: its origin (and ws/wss twin) is what the page may connect to; https turns on HSTS. */
  publicUrl: string;
  /** The built web app; the hashes of its inline scripts (the theme script) are allowed, nothing else inline. */
  webDir: string;
}

/** The Stripe pricing table the pricing page embeds (a script and the iframe it opens). */
const STRIPE_JS = 'https://js.stripe.com';

/** The `'sha256-…'` source of every inline `<script>` (one without `src`) in `html`. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '')) continue;
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(match[2] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

/** The Content-Security-Policy of the web app's pages. */
export function pagePolicy(options: SecurityHeaderOptions): string {
  const indexPath = join(options.webDir, 'index.html');
  const hashes = existsSync(indexPath) ? inlineScriptHashes(readFileSync(indexPath, 'utf8')) : [];
  const origin = new URL(options.publicUrl);
  // Browsers differ on whether 'self' covers ws(s): name PUBLIC_URL's socket origin as well.
  const socketOrigin = `${origin.protocol === 'https:' ? 'wss' : 'ws'}://${origin.host}`;
  return [
    "default-src 'self'",
    `script-src 'self' ${[...hashes, STRIPE_JS].join(' ')}`,
    // Tiptap injects its base stylesheet as a <style> element; inline styles cannot run script.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${socketOrigin}`,
    `frame-src ${STRIPE_JS}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The reader pages of share links (`/s/{token}`): their own stylesheet and script only, no inline style or script,
 * forms only to themselves, reports only to themselves.
 */
export const SHARE_PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Answers that are not pages (JSON, files, assets) may load nothing and be framed by no one. */
const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'usb=()',
  'serial=()',
  'bluetooth=()',
  'hid=()',
  'midi=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'interest-cohort=()',
  'browsing-topics=()',
].join(', ');

/**
 * Security headers on every answer (docs/security.md): a CSP for pages that allows only the app's own
 * scripts (plus the hashed theme script), a locked-down CSP for everything else, no framing, nosniff,
 * a referrer policy, a permissions policy, COOP/CORP, and HSTS when PUBLIC_URL is https.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const policy = pagePolicy(options);
  const https = new URL(options.publicUrl).protocol === 'https:';
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    // A page with a policy of its own (the share reader's, stricter) keeps it.
    if (!reply.hasHeader('content-security-policy'))
      reply.header('content-security-policy', type.startsWith('text/html') ? policy : NON_PAGE_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('referrer-policy'))
      reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    reply.header('origin-agent-cluster', '?1');
    reply.header('x-permitted-cross-domain-policies', 'none');
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    return payload;
  });
}
