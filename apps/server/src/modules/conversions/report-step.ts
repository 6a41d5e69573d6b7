import type { FastifyRequest } from 'fastify';
import type { StepEvent } from './reports-service.ts';

/**
 * Reports a step of a person to the ad platform of the click that brought them (issue 47.3), after the step
 * itself succeeded: a failure here is logged, never answered (the person's step stands).
 */
export async function reportStep(req: FastifyRequest, event: StepEvent): Promise<void> {
  try {
    await req.server.services.adReports.record(event);
  } catch (err) {
    req.log.error({ err, step: event.step }, 'conversion report not recorded');
  }
}
