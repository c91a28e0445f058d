/**
 * The Media screen (route /studio/:workspace/media): upload by drag and drop or file dialog with
 * per-file progress (roles with media:write), browse the library (search by name or alt text,
 * type and folder filters, grid or list; the same browser the media field pickers use), and open
 * an asset's detail panel (`?asset=<id>`, so a panel can be linked) to rename it, write its alt
 * text, move it to a folder, set its focal point, or delete it after seeing where it is used.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { PageHeader } from '../../components/PageHeader';
import { apiFieldSources } from '../../fields/api-sources';
import { AssetDetail } from './AssetDetail';
import { folderPaths } from './folders';
import { MediaBrowser } from './MediaBrowser';
import { UploadPanel } from './UploadPanel';

export default function MediaLibraryScreen() {
  const { can } = useWorkspace();
  const key = useWsKey();
  const client = useQueryClient();
  const sources = useMemo(() => apiFieldSources(), []);
  const [params, setParams] = useSearchParams();
  const [folder, setFolder] = useState<string | undefined>(undefined);
  const libraryKey = key('media-library');
  const folders = useQuery({ queryKey: [...libraryKey, 'folders'], queryFn: () => sources.mediaFolders!() });
  const paths = folderPaths(folders.data ?? []);
  const refresh = () => void client.invalidateQueries({ queryKey: libraryKey });
  const open = params.get('asset');
  const setOpen = (id: string | null) =>
    setParams(
      (prev) => {
        const nextParams = new URLSearchParams(prev);
        if (id) nextParams.set('asset', id);
        else nextParams.delete('asset');
        return nextParams;
      },
      { replace: !id },
    );

  return (
    <>
      <PageHeader title="Media" description="Images, videos and PDFs of this workspace. Open an asset to edit its alt text, folder and focal point." />
      <MediaBrowser
        sources={sources}
        queryKey={libraryKey}
        itemLabel={(m) => `Open ${m.name ?? m.label}`}
        onActivate={(m) => setOpen(m.id)}
        onFolderChange={setFolder}
      >
        {can('media:write') ? <UploadPanel folder={folder ?? ''} folders={paths} onUploaded={refresh} /> : null}
      </MediaBrowser>
      <AssetDetail
        id={open}
        onClose={() => setOpen(null)}
        folders={paths}
        onChanged={() => {
          refresh();
          void client.invalidateQueries({ queryKey: ['media-asset'] });
        }}
      />
    </>
  );
}
