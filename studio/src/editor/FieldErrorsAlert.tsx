/**
 * "Some fields need attention": every failing field of a refused publish or save, each a button
 * that takes the editor to it (field-errors.ts); `onGo` shows the field (locale, expanded block)
 * and focuses it.
 */
import { Alert, List, Text, UnstyledButton } from '@mantine/core';
import type { ErrorTarget } from './field-errors';

export function FieldErrorsAlert({ targets, onGo }: { targets: ErrorTarget[]; onGo: (target: ErrorTarget) => void }) {
  if (!targets.length) return null;
  return (
    <Alert color="red" role="alert" title="Some fields need attention">
      <Text size="sm" mb={4}>
        {targets.length === 1 ? 'One field was refused' : `${targets.length} fields were refused`}; select one to go to it.
      </Text>
      <List size="sm" spacing={2} aria-label="Fields that need attention">
        {targets.map((t) => (
          <List.Item key={t.key}>
            <UnstyledButton onClick={() => onGo(t)} fz="sm" c="red.9" td="underline" fw={600} data-error-target={t.key} style={{ textAlign: 'start' }}>
              {t.label}
            </UnstyledButton>
            <Text span size="sm">
              : {t.message}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
