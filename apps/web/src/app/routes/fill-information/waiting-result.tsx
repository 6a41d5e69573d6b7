import { useEffect } from 'react';
import { ProgressPage } from '@/components/progress-page';
import type { AutoFormFacts } from '@/features/application-form/auto-form';
import { useAutoFormStore } from '@/features/application-form/auto-form-store';
import { fetchExcludeCity } from '@/features/location/api/fetch-exclude-city';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { fetchChannelDetail } from '@/lib/channel/api/fetch-channel-detail';
import { useChannelStore } from '@/lib/channel/store';

/**
 * The facts of isUseful: the fresh link type and excluded cities (GET /api/getAdChannel, else the
 * cached h5Config) and the person's city located by IP (GET /api/third/baiduMap/excludeCity without
 * coordinates: no location permission is asked for a form the person fills in anyway).
 */
async function autoFormFacts(): Promise<AutoFormFacts> {
  const { adChannelCode, config } = useChannelStore.getState();
  const code = adChannelCode || config.adChannelCode;
  const [detail, located] = await Promise.allSettled([
    code ? fetchChannelDetail(code) : Promise.reject(new Error('no channel code')),
    fetchExcludeCity(code ? { adChannelCode: code } : {}),
  ]);
  const channel = detail.status === 'fulfilled' ? detail.value : null;
  const city = located.status === 'fulfilled' ? located.value : null;
  return {
    flags: config.flags,
    linkType: channel?.linkType ?? config.linkType,
    excludeCityCodes: channel?.excludeCityCodes ?? config.excludeCityCodes,
    cityCode: city?.cityCode ?? null,
    cityExcluded: city?.excludeCity === true || city?.excludeCity === 1,
  };
}

/**
 * `/fill-information/waiting-result`: the automatic form (spec §4, Haier). The answers are prepared
 * here (isUseful, then random pre-selected options) and then SHOWN on the flow's form for the person
 * to confirm or change — nothing is submitted unseen, and name, ID and city are typed by the person.
 */
export function WaitingResultRoute() {
  const go = useDelayedNavigate();
  const form = useChannelStore((s) => s.config.flowRoutes.form);
  const status = useAutoFormStore((s) => s.status);

  useEffect(() => {
    const store = useAutoFormStore.getState();
    // A fresh visit prepares fresh answers (an earlier, unsubmitted preparation is dropped).
    if (store.status === 'success' || store.status === 'failed') store.resetForm();
    void useAutoFormStore.getState().prepare({ facts: autoFormFacts });
  }, []);

  const prepared = status === 'success' || status === 'failed';
  useEffect(() => {
    // On once the answers are prepared (issue 44.13: no fixed minimum), after the navigation delay.
    if (prepared) go(form, { replace: true });
  }, [prepared, form, go]);

  return (
    <ProgressPage
      title="正在为您准备申请资料"
      subtitle="稍后请您逐项核对资料，确认无误后再提交"
      steps={['读取账户信息', '生成申请资料', '等待您确认']}
      done={prepared}
    />
  );
}
