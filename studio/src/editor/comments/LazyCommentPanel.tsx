/**
 * The comment panel, loaded when it first opens: its drawer, threads and mention box stay out of
 * the editors' first load (docs/studio.md "Comments, notifications and who else is here"). Closed
 * before it ever opened, it renders nothing; once loaded it stays mounted, so it closes animated.
 */
import { lazy, Suspense, useState, type ComponentProps } from 'react';

const CommentPanelImpl = lazy(async () => ({ default: (await import('./CommentPanel')).CommentPanel }));

export function LazyCommentPanel(props: ComponentProps<typeof CommentPanelImpl>) {
  const [loaded, setLoaded] = useState(false);
  if (props.opened && !loaded) setLoaded(true);
  if (!props.opened && !loaded) return null;
  return (
    <Suspense fallback={null}>
      <CommentPanelImpl {...props} />
    </Suspense>
  );
}
