// The pure parts of agent sign-in: which paths are an endpoint's metadata, the challenge a 401
// carries, and what the config accepts as an issuer.
import { describe, expect, it } from 'vitest';
import { challenge, metadataAgentOf, metadataUrl, resourceUrl } from '../../../src-main/core/http/protectedResource.js';
import { validateConfig } from '../../../src-main/core/config/validate.js';
import { tempDir } from '../../helpers/app.js';

describe('protected-resource metadata paths', () => {
  it('name the endpoint they describe, in each form the endpoint is served under', () => {
    expect(metadataAgentOf('/.well-known/oauth-protected-resource/mcp')).toBe('default');
    expect(metadataAgentOf('/.well-known/oauth-protected-resource/mcp/team')).toBe('team');
    expect(metadataAgentOf('/.well-known/oauth-protected-resource/mcp/team/mcp')).toBe('team');
    expect(metadataAgentOf('/.well-known/oauth-protected-resource')).toBeNull();
    expect(metadataAgentOf('/.well-known/oauth-protected-resource/ui')).toBeNull();
    expect(metadataAgentOf('/.well-known/oauth-protected-resource/mcp/%E0%A4%A')).toBeNull();
    expect(metadataAgentOf('/mcp/team')).toBeUndefined();
    expect(resourceUrl('https://mws.example', 'team')).toBe('https://mws.example/mcp/team');
    expect(metadataUrl('https://mws.example', 'default')).toBe('https://mws.example/.well-known/oauth-protected-resource/mcp');
  });

  it('make a challenge no quote or line break can escape', () => {
    expect(challenge({})).toBe('Bearer realm="Working Set"');
    const c = challenge({ metadata: 'https://m/x', error: 'invalid_token', description: 'bad "quote"\r\nSet-Cookie: x=1' });
    expect(c).toBe('Bearer resource_metadata="https://m/x", error="invalid_token", error_description="bad  quote   Set-Cookie: x=1"');
  });
});

describe('an agent signed in through an authorization server, in the config', () => {
  const config = (auth: unknown) => () => validateConfig({ agents: [{ id: 'team', auth }] }, tempDir());
  it('takes an https issuer, or http on loopback', () => {
    expect(config({ issuer: 'https://login.example.com/realms/team' })().agents[1]!.auth?.issuer).toBe(
      'https://login.example.com/realms/team',
    );
    expect(config({ issuer: 'http://127.0.0.1:8080' })).not.toThrow();
  });
  it('refuses plain http to another host, user info, and a missing issuer, with sentences', () => {
    expect(config({ issuer: 'http://login.example.com' })).toThrow(/must use https \(http only on loopback\)/);
    expect(config({ issuer: 'https://u:p@login.example.com' })).toThrow(/without user info/);
    expect(config({})).toThrow(/issuer/);
  });
});
