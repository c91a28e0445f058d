/**
 * /studio/sign-in: email and password (POST /session). A refusal shows the server's message:
 * 401 "Invalid email or password", 429 when throttled (with the trace id). After signing in it
 * returns to `?next=` (a Studio path) or opens the last used workspace.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { signIn } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { defaultWorkspacePath, safeNext, sessionQuery } from '../../app/session';
import { AuthFrame } from './AuthFrame';

function refusalTitle(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return 'Too many attempts';
  if (error instanceof ApiError && error.status === 401) return 'Sign-in failed';
  return 'Something went wrong';
}

export default function SignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email.trim(), password);
      client.setQueryData(sessionQuery.queryKey, session);
      navigate(safeNext(params.get('next')) ?? defaultWorkspacePath(session) ?? '/', { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <AuthFrame title="Sign in">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextInput label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} mb="sm" />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          mb="md"
        />
        {error ? <ErrorAlert error={error} title={refusalTitle(error)} /> : null}
        <Button type="submit" fullWidth mt="md" loading={busy} disabled={!email || !password}>
          Sign in
        </Button>
      </form>
      <Text size="xs" c="dimmed">
        First time here? Open the setup or invitation link you were given; it lets you choose your password.
      </Text>
    </AuthFrame>
  );
}
