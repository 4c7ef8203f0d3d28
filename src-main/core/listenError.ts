// Why the listener could not open, in one sentence with what to do (the listener itself names a taken port).
import { MwsError } from './errors.js';

export function listenError(host: string, port: number, err: unknown): MwsError {
  if (err instanceof MwsError) return err;
  const e = err as NodeJS.ErrnoException;
  const at = `${host}:${port}`;
  if (e.code === 'EACCES' || e.code === 'EPERM')
    return new MwsError(
      'listen_refused',
      `Cannot listen on ${at}: ports below 1024 need administrator rights. Use a port from 1024 to 65535 ("listen.port" or --port).`,
      { host, port },
    );
  if (e.code === 'EADDRNOTAVAIL')
    return new MwsError(
      'listen_refused',
      `Cannot listen on ${at}: this machine has no address ${host}. Use 127.0.0.1 or ::1 in "listen.host".`,
      { host, port },
    );
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return new MwsError(
      'listen_refused',
      `Cannot listen on ${at}: the name ${host} does not resolve here. Use 127.0.0.1 or ::1 in "listen.host".`,
      { host, port },
    );
  if (e.code === 'EADDRINUSE')
    return new MwsError('listen_refused', `Port ${port} on ${host} is already in use. Stop the other process or pass --port.`, {
      host,
      port,
    });
  return new MwsError('listen_refused', `Cannot listen on ${at}: ${e.code ?? e.message}.`, { host, port });
}
