// DNS-rebinding defence: only loopback Host names, and only loopback (or absent) Origins.
import {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';

const HOSTS = localhostAllowedHostnames();
const ORIGINS = localhostAllowedOrigins();

/** A 403 response when the request's Host or Origin is not loopback; undefined when it may proceed. */
export function refuseForeign(request: Request): Response | undefined {
  return hostHeaderValidationResponse(request, HOSTS) ?? originValidationResponse(request, ORIGINS);
}
