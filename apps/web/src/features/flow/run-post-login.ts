/**
 * Runs the post-login decision: asks `decide`, fetches what it needs, asks again. Every fetch that
 * fails (or does not exist yet) counts as "no data" (null). Never rejects: an unexpected error ends at
 * the flow's form.
 */
import type { CreditInfo } from '@lm/shared/credit-info';
import {
  type ApplyStatusFacts,
  type ChannelDetailFacts,
  type DeviceReport,
  decide,
  type FormConfig,
  type LocationFacts,
  type MatchResult,
  type NavigateDecision,
  type Need,
  type PostLoginInput,
} from './decide';

export interface PostLoginDeps {
  channelDetail(adChannelCode: string): Promise<ChannelDetailFacts | null>;
  location(adChannelCode: string): Promise<LocationFacts | null>;
  formConfig(adChannelCode: string): Promise<Partial<FormConfig> | null>;
  creditInfo(): Promise<CreditInfo | null>;
  applyStatus(): Promise<ApplyStatusFacts | null>;
  rematch(adChannelCode: string): Promise<MatchResult | null>;
  reportDevice(body: DeviceReport): Promise<unknown>;
  log?(message: string, detail?: unknown): void;
}

/** More rounds than any branch needs (at most 5 fetches); guards against a decision that loops. */
const MAX_ROUNDS = 10;

function fetchNeed(what: Need, input: PostLoginInput, deps: PostLoginDeps): Promise<unknown> {
  const code = input.channel.adChannelCode;
  switch (what) {
    case 'channelDetail':
      return deps.channelDetail(code);
    case 'location':
      return deps.location(code);
    case 'formConfig':
      return deps.formConfig(code);
    case 'creditInfo':
      return deps.creditInfo();
    case 'applyStatus':
      return deps.applyStatus();
    case 'rematch':
      return deps.rematch(code);
  }
}

export async function runPostLogin(input: PostLoginInput, deps: PostLoginDeps): Promise<NavigateDecision> {
  let state = input;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const decision = decide(state);
      if (decision.kind === 'navigate') {
        if (decision.reportDevice) {
          await deps.reportDevice(decision.reportDevice).catch((error: unknown) => {
            deps.log?.('reportDevice failed', error);
          });
        }
        deps.log?.(`post-login: ${decision.step}`);
        return decision;
      }
      if (state[decision.what] !== undefined) throw new Error(`decision asked again for ${decision.what}`);
      let value: unknown = null;
      try {
        value = (await fetchNeed(decision.what, state, deps)) ?? null;
      } catch (error) {
        deps.log?.(`${decision.what} unavailable; treated as no data`, error);
      }
      state = { ...state, [decision.what]: value };
    }
    throw new Error('post-login decision did not settle');
  } catch (error) {
    deps.log?.('post-login decision failed; going to the form', error);
    return { kind: 'navigate', step: 'fallback: form', path: input.channel.flowRoutes.form, replace: false };
  }
}
