/**
 * The focal point of an image: set by clicking the image (a marker shows it), or with the two
 * number inputs (arrow keys step them by 1 %), and three crop previews (1:1, 16:9, 4:5). The
 * previews are the server's `fit=cover` crops of the saved point (docs/media.md), fetched again
 * whenever the saved point changes (a crop URL keeps its address when the point moves, and the
 * browser caches it as immutable); an unsaved point is previewed by the same cut made in CSS.
 */
import { useEffect, useState } from 'react';
import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import type { MediaAsset } from '../../api/types';
import { clampUnit, coverPosition, CROPS, cropUrl, type Focal } from './focal';

const PICKER_WIDTH = 640;

/** An image URL to show in the picker: a transform no wider than the picker (SVG as is). */
function pickerSrc(asset: MediaAsset): string {
  return asset.mime_type === 'image/svg+xml' ? asset.url : `${asset.url}?w=${PICKER_WIDTH}`;
}

/** One coordinate in percent (0–100; the arrow keys step by 1). */
function AxisInput({ label, value, onChange, readOnly }: { label: string; value: number | ''; onChange: (v: string | number) => void; readOnly?: boolean }) {
  return (
    <NumberInput
      label={label}
      value={value}
      onChange={onChange}
      min={0}
      max={100}
      step={1}
      decimalScale={1}
      clampBehavior="strict"
      readOnly={readOnly}
      w={200}
    />
  );
}

export interface FocalPointProps {
  asset: MediaAsset;
  /** the point being edited; null: none (the centre is used) */
  value: Focal | null;
  onChange: (next: Focal | null) => void;
  readOnly?: boolean;
}

export function FocalPointEditor({ asset, value, onChange, readOnly }: FocalPointProps) {
  const percent = (v: number | undefined) => (v === undefined ? '' : Math.round(v * 1000) / 10);
  const setAxis = (axis: 'x' | 'y', raw: string | number) => {
    const n = typeof raw === 'number' ? raw : Number.parseFloat(raw);
    if (!Number.isFinite(n)) return;
    const base = value ?? { x: 0.5, y: 0.5 };
    onChange({ ...base, [axis]: clampUnit(n / 100) });
  };
  return (
    <Stack gap="xs">
      <div style={{ position: 'relative', display: 'inline-block', maxWidth: '100%', alignSelf: 'flex-start', cursor: readOnly ? undefined : 'crosshair' }}>
        <img
          src={pickerSrc(asset)}
          alt={asset.alt_text || asset.original_name}
          data-testid="focal-image"
          style={{ display: 'block', maxWidth: '100%', maxHeight: 360, borderRadius: 4 }}
          draggable={false}
          onClick={(e) => {
            if (readOnly) return;
            const box = e.currentTarget.getBoundingClientRect();
            if (!box.width || !box.height) return;
            onChange({ x: clampUnit((e.clientX - box.left) / box.width), y: clampUnit((e.clientY - box.top) / box.height) });
          }}
        />
        {value ? (
          <span
            aria-hidden
            style={{
              position: 'absolute',
              left: `${value.x * 100}%`,
              top: `${value.y * 100}%`,
              width: 22,
              height: 22,
              marginLeft: -11,
              marginTop: -11,
              borderRadius: '50%',
              border: '3px solid white',
              boxShadow: '0 0 0 2px rgba(0,0,0,.75)',
              pointerEvents: 'none',
            }}
          />
        ) : null}
      </div>
      {!readOnly ? (
        <Text size="xs" c="dimmed">
          Click the image where the subject is; crops keep that point in view.
        </Text>
      ) : null}
      <Group gap="sm" align="flex-end">
        <AxisInput label="Focal point from the left (%)" value={percent(value?.x)} onChange={(v) => setAxis('x', v)} readOnly={readOnly} />
        <AxisInput label="Focal point from the top (%)" value={percent(value?.y)} onChange={(v) => setAxis('y', v)} readOnly={readOnly} />
        {!readOnly && value ? (
          <Button variant="subtle" size="xs" onClick={() => onChange(null)}>
            Clear focal point
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

/** The server crop of `src`, fetched anew for each `version` (the URL stays, the bytes change). */
function useFreshImage(src: string, version: string): string | null {
  const [blobUrl, setBlobUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function' || typeof fetch !== 'function') return;
    let url: string | null = null;
    let live = true;
    void fetch(src, { cache: 'reload', credentials: 'same-origin' })
      .then((r) => (r.ok ? r.blob() : null))
      .then((blob) => {
        if (!live || !blob) return;
        url = URL.createObjectURL(blob);
        setBlobUrl(url);
      })
      .catch(() => {});
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [src, version]);
  return blobUrl;
}

function ServerCrop({ asset, w, h, name, height }: { asset: MediaAsset; w: number; h: number; name: string; height: number }) {
  const src = cropUrl(asset.url, w, h);
  const fresh = useFreshImage(src, `${asset.focal_x},${asset.focal_y},${asset.updated_at}`);
  return (
    <img
      src={fresh ?? src}
      alt={`${name} crop`}
      data-crop={name}
      data-src={src}
      style={{ display: 'block', height, width: (height * w) / h, objectFit: 'cover', borderRadius: 4 }}
    />
  );
}

function DraftCrop({ asset, w, h, name, height, focal }: { asset: MediaAsset; w: number; h: number; name: string; height: number; focal: Focal }) {
  const boxW = (height * w) / h;
  const pos = coverPosition(asset.width ?? w, asset.height ?? h, boxW, height, focal);
  return (
    <img
      src={pickerSrc(asset)}
      alt={`${name} crop (unsaved focal point)`}
      data-crop={name}
      style={{ display: 'block', height, width: boxW, objectFit: 'cover', objectPosition: `${pos.x}% ${pos.y}%`, borderRadius: 4 }}
    />
  );
}

/** The three crops; `draft` differs from the saved point while unsaved. */
export function CropPreviews({ asset, draft }: { asset: MediaAsset; draft: Focal | null }) {
  const saved = asset.focal_x !== null && asset.focal_y !== null ? { x: asset.focal_x, y: asset.focal_y } : null;
  const unsaved = (draft?.x ?? null) !== (saved?.x ?? null) || (draft?.y ?? null) !== (saved?.y ?? null);
  const height = 96;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="crop-previews">
        Crops {unsaved ? '(unsaved focal point)' : ''}
      </Text>
      <Group gap="sm" align="flex-end" role="group" aria-labelledby="crop-previews">
        {CROPS.map((c) => (
          <Stack key={c.name} gap={2} align="center">
            {unsaved ? (
              <DraftCrop asset={asset} w={c.w} h={c.h} name={c.name} height={height} focal={draft ?? { x: 0.5, y: 0.5 }} />
            ) : (
              <ServerCrop asset={asset} w={c.w} h={c.h} name={c.name} height={height} />
            )}
            <Text size="xs" c="dimmed">
              {c.name}
            </Text>
          </Stack>
        ))}
      </Group>
    </Stack>
  );
}
