import type Router from '@koa/router';
import type { Services } from '../deps';
import type { AppState } from '../http/context';
import { handle } from '../http/route';
import { addTodo, canEditTodos, deleteTodo, editTodo, homeReminders, listTodos } from '../services/plans/todos';

/** Home's shared to-dos and its reminders (contract `todos.ts`). */
export function todoRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  handle(router, services, 'todoList', async ({ access }) => ({
    data: { todos: await listTodos(db, access.plan.id), can_edit: canEditTodos(access) },
  }));
  handle(router, services, 'todoCreate', async ({ access, user, input }) => ({
    data: { todo: await addTodo(db, access, user.id, input.text) },
  }));
  handle(router, services, 'todoEdit', async ({ access, input }) => ({
    data: { todo: await editTodo(db, access, input) },
  }));
  handle(router, services, 'todoDelete', async ({ access, input }) => {
    await deleteTodo(db, access, input.todo_id, input.version);
    return { title: 'Success', message: 'deleted' };
  });
  handle(router, services, 'homeReminders', async ({ access }) => ({
    data: { reminders: await homeReminders(db, access, services.now()) },
  }));
}
