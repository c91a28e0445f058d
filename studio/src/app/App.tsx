import '@mantine/core/styles.css';
import { MantineProvider, Title } from '@mantine/core';

/** Placeholder shell; replaced by the Studio's router and screens. */
export function App() {
  return (
    <MantineProvider>
      <Title order={1}>Quire Studio</Title>
    </MantineProvider>
  );
}
