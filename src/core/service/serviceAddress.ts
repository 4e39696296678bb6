// Where a repository's service listens: a Unix domain socket named after the store folder's real path,
// in a folder only this user can open. Sockets are not kept in the store folder itself: a path there
// can exceed the 107 bytes a socket path may have, and network or container-mounted folders may not
// hold sockets at all. The folder's permissions are the access control: a socket file has none of its
// own that every platform honours, and Node cannot read a peer's credentials.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Overrides the sockets' folder (tests, and users whose $XDG_RUNTIME_DIR and /tmp are unusable). */
export const SERVICE_DIR_ENV = 'CARTOGRAPH_SERVICE_DIR';
const SOCKET_SUFFIX = '.sock';

export function serviceDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env[SERVICE_DIR_ENV]) return path.resolve(env[SERVICE_DIR_ENV]!);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'cartograph');
  return path.join(os.tmpdir(), `cartograph-${os.userInfo().uid}`);
}

/**
 * Makes the sockets' folder (mode 0700) and checks that it is ours and closed to others: a folder
 * someone else made in /tmp first could hand our clients their socket.
 */
export function ensureServiceDir(dir = serviceDir()): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to another user (uid ${stat.uid}); set ${SERVICE_DIR_ENV} to a folder of yours`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
}

/** The socket of the service that owns `storeDir` (the same folder through any path or symlink gets the same socket). */
export function socketPath(storeDir: string, dir = serviceDir()): string {
  let real: string;
  try {
    real = fs.realpathSync(storeDir);
  } catch {
    real = path.resolve(storeDir);
  }
  return path.join(dir, `${createHash('sha256').update(real).digest('hex').slice(0, 24)}${SOCKET_SUFFIX}`);
}

/** Every socket in the folder (services running, or left by one that was killed). */
export function listSockets(dir = serviceDir()): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(SOCKET_SUFFIX)).map((n) => path.join(dir, n));
}
