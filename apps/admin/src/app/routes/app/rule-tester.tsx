import { Alert, Typography } from 'antd';
import { useRunRuleTest } from '@/features/rule-tester/api/run-rule-test';
import { ProfileForm } from '@/features/rule-tester/components/profile-form';
import { TestResult } from '@/features/rule-tester/components/test-result';

/** 规则测试: a sample applicant → which products match and why each other one does not. */
export function RuleTesterRoute() {
  const run = useRunRuleTest();
  return (
    <>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        规则测试
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        填写一位样例用户的申请资料，查看会匹配到哪些产品，以及其他产品为什么没有匹配。
      </Typography.Paragraph>
      <ProfileForm loading={run.isPending} onSubmit={(body) => run.mutate(body)} />
      {run.isError && <Alert type="error" showIcon message="测试失败" description={run.error.message} />}
      {run.data && <TestResult data={run.data} />}
    </>
  );
}
