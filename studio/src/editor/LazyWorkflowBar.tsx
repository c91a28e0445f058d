/**
 * The review workflow panel, loaded only for items a workflow covers: editors of items without
 * one never download it (docs/studio.md "Review workflows").
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const WorkflowBarImpl = lazy(async () => ({ default: (await import('./WorkflowBar')).WorkflowBar }));

export function LazyWorkflowBar(props: ComponentProps<typeof WorkflowBarImpl>) {
  return (
    <Suspense fallback={null}>
      <WorkflowBarImpl {...props} />
    </Suspense>
  );
}
