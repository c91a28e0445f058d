/**
 * The Studio's routes (contract "Studio URLs"), under the basename /studio. Every screen is its
 * own chunk (React.lazy), so the first load carries only the shell; the entries screens come
 * from studio/src/screens/entries/ (default exports).
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, useParams } from 'react-router';
import { Loading } from '../components/Loading';
import { RootRedirect } from './RootRedirect';
import { RouteError } from './RouteError';
import { WorkspaceLayout } from './WorkspaceLayout';

const SignIn = lazy(() => import('../screens/auth/SignIn'));
const Setup = lazy(() => import('../screens/auth/Setup'));
const Home = lazy(() => import('../screens/home/Home'));
const ModelList = lazy(() => import('../screens/model/ModelList'));
const TypeEditor = lazy(() => import('../screens/model/TypeEditor'));
const Settings = lazy(() => import('../screens/settings/Settings'));
const EntriesList = lazy(() => import('../screens/entries/EntriesList'));
const EntryEditor = lazy(() => import('../screens/entries/EntryEditor'));
const PagesList = lazy(() => import('../screens/pages/PagesList'));
const PageEditor = lazy(() => import('../screens/pages/PageEditor'));
const MediaLibrary = lazy(() => import('../screens/media/MediaLibrary'));
const ReleasesList = lazy(() => import('../screens/releases/ReleasesList'));
const ReleaseDetail = lazy(() => import('../screens/releases/ReleaseDetail'));
// GraphiQL and its editor load only with this screen (docs/studio.md "GraphQL explorer").
const ApiExplorer = lazy(() => import('../screens/graphql/ApiExplorer'));
const NotFound = lazy(() => import('./NotFound'));

function page(Screen: LazyExoticComponent<ComponentType>) {
  return (
    <Suspense fallback={<Loading />}>
      <Screen />
    </Suspense>
  );
}

/** Remounts the editor per entry, so the state of one entry never leaks into the next. */
function KeyedEntryEditor() {
  const { type, entry } = useParams();
  return (
    <Suspense fallback={<Loading />}>
      <EntryEditor key={`${type}/${entry ?? 'new'}`} />
    </Suspense>
  );
}

/** Remounts the page editor per page (a rename navigates to the new slug). */
function KeyedPageEditor() {
  const { slug } = useParams();
  return (
    <Suspense fallback={<Loading />}>
      <PageEditor key={slug} />
    </Suspense>
  );
}

export function createStudioRouter() {
  return createBrowserRouter(
    [
      { path: '/', element: <RootRedirect />, errorElement: <RouteError /> },
      { path: '/sign-in', element: page(SignIn), errorElement: <RouteError /> },
      { path: '/setup', element: page(Setup), errorElement: <RouteError /> },
      {
        path: '/:workspace',
        element: <WorkspaceLayout />,
        errorElement: <RouteError />,
        children: [
          { index: true, element: page(Home) },
          { path: 'model', element: page(ModelList) },
          { path: 'model/:type', element: page(TypeEditor) },
          { path: 'content/:type', element: page(EntriesList) },
          { path: 'content/:type/new', element: <KeyedEntryEditor /> },
          { path: 'content/:type/:entry', element: <KeyedEntryEditor /> },
          { path: 'pages', element: page(PagesList) },
          { path: 'pages/:slug', element: <KeyedPageEditor /> },
          { path: 'media', element: page(MediaLibrary) },
          { path: 'releases', element: page(ReleasesList) },
          { path: 'releases/:id', element: page(ReleaseDetail) },
          { path: 'graphql', element: page(ApiExplorer) },
          { path: 'settings', element: <Navigate to="general" replace /> },
          { path: 'settings/:tab', element: page(Settings) },
          { path: '*', element: page(NotFound) },
        ],
      },
    ],
    { basename: '/studio' },
  );
}
