/**
 * /studio/setup?token=: the one-time setup link of a workspace's first owner, or an invitation
 * link (D90). Shows whose link it is (GET /session/token), asks for a password twice, redeems the
 * token (POST /session/password, which signs in) and opens the workspace. A used, expired or
 * unknown link answers 404: the screen says so and what to do.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Anchor, Button, PasswordInput, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { defaultWorkspacePath, sessionQuery } from '../../app/session';
import { AuthFrame } from './AuthFrame';
import { fetchToken, passwordProblem, redeemToken } from './api';

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
