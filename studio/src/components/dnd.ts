/**
 * What screen readers hear while a sortable list is dragged (dnd-kit live region): the items by
 * their names, not their ids, and how to drag with the keyboard. Used by the page list and the
 * block tree.
 */
import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';

export function dndAccessibility(nameOf: (id: UniqueIdentifier) => string, noun: string) {
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${nameOf(active.id)} is over ${nameOf(over.id)}.` : `${nameOf(active.id)} is not over a ${noun}.`),
    onDragEnd: ({ active, over }) => (over ? `${nameOf(active.id)} was dropped at ${nameOf(over.id)}.` : `${nameOf(active.id)} was dropped.`),
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
  };
  const screenReaderInstructions: ScreenReaderInstructions = {
    draggable: `To pick up a ${noun}, press Space. Move it with the arrow keys, press Space again to drop it, or Escape to cancel.`,
  };
  return { announcements, screenReaderInstructions };
}
