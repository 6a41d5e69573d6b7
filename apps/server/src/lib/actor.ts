import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { staff } from '../db/schema.ts';

/**
 * Who acts on a service (issue 18: services take this, not a `FastifyRequest`): the signed-in staff member, or
 * nobody (the system, a visitor, a login lock), and the address the request came from (as the trusted-proxy
 * rules read it). Audit entries are written from it.
 */
export interface Actor {
  readonly staff: Readonly<Pick<typeof staff.$inferSelect, 'id' | 'name' | 'role'>> | null;
  readonly ip: string;
  /** The request's logger (its lines carry the request id); none for the system acting on its own. */
  readonly log?: FastifyBaseLogger;
}

/** The actor of a request: its staff member (console routes) or nobody. */
export function actorOf(
  req: Pick<FastifyRequest, 'ip' | 'staffMember'> & { log?: FastifyBaseLogger },
): Actor {
  const s = req.staffMember;
  return { staff: s ? { id: s.id, name: s.name, role: s.role } : null, ip: req.ip, log: req.log };
}

/** The system acting on its own, for a request from `ip` (e.g. a login lock after wrong passwords). */
export function systemActor(ip: string): Actor {
  return { staff: null, ip };
}
