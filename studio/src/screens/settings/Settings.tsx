/**
 * /studio/:workspace/settings/:tab — General (name, preview URL template), Locales, API keys,
 * Webhooks, People, Roles, Workflows and the Audit log (D91, D82, D120, D130, D122). Owners and admins edit; other roles see
 * General, Locales and People read-only and no API keys, Webhooks or Audit log tab (the server
 * refuses those to them anyway).
 */
import { lazy, Suspense } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Tabs } from '@mantine/core';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useWorkspace } from '../../app/workspace';
import { workspaceCan } from '../../api/session';

const GeneralTab = lazy(() => import('./GeneralTab'));
const LocalesTab = lazy(() => import('./LocalesTab'));
const ApiKeysTab = lazy(() => import('./ApiKeysTab'));
const PeopleTab = lazy(() => import('./PeopleTab'));
const WebhooksTab = lazy(() => import('./WebhooksTab'));
const AuditLogTab = lazy(() => import('./AuditLogTab'));
const RolesTab = lazy(() => import('./RolesTab'));
const WorkflowsTab = lazy(() => import('./WorkflowsTab'));

export default function Settings() {
  const { tab } = useParams();
  const navigate = useNavigate();
  const { workspace, administers } = useWorkspace();
  const tabs = [
    { value: 'general', label: 'General', Panel: GeneralTab },
    { value: 'locales', label: 'Locales', Panel: LocalesTab },
    ...(administers
      ? [
          { value: 'api-keys', label: 'API keys', Panel: ApiKeysTab },
          { value: 'webhooks', label: 'Webhooks', Panel: WebhooksTab },
        ]
      : []),
    { value: 'people', label: 'People', Panel: PeopleTab },
    ...(workspaceCan(workspace, 'roles:list') ? [{ value: 'roles', label: 'Roles', Panel: RolesTab }] : []),
    ...(administers ? [{ value: 'workflows', label: 'Workflows', Panel: WorkflowsTab }] : []),
    ...(workspaceCan(workspace, 'audit:read') ? [{ value: 'audit-log', label: 'Audit log', Panel: AuditLogTab }] : []),
  ];
  if (!tabs.some((t) => t.value === tab)) return <Navigate to={`/${workspace.slug}/settings/general`} replace />;
  return (
    <>
      <PageHeader title="Settings" description={administers ? undefined : 'You can read these settings; owners and admins change them.'} />
      <Tabs value={tab} onChange={(v) => v && navigate(`/${workspace.slug}/settings/${v}`)} keepMounted={false}>
        <Tabs.List mb="md">
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((t) => (
          <Tabs.Panel key={t.value} value={t.value}>
            <Suspense fallback={<Loading />}>
              <t.Panel />
            </Suspense>
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
