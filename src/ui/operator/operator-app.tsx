import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { BrowserRouter, Navigate, NavLink, Route, Routes } from 'react-router';
import type { Container } from 'inversify';
import { OPERATOR_TOKENS, type OperatorRight } from '../../application/operator';
import { ContainerProvider, useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { ConfirmProvider, useConfirm, useScreenTitle } from './common';
import { OP } from './operator.messages';
import { AuditScreen } from './audit-screen';
import { FloorScreen } from './floor-screen';
import { FulfilmentScreen } from './fulfilment-screen';
import { KujiScreen } from './kuji-screen';
import { MachineKeysScreen } from './machine-keys-screen';
import { MessagesScreen } from './messages-screen';
import { NumbersScreen } from './numbers-screen';
import { MoneyScreen } from './money-screen';
import { SupportScreen } from './support-screen';

/** The console's sections: path, title, the right that shows it (the server checks every call anyway). */
export const OPERATOR_SECTIONS = [
  { path: 'floor', title: OP.sections.floor, right: 'floor', screen: FloorScreen },
  { path: 'messages', title: OP.sections.messages, right: ['broadcast', 'users'], screen: MessagesScreen },
  { path: 'kuji', title: OP.sections.kuji, right: 'kuji', screen: KujiScreen },
  { path: 'fulfilment', title: OP.sections.fulfilment, right: 'fulfilment', screen: FulfilmentScreen },
  { path: 'support', title: OP.sections.support, right: 'support', screen: SupportScreen },
  { path: 'numbers', title: OP.sections.numbers, right: 'numbers', screen: NumbersScreen },
  { path: 'money', title: OP.sections.money, right: 'money', screen: MoneyScreen },
  { path: 'audit', title: OP.sections.audit, right: 'audit', screen: AuditScreen },
  { path: 'machines', title: OP.sections.machines, right: 'machines', screen: MachineKeysScreen },
] as const satisfies readonly {
  path: string;
  title: string;
  right: OperatorRight | readonly OperatorRight[];
  screen: () => ReactNode;
}[];

/** The operator console at /operator: sign-in, then the sections the operator's role may use. */
export function OperatorConsoleApp({ container, basename = '/operator' }: { container: Container; basename?: string }) {
  return (
    <ContainerProvider container={container}>
      <ConfirmProvider>
        <BrowserRouter basename={basename}>
          <SessionGate />
        </BrowserRouter>
      </ConfirmProvider>
    </ContainerProvider>
  );
}

function SessionGate() {
  const session = useInjection(OPERATOR_TOKENS.OperatorSession);
  const state = useObservableState(session.state$, session.snapshot);
  useEffect(() => {
    if (session.snapshot.status === 'checking') void session.restore();
  }, [session]);
  if (state.status === 'checking')
    return (
      <main className="op-signin" id="main">
        <p role="status">{OP.signIn.checking}</p>
      </main>
    );
  if (state.status !== 'signedIn' || !state.operator) return <SignInScreen />;
  return <Shell />;
}

function SignInScreen() {
  const session = useInjection(OPERATOR_TOKENS.OperatorSession);
  const state = useObservableState(session.state$, session.snapshot);
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const errorId = useId();
  useScreenTitle(OP.signIn.title);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void session.signIn(login, password).then((ok) => {
      if (!ok) setPassword('');
    });
  };
  const busy = state.status === 'signingIn';
  const error = state.error === null ? null : state.error || OP.signIn.failed;
  return (
    <main className="op-signin" id="main">
      <form className="op-card op-signin__form" onSubmit={submit} aria-describedby={error ? errorId : undefined}>
        <h1 className="op-signin__title">{OP.appName}</h1>
        <h2>{OP.signIn.title}</h2>
        <p className="op-note">{OP.signIn.lead}</p>
        <label className="op-field">
          <span>{OP.signIn.login}</span>
          <input
            name="login"
            autoComplete="username"
            required
            value={login}
            onChange={(e) => setLogin(e.target.value)}
          />
        </label>
        <label className="op-field">
          <span>{OP.signIn.password}</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error ? (
          <p id={errorId} role="alert" className="op-alert op-alert--error" data-testid="op-signin-error">
            {error}
          </p>
        ) : null}
        <button type="submit" className="op-button op-button--primary" disabled={busy}>
          {busy ? OP.signIn.submitting : OP.signIn.submit}
        </button>
      </form>
    </main>
  );
}

function Shell() {
  const session = useInjection(OPERATOR_TOKENS.OperatorSession);
  const state = useObservableState(session.state$, session.snapshot);
  const confirm = useConfirm();
  const [menuOpen, setMenuOpen] = useState(false);
  const operator = state.operator!;
  const allowed = OPERATOR_SECTIONS.filter((s) =>
    (typeof s.right === 'string' ? [s.right] : s.right).some((r) => session.can(r)),
  );
  const signOut = async () => {
    if (await confirm({ body: OP.shell.signOutConfirm, confirmLabel: OP.shell.signOut })) await session.signOut();
  };
  return (
    <div className="op-shell">
      <a className="op-skip" href="#main">
        {OP.skipToMain}
      </a>
      <header className="op-header">
        <p className="op-header__brand">{OP.appName}</p>
        <p className="op-header__who" data-testid="op-who">
          {OP.shell.signedInAs(operator.display_name, OP.roles[operator.role])}
        </p>
        <button
          type="button"
          className="op-button op-header__menu"
          aria-expanded={menuOpen}
          aria-controls="op-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {OP.shell.menu}
        </button>
        <button type="button" className="op-button" onClick={() => void signOut()}>
          {OP.shell.signOut}
        </button>
      </header>
      <nav id="op-nav" className={menuOpen ? 'op-nav op-nav--open' : 'op-nav'} aria-label={OP.shell.nav}>
        <ul>
          {allowed.map((s) => (
            <li key={s.path}>
              <NavLink to={`/${s.path}`} onClick={() => setMenuOpen(false)}>
                {s.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="op-main" id="main" tabIndex={-1}>
        <Routes>
          {allowed.map((s) => (
            <Route key={s.path} path={`/${s.path}`} element={<s.screen />} />
          ))}
          {OPERATOR_SECTIONS.filter((s) => !allowed.includes(s)).map((s) => (
            <Route key={s.path} path={`/${s.path}`} element={<NotAllowed title={s.title} />} />
          ))}
          <Route path="*" element={<Navigate to={`/${allowed[0]?.path ?? 'floor'}`} replace />} />
        </Routes>
      </main>
    </div>
  );
}

function NotAllowed({ title }: { title: string }) {
  useScreenTitle(title);
  return (
    <section aria-labelledby="op-not-allowed">
      <h1 id="op-not-allowed">{title}</h1>
      <p role="alert" className="op-alert op-alert--error" data-testid="op-not-allowed">
        {OP.shell.notAllowed}
      </p>
    </section>
  );
}
