// A parse worker run from a checkout (see parse-pool.ts): TypeScript through tsx, then the task's module.
import { register } from 'tsx/esm/api';

register();

export default async function run(task) {
  const { default: parse } = await import(task.module);
  return parse(task);
}
