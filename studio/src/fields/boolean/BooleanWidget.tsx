/** `boolean`: a switch (D30). An entry without a value shows "not set" until it is toggled. */
import { Input, Switch, Text } from '@mantine/core';
import type { FieldWidgetProps } from '../types';

export function BooleanWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<boolean>) {
  return (
    <Input.Wrapper error={error} description={description}>
      <Switch
        label={
          <>
            {label ?? field.label}
            {value === null || value === undefined ? (
              <Text span size="xs" c="dimmed" ml={6}>
                (not set)
              </Text>
            ) : null}
          </>
        }
        checked={value === true}
        disabled={readOnly}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
    </Input.Wrapper>
  );
}
