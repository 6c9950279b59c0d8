import { TODO_LIMIT, TODO_TEXT_MAX, type Todo } from '@topline/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, fieldErrorsOf } from '../../api/client';
import { useNotice } from '../../notices';
import { useRetrieve } from '../../plan/answers';

/** How often the list is read again while Home is open, so that other members' changes show. */
const REFRESH_MS = 30_000;

/**
 * The plan's to-dos, kept on the server and shared by its members (contract `todos.ts`). Every member sees them; the
 * owner and members who may edit some area add, tick, reword and delete them. Each change names the version it was
 * made on: when another member changed the to-do meanwhile, the server refuses it, the list is read again and the
 * user is told.
 */
export function Todos({ planId }: { planId: number }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const list = useRetrieve('/todos/retrieve', { business_plan_id: planId });
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const { reload } = list;

  useEffect(() => {
    const again = () => {
      if (document.visibilityState === 'visible') void reload();
    };
    const timer = window.setInterval(again, REFRESH_MS);
    window.addEventListener('focus', again);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', again);
    };
  }, [reload]);

  const todos = list.data?.todos ?? [];
  const editable = list.data?.can_edit ?? false;
  const full = todos.length >= TODO_LIMIT;

  /** Runs a change; a to-do changed or deleted by someone else meanwhile reloads the list and says so. */
  const change = async (run: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await run();
      return true;
    } catch (caught) {
      if (caught instanceof ApiError && (caught.status === 409 || caught.status === 404))
        notice({ kind: 'error', title: t('ws.home.todoConflictTitle'), message: t('ws.home.todoConflict') });
      else if (caught instanceof ApiError && caught.code !== 'unauthorized' && caught.code !== 'tier_lock')
        notice({ kind: 'error', title: caught.title, message: caught.message });
      return false;
    } finally {
      setBusy(false);
      await reload();
    }
  };

  const add = async () => {
    const trimmed = text.trim();
    if (trimmed === '') return;
    setBusy(true);
    try {
      await api.post('/todos/create', { business_plan_id: planId, text: trimmed }, { quiet: true });
      setText('');
      setError('');
    } catch (caught) {
      setError(fieldErrorsOf(caught).text ?? (caught instanceof ApiError ? caught.message : t('errors.unexpected')));
    } finally {
      setBusy(false);
      await reload();
    }
  };

  const toggle = (todo: Todo) =>
    change(() =>
      api.post(
        '/todos/edit',
        { business_plan_id: planId, todo_id: todo.id, version: todo.version, done: !todo.done },
        { quiet: true },
      ),
    );
  const reword = async (todo: Todo, next: string) => {
    if (next.trim() === '' || next.trim() === todo.text) {
      setEditing(null);
      return;
    }
    const body = { business_plan_id: planId, todo_id: todo.id, version: todo.version, text: next.trim() };
    await change(() => api.post('/todos/edit', body, { quiet: true }));
    setEditing(null);
  };
  const remove = (todo: Todo) =>
    change(() =>
      api.post('/todos/delete', { business_plan_id: planId, todo_id: todo.id, version: todo.version }, { quiet: true }),
    );

  return (
    <div className="ws-card" data-test="todos">
      <h3>{t('ws.home.todos')}</h3>
      {list.data && todos.length === 0 && <p className="muted">{t('ws.home.todoEmpty')}</p>}
      <ul className="ws-todos">
        {todos.map((todo) => (
          <li key={todo.id} data-test={`todo-${todo.id}`}>
            {editing?.id === todo.id ? (
              <form
                className="ws-inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  void reword(todo, editing.text);
                }}
              >
                <input
                  value={editing.text}
                  maxLength={TODO_TEXT_MAX}
                  aria-label={t('ws.home.todoEditLabel')}
                  onChange={(e) => setEditing({ id: todo.id, text: e.target.value })}
                />
                <button type="submit" className="button button-small" disabled={busy}>
                  {t('ws.common.save')}
                </button>
                <button type="button" className="link-button" onClick={() => setEditing(null)}>
                  {t('ws.home.todoCancel')}
                </button>
              </form>
            ) : (
              <>
                <label title={todo.created_by ? t('ws.home.todoBy', { name: todo.created_by }) : undefined}>
                  <input
                    type="checkbox"
                    checked={todo.done}
                    disabled={!editable || busy}
                    onChange={() => void toggle(todo)}
                  />
                  <span className={todo.done ? 'done' : ''}>{todo.text}</span>
                </label>
                {editable && (
                  <>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setEditing({ id: todo.id, text: todo.text })}
                    >
                      {t('ws.common.edit')}
                    </button>
                    <button type="button" className="link-button" disabled={busy} onClick={() => void remove(todo)}>
                      {t('ws.common.delete')}
                    </button>
                  </>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {editable ? (
        <form
          className="ws-inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <input
            value={text}
            maxLength={TODO_TEXT_MAX}
            placeholder={t('ws.home.todoPlaceholder')}
            aria-label={t('ws.home.todoPlaceholder')}
            aria-invalid={error !== ''}
            disabled={full}
            onChange={(e) => {
              setText(e.target.value);
              setError('');
            }}
          />
          <button type="submit" className="button button-small" disabled={busy || full || text.trim() === ''}>
            {t('ws.common.add')}
          </button>
        </form>
      ) : (
        list.data && <p className="muted">{t('ws.home.todoReadOnly')}</p>
      )}
      {error !== '' && (
        <p className="field-error" role="alert" data-test="todo-error">
          {error}
        </p>
      )}
      {editable && full && <p className="muted">{t('ws.home.todoFull', { max: TODO_LIMIT })}</p>}
    </div>
  );
}
