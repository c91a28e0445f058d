/**
 * /studio/sign-in: email and password (POST /session) and, when the server has single sign-on
 * (GET /session/methods, D121), a "Sign in with <provider>" button that leaves for the provider
 * and comes back signed in. Under OIDC_ONLY the password form is gone. A refusal shows the
 * server's message: 401 "Invalid email or password", 429 when throttled (with the trace id), or
 * the single sign-on refusal the callback named in `?sso_error=`. After signing in it returns to
 * `?next=` (a Studio path) or opens the last used workspace.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Divider, PasswordInput, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { fetchSignInMethods, signIn } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { defaultWorkspacePath, safeNext, sessionQuery } from '../../app/session';
import { AuthFrame } from './AuthFrame';

function refusalTitle(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return 'Too many attempts';
  if (error instanceof ApiError && error.status === 401) return 'Sign-in failed';
  return 'Something went wrong';
}

/** What each `?sso_error=` of the single sign-on callback means to the person (docs/access.md "Who signs in"). */
export const SSO_REFUSALS: Record<string, string> = {
  email_unverified:
    'Your identity provider did not confirm your email address, so Quire cannot tell which account is yours. Ask your administrator to have the address verified, then try again.',
  not_mapped:
    'Your account has no access to any workspace here: none of your groups or roles at the identity provider is given a role in Quire. Ask an administrator for access, then sign in again.',
  expired: 'The sign-in took longer than 10 minutes or was started in another browser. Please try again.',
  provider_error: 'The identity provider did not complete the sign-in: it was cancelled, or the provider could not be reached. Please try again.',
  failed:
    "The identity provider's answer did not pass Quire's checks, so nobody was signed in. Please try again; if it keeps failing, tell your administrator.",
};

export default function SignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Without an answer (an older server, a network error) the password form is shown alone.
  const methods = useQuery({ queryKey: ['session', 'methods'], queryFn: fetchSignInMethods, retry: false, staleTime: Infinity });
  const sso = methods.data?.sso ?? null;
  const passwords = methods.data?.password ?? true;
  const ssoError = params.get('sso_error');
  const next = safeNext(params.get('next'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email.trim(), password);
      client.setQueryData(sessionQuery.queryKey, session);
      navigate(next ?? defaultWorkspacePath(session) ?? '/', { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <AuthFrame title="Sign in">
      {ssoError ? (
        <Alert color="red" title={sso ? `Sign-in with ${sso.name} refused` : 'Single sign-on refused'} role="alert">
          <Text size="sm">{SSO_REFUSALS[ssoError] ?? SSO_REFUSALS.failed}</Text>
        </Alert>
      ) : null}
      {sso ? (
        <Button
          component="a"
          href={next ? `${sso.start_url}?next=${encodeURIComponent(next)}` : sso.start_url}
          fullWidth
          variant={passwords ? 'default' : 'filled'}
        >
          Sign in with {sso.name}
        </Button>
      ) : null}
      {sso && passwords ? <Divider label="or with your password" labelPosition="center" /> : null}
      {passwords ? (
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
      ) : null}
      {passwords ? (
        <Text size="xs" c="dimmed">
          First time here? Open the setup or invitation link you were given; it lets you choose your password.
        </Text>
      ) : (
        <Text size="xs" c="dimmed">
          This Quire signs people in with {sso?.name ?? 'single sign-on'} only.
        </Text>
      )}
    </AuthFrame>
  );
}
