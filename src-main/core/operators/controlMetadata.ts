// /control as an OAuth protected resource (RFC 9728) for operators signed in through the team's
// provider: where its metadata lives and what it says. The HTTP edge serves it; `mws login --operator`
// and the desktop console read it to learn where to sign in.

/** /control's metadata path (RFC 9728 §3.1: the well-known prefix, then the resource's path). */
export const CONTROL_METADATA_PATH = '/.well-known/oauth-protected-resource/control';

/**
 * /control's metadata: its resource (the audience operators' tokens name), the provider, and the
 * public client `mws login --operator` signs in with (an extension field: public, as the whole document is).
 */
export function controlMetadataDocument(
  resource: string,
  ops: { issuer: string; scope?: string | undefined; cli?: { clientId: string } | undefined },
): Record<string, unknown> {
  const cliClientId = ops.cli?.clientId;
  return {
    resource,
    authorization_servers: [ops.issuer],
    scopes_supported: (ops.scope ?? 'openid').split(/\s+/).filter(Boolean),
    bearer_methods_supported: ['header'],
    resource_name: 'Working Set · control',
    ...(cliClientId ? { mws_cli_client_id: cliClientId } : {}),
  };
}
