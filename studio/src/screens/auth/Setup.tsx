/**
 * /studio/setup?token=: the one-time setup link of a workspace's first owner, or an invitation
 * link (D90; docs/api.md "Accounts and invitations"). Shows whose link it is (GET /session/token).
 * When the link sets a password (a setup link, or an invitation of an email that has no account
 * yet) it asks for a password twice, redeems the token (POST /session/password, which signs in
 * and accepts) and opens the workspace. When the email already has an account, the person signs
 * in as that email and accepts the invitation with the link (POST /session/invitations/accept):
 * at once if already signed in as it, after signing in on this page otherwise, and after signing
 * out if signed in as someone else. A used, expired or unknown link answers 404: the screen says
 * so and what to do.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, setCsrfToken } from '../../api/client';
import { signIn, signOut, type SessionInfo } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { defaultWorkspacePath, sessionQuery } from '../../app/session';
import { AuthFrame } from './AuthFrame';
import { acceptInvitation, fetchToken, passwordProblem, redeemToken, type OneTimeToken } from './api';

export default function Setup() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const client = useQueryClient();
  const info = useQuery({ queryKey: ['session-token', token], queryFn: () => fetchToken(token), enabled: token !== '', retry: false, staleTime: Infinity });
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (!token || (info.error instanceof ApiError && info.error.status === 404)) {
    return (
      <AuthFrame title="This link does not work">
        <Text>
          The link is incomplete, already used or expired (links last 72 hours). Ask an owner or admin of your workspace for a new invitation; the operator of
          the server can print a new setup link with <code>quire users set-password --link</code>.
        </Text>
        <Anchor component={Link} to="/sign-in">
          Go to sign-in
        </Anchor>
      </AuthFrame>
    );
  }
  if (info.isPending) return <Loading label="Checking your link" />;
  if (info.error) {
    return (
      <AuthFrame title="Set your password">
        <ErrorAlert error={info.error} />
      </AuthFrame>
    );
  }

  if (info.data.action === 'sign_in') return <AcceptInvitation token={token} link={info.data} />;

  const problem = passwordProblem(password);
  const mismatch = repeat !== password ? 'The passwords differ' : null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || mismatch) return;
    setBusy(true);
    setError(null);
    try {
      const session = await redeemToken(token, password);
      client.setQueryData(sessionQuery.queryKey, session);
      const slug = info.data.workspace?.slug;
      navigate(slug ? `/${slug}` : (defaultWorkspacePath(session) ?? '/'), { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const { purpose, email, workspace } = info.data;
  return (
    <AuthFrame
      title={purpose === 'setup' ? 'Set up your account' : 'Accept your invitation'}
      subtitle={
        <>
          Choose a password for <strong>{email}</strong>
          {workspace ? (
            <>
              {' '}
              to work in <strong>{workspace.name}</strong>
            </>
          ) : null}
          .
        </>
      }
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          label="New password"
          description="10 to 200 characters"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={touched ? problem : null}
          mb="sm"
        />
        <PasswordInput
          label="Repeat the password"
          autoComplete="new-password"
          required
          value={repeat}
          onChange={(e) => setRepeat(e.currentTarget.value)}
          error={touched && !problem ? mismatch : null}
          mb="md"
        />
        <ErrorAlert error={error} title="The password was not set" />
        <Button type="submit" fullWidth mt="md" loading={busy}>
          Set password and continue
        </Button>
      </form>
    </AuthFrame>
  );
}

/** An invitation for an email that has an account: the person signs in as it (if not already) and accepts. */
function AcceptInvitation({ token, link }: { token: string; link: OneTimeToken }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const session = useQuery(sessionQuery);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const accept = async (current: SessionInfo) => {
    setCsrfToken(current.csrf_token);
    const updated = await acceptInvitation(token);
    client.setQueryData(sessionQuery.queryKey, updated);
    navigate(link.workspace ? `/${link.workspace.slug}` : (defaultWorkspacePath(updated) ?? '/'), { replace: true });
  };

  const signedInAs = session.data?.user.email ?? null;
  const subtitle = (
    <>
      <strong>{link.email}</strong> is invited to <strong>{link.workspace?.name ?? 'a workspace'}</strong>
      {link.role ? <> as {link.role}</> : null}. This address already has a Quire account: accept the invitation signed in as it.
    </>
  );

  let body;
  if (session.isPending) body = <Loading label="Checking your session" />;
  else if (signedInAs === link.email) {
    body = (
      <Button fullWidth loading={busy} onClick={() => void run(() => accept(session.data!))}>
        Accept invitation
      </Button>
    );
  } else if (signedInAs) {
    body = (
      <Stack gap="sm">
        <Text size="sm">
          You are signed in as <strong>{signedInAs}</strong>. Sign out, then sign in as {link.email} to accept.
        </Text>
        <Button
          variant="default"
          loading={busy}
          onClick={() =>
            void run(async () => {
              await signOut();
              setCsrfToken(null);
              await client.resetQueries({ queryKey: sessionQuery.queryKey });
            })
          }
        >
          Sign out
        </Button>
      </Stack>
    );
  } else {
    body = (
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const started = await signIn(link.email, password);
            client.setQueryData(sessionQuery.queryKey, started);
            await accept(started);
          });
        }}
      >
        <TextInput label="Email" type="email" autoComplete="username" value={link.email} readOnly mb="sm" />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          mb="md"
        />
        <Button type="submit" fullWidth loading={busy} disabled={!password}>
          Sign in and accept
        </Button>
      </form>
    );
  }

  return (
    <AuthFrame title="Accept your invitation" subtitle={subtitle}>
      {body}
      <ErrorAlert error={error} title="The invitation was not accepted" />
      <Text size="xs" c="dimmed">
        Forgot the password of this account? The operator of the server can print a new link with <code>quire users set-password --link</code>.
      </Text>
    </AuthFrame>
  );
}
